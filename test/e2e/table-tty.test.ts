// Tables on a real terminal: the built binary under a pseudo-terminal (util-linux `script`) of 80
// and 200 columns, listing a school whose later pages bring longer ids, SIS ids, logins and emails
// than the first. None of them is ever cut; only free text gives way to the terminal's width.
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  bin,
  e2eWorkspace,
  ensureBuilt,
  hasScript,
  quote,
  serveMock,
  spawnLms,
  type Served,
} from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-table-tty');
const mock = { ...env, LMS_MOCK: '1', LMS_MOCK_DB: join(dir, 'mock.db') };
let server: Served;

/** `lms args` on a terminal `columns` wide: the lines it printed (what the terminal would wrap, whole). */
async function onTerminal(args: string[], columns: number, environment: Record<string, string>): Promise<string[]> {
  const command = `stty cols ${columns} rows 50 && exec ${[process.execPath, bin, ...args].map(quote).join(' ')}`;
  const r = await execa('script', ['-qec', command, '/dev/null'], { env: environment, reject: false, extendEnv: true });
  expect(r.exitCode, r.stdout).toBe(0);
  return r.stdout.split(/\r?\n/).filter((line) => line !== '');
}

async function records(args: string[], environment: Record<string, string>): Promise<Record<string, unknown>[]> {
  const r = await spawnLms([...args, '-o', 'json'], environment);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
}

async function run(args: string[], environment: Record<string, string> = mock): Promise<void> {
  const r = await spawnLms(args, environment);
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
}

const LONG = {
  login: 'zacharias.featherstonehaugh-cholmondeley.login',
  email: 'zacharias.featherstonehaugh-cholmondeley@students.example-university.edu',
  sisUserId: 'SIS-STUDENT-2026-000000000017',
  sisSectionId: 'BIO-101-EVENING-LAB-SECTION-2026-SPRING-ONLINE',
};

beforeAll(async () => {
  await ensureBuilt();
  // 60 generated users beside the seeded 13: an in-process listing's first batch (50 rows) ends
  // before the last user, who sorts last and brings the longest login, SIS id and email.
  await run(['mock', 'seed', '--yes', '--users', '60']);
  const created = await spawnLms(
    [
      'users',
      'create',
      '--account',
      '1',
      '--name',
      'Zacharias Featherstonehaugh',
      '--sortable-name',
      'Zzz, Zacharias',
      '--login-id',
      LONG.login,
      '--email',
      LONG.email,
      '--sis-user-id',
      LONG.sisUserId,
      '-o',
      'json',
    ],
    mock,
  );
  expect(created.exitCode, created.stderr).toBe(0);
  const userId = String((JSON.parse(created.stdout) as { id: number }).id);
  const section = await spawnLms(
    ['sections', 'create', '--course', '1', '--name', 'Zz Evening Lab', '--sis-id', LONG.sisSectionId, '-o', 'json'],
    mock,
  );
  expect(section.exitCode, section.stderr).toBe(0);
  const sectionId = String((JSON.parse(section.stdout) as { id: number }).id);
  await run(['enrollments', 'add', '--section', sectionId, '--user', userId, '--state', 'active']);
  // In a seeded section too, where its (three-digit) enrollment id comes on the third page of two.
  await run(['enrollments', 'add', '--section', 'sis_section_id:BIO-101-A', '--user', userId, '--state', 'active']);
  await run(['admins', 'add', '--account', '1', '--user', userId]);
  server = await serveMock(mock, ['--quiet']);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** Over HTTP every page is a batch of its own, so `--per-page 2` makes each page widen the table. */
const overHttp = () => ({ ...env, LMS_BASE_URL: server.url, LMS_TOKEN: ADMIN });

const LISTINGS: Array<[name: string, args: string[], identifiers: string[], http: boolean]> = [
  [
    'users list (in process, batches of 50)',
    ['users', 'list', '--account', '1', '--all'],
    ['id', 'login_id', 'sis_user_id', 'email'],
    false,
  ],
  [
    'users list (over HTTP, 2 a page)',
    ['users', 'list', '--account', '1', '--all', '--per-page', '2'],
    ['id', 'login_id', 'sis_user_id', 'email'],
    true,
  ],
  [
    'enrollments list --course',
    ['enrollments', 'list', '--course', '1', '--all', '--per-page', '2'],
    ['id', 'user_id', 'course_id', 'course_section_id'],
    true,
  ],
  [
    'enrollments list --section',
    ['enrollments', 'list', '--section', 'sis_section_id:BIO-101-A', '--all', '--per-page', '2'],
    ['id', 'user_id', 'course_id', 'course_section_id'],
    true,
  ],
  [
    'sections list',
    ['sections', 'list', '--course', '1', '--all', '--per-page', '2'],
    ['id', 'course_id', 'sis_section_id'],
    true,
  ],
  [
    'admins list',
    ['admins', 'list', '--account', '1', '--all', '--per-page', '2'],
    ['id', 'user.id', 'user.login_id'],
    true,
  ],
];

const valueAt = (record: Record<string, unknown>, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | null | undefined)?.[key], record);

describe.runIf(hasScript)('a table on a terminal', () => {
  it.each(LISTINGS)(
    '%s: no id, SIS id, login or email is cut, at 80 and at 200 columns',
    async (_name, args, identifiers, http) => {
      const environment = http ? overHttp() : mock;
      const expected = await records(args, environment);
      expect(expected.length).toBeGreaterThan(2);
      for (const columns of [80, 200]) {
        const lines = await onTerminal(args, columns, environment);
        expect(lines, lines.join('\n')).toHaveLength(expected.length + 1);
        expected.forEach((record, i) => {
          const cells = lines[i + 1].split(/\s+/);
          for (const field of identifiers) {
            const value = valueAt(record, field);
            if (value !== null && value !== undefined)
              expect(cells, `${columns} columns, row ${i + 1}, ${field}`).toContain(String(value));
          }
        });
      }
    },
    60_000,
  );

  it('the longest user: free text gives way at 80 columns, and is whole at 200, where every line fits', async () => {
    const args = ['users', 'list', '--account', '1', '--all', '--per-page', '2'];
    const narrow = await onTerminal(args, 80, overHttp());
    const wide = await onTerminal(args, 200, overHttp());
    expect(narrow.at(-1)).toMatch(new RegExp(`^\\d+ +Zach…  ${LONG.login}  ${LONG.sisUserId}  ${LONG.email}$`));
    expect(wide.at(-1)).toMatch(
      new RegExp(`^\\d+ +Zacharias Featherstonehaugh  ${LONG.login}  ${LONG.sisUserId}  ${LONG.email}$`),
    );
    for (const line of wide) expect(line.length).toBeLessThanOrEqual(200);
  }, 60_000);

  it('a terminal that reports no width (0 columns): the listing ends with its table, and the spinner a slow answer ' +
    'would bring is not drawn', async () => {
    // Each answer 1.5 s late, so a spinner is due; at 0 columns it used to clear lines without end.
    // With colours (the workspace turns them off) and a terminal type: what a spinner needs to be drawn.
    const coloured = Object.fromEntries(Object.entries(mock).filter(([name]) => name !== 'NO_COLOR'));
    const slow = { ...coloured, TERM: 'xterm', LMS_MOCK_FAULTS: JSON.stringify({ latencyMs: 1500 }) };
    const command =
      'stty cols 0 rows 50 && exec ' +
      `${[process.execPath, bin, 'users', 'list', '--account', '1'].map(quote).join(' ')}`;
    const r = await execa('script', ['-qec', command, '/dev/null'], {
      env: slow,
      reject: false,
      extendEnv: false,
      timeout: 30_000,
    });
    expect({ exitCode: r.exitCode, timedOut: r.timedOut }).toEqual({ exitCode: 0, timedOut: false });
    expect(r.stdout).toContain('Ada Admin');
    expect(r.stdout.length).toBeLessThan(20_000);
  }, 60_000);
});

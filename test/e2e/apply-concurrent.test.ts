// End to end: two `lms apply` of one file at once — two real processes, against one mock database
// in-process and over `lms mock serve`, with one state directory and with one each — end with
// exactly one of every object the file lists, both exit 0, and the plan afterwards is no changes.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockCourses } from '../../src/apply/lock.js';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-apply-twice');
const servers: Served[] = [];
const ASSIGNMENTS = 20;
const ANNOUNCEMENTS = 5;

function courseFile(name: string, sis: string): string {
  const path = join(dir, name);
  const lines = [
    'courses:',
    `  - sis_course_id: ${sis}`,
    `    name: Twice ${sis}`,
    '    account: sis_account_id:MSU',
    '    sections:',
    ...[1, 2, 3].map((i) => `      - { sis_section_id: ${sis}-S${i}, name: Section ${i} }`),
    '    assignments:',
    // Half by key, half by title alone: both ways of matching are raced.
    ...Array.from(
      { length: ASSIGNMENTS },
      (_, i) => `      - { ${i % 2 ? `key: a${i}, ` : ''}name: Assignment ${i}, points_possible: ${i + 1} }`,
    ),
    '    topics:',
    ...[1, 2, 3].map((i) => `      - { key: t${i}, title: Topic ${i}, message: "<p>${i}</p>" }`),
    '    announcements:',
    ...Array.from({ length: ANNOUNCEMENTS }, (_, i) => `      - { title: News ${i}, message: "<p>${i}</p>" }`),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function listed(kind: string, sis: string, runEnv: Record<string, string>, flags: string[]): Promise<string[]> {
  const r = await spawnLms([...flags, kind, 'list', '--course', `sis_course_id:${sis}`, '--all', '-o', 'json'], runEnv);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { name?: string; title?: string }[]).map((o) => String(o.name ?? o.title));
}

/** Two applies of `file` at once; then one of each object, and no changes left. */
async function twiceAtOnce(sis: string, envs: [Record<string, string>, Record<string, string>], flags: string[]) {
  const file = courseFile(`${sis}.yaml`, sis);
  const runs = await Promise.all(envs.map((e) => spawnLms([...flags, 'apply', '-f', file, '--yes', '-o', 'json'], e)));
  for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
  const assignments = await listed('assignments', sis, envs[0], flags);
  expect(assignments.sort()).toEqual(Array.from({ length: ASSIGNMENTS }, (_, i) => `Assignment ${i}`).sort());
  const announcements = await listed('announcements', sis, envs[0], flags);
  expect(announcements.sort()).toEqual(Array.from({ length: ANNOUNCEMENTS }, (_, i) => `News ${i}`).sort());
  const topics = await listed('topics', sis, envs[0], flags);
  expect(topics.sort()).toEqual(['Topic 1', 'Topic 2', 'Topic 3']);
  const sections = await listed('sections', sis, envs[0], flags);
  expect(sections.filter((s) => s.startsWith('Section')).sort()).toEqual(['Section 1', 'Section 2', 'Section 3']);
  for (const e of envs) {
    const diff = await spawnLms([...flags, 'diff', '-f', file, '--exit-code', '-o', 'json'], e);
    expect(diff.exitCode, diff.stdout + diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout).changes).toBe(false);
  }
  return runs;
}

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], env);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
});

describe('two applies of one file at once, on one --mock database', () => {
  it('with one state directory make each object once', async () => {
    await twiceAtOnce('TWICE-1', [env, env], ['--mock']);
  }, 60_000);

  // Whether the second run starts before the first ends is the machine's to decide: the waiting
  // message itself is proven below, against a lock the test holds.
  it('with a state directory each make each object once', async () => {
    await twiceAtOnce(
      'TWICE-2',
      [
        { ...env, LMS_STATE_DIR: join(dir, 'state-a') },
        { ...env, LMS_STATE_DIR: join(dir, 'state-b') },
      ],
      ['--mock'],
    );
  }, 60_000);
});

describe('two applies of one file at once, over lms mock serve', () => {
  it('with a state directory each make each object once', async () => {
    const served = await serveMock(env);
    servers.push(served);
    const http = (state: string) => ({
      ...env,
      LMS_BASE_URL: served.url,
      LMS_TOKEN: ADMIN,
      LMS_STATE_DIR: join(dir, state),
    });
    await twiceAtOnce('TWICE-3', [http('http-a'), http('http-b')], []);
  }, 60_000);
});

describe('an apply while another holds its course', () => {
  const held = () =>
    lockCourses({
      where: `mock:${env.LMS_MOCK_DB}`,
      courses: ['TWICE-4'],
      waitMs: 0,
      onWait: () => undefined,
      onLost: () => undefined,
    });

  it('exits 6 with nothing changed once --lock-timeout has passed, naming the holder', async () => {
    const release = await held();
    try {
      const file = courseFile('TWICE-4.yaml', 'TWICE-4');
      const r = await spawnLms(['--mock', 'apply', '-f', file, '--yes', '--lock-timeout', '0'], env);
      expect(r.exitCode, r.stderr).toBe(6);
      expect(r.stderr).toContain(
        `another lms apply (pid ${process.pid}) is applying course TWICE-4 on this instance; nothing was changed`,
      );
      expect((await spawnLms(['--mock', 'courses', 'get', 'sis_course_id:TWICE-4'], env)).exitCode).toBe(4);
    } finally {
      await release();
    }
  }, 30_000);

  it('waits, saying so, and applies once the other lets go', async () => {
    const release = await held();
    setTimeout(() => void release(), 1500);
    const r = await spawnLms(
      ['--mock', 'apply', '-f', courseFile('TWICE-4.yaml', 'TWICE-4'), '--yes', '--lock-timeout', '20'],
      env,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `waiting for another lms apply (pid ${process.pid}) of course TWICE-4 on this instance (up to 20 s)…\n`,
    );
  }, 30_000);
});

// End to end: `lms apply` against `lms mock serve`, writes counted where they land — the server's
// own request log. Apply then re-apply is zero writes; an edit is one; --prune removes only what the
// file dropped, and a module item it drops only when agreed to; and a run killed with -9 (or stopped
// with Ctrl-C) midway, then run again, ends where an uninterrupted run ends, with nothing made twice.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, journalLines, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-apply');
const servers: Served[] = [];
const STUDENTS = 120;
const TOPICS = 25;
const QUIZZES = 8;

/** A fresh seeded database, with the users a big roster names, served over HTTP. */
async function server(
  name: string,
  flags: string[] = [],
): Promise<{ served: Served; db: string; http: (state: string) => Record<string, string> }> {
  const db = join(dir, `${name}.db`);
  const users = join(dir, `${name}-users.csv`);
  writeFileSync(
    users,
    [
      'name,login_id,sis_user_id',
      ...Array.from({ length: STUDENTS }, (_, i) => `Apply Person ${i + 1},ap-${i + 1},AP-${i + 1}`),
      '',
    ].join('\n'),
  );
  const imported = await spawnLms(['--mock', 'users', 'import', '--account', '1', users], { ...env, LMS_MOCK_DB: db });
  expect(imported.exitCode, imported.stderr).toBe(0);
  const served = await serveMock({ ...env, LMS_MOCK_DB: db }, flags);
  servers.push(served);
  return {
    served,
    db,
    http: (state) => ({ ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: join(dir, state) }),
  };
}

/** The writes the server logged since `from` (its log's length then). */
const writesSince = (s: Served, from: number) =>
  s
    .log()
    .slice(from)
    .split('\n')
    .filter((l) => /^(POST|PUT|DELETE) /.test(l));

function files(
  name: string,
  options: { students?: number; topics?: number; quizzes?: number; dropTopic?: boolean } = {},
): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const students = options.students ?? 3;
  writeFileSync(
    join(folder, 'roster.csv'),
    [
      'user,type,section,state',
      ...Array.from(
        { length: students },
        (_, i) => `${i % 2 ? `ap-${i + 1}` : `sis_user_id:AP-${i + 1}`},student,${i % 3 ? 'E2E-A' : ''},active`,
      ),
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(folder, 'outcomes.yaml'),
    'groups:\n  - title: Lab Skills\n    vendor_guid: e2e-lab\n    outcomes:\n      - { title: Uses a pipette, ' +
      'vendor_guid: e2e-pipette, ratings: ["3:Accurate", "1:Rough"] }\n',
  );
  const topics = Array.from(
    { length: options.topics ?? 2 },
    (_, i) => `      - { key: t${i + 1}, title: Topic ${i + 1}, message: "<p>Topic ${i + 1}</p>", published: true }`,
  ).filter((_, i) => !(options.dropTopic && i === 1));
  const quizzes = Array.from(
    { length: options.quizzes ?? 1 },
    (_, i) => `      - { key: q${i + 1}, title: Quiz ${i + 1}, quiz_type: practice_quiz, time_limit: ${10 + i} }`,
  );
  const yaml = `courses:
  - sis_course_id: E2E-1
    name: End to End
    course_code: E2E-1
    account: sis_account_id:MSU
    sections:
      - { sis_section_id: E2E-A, name: Lab A }
      - { sis_section_id: E2E-B, name: Lab B, crosslist_to: sis_course_id:BIO-101 }
    enrollments:
      - { user: sis_user_id:T-003, type: teacher }
      - { csv: roster.csv }
    assignments:
      - { key: lab1, name: Lab 1, points_possible: 10, submission_types: [online_upload] }
    topics:
${topics.join('\n')}
      - { title: Lab 1 discussion, assignment: lab1 }
    announcements:
      - { title: Welcome, message: "<p>Hello</p>" }
    quizzes:
${quizzes.join('\n')}
    outcomes: { file: outcomes.yaml }
`;
  const path = join(folder, 'course.yaml');
  writeFileSync(path, yaml);
  return path;
}

/** What the course holds, read from the server's database by the CLI's own mock mode: comparable across servers. */
async function contents(db: string): Promise<Record<string, string[]>> {
  const read = async (args: string[], fields: string) => {
    const r = await spawnLms(['--mock', ...args, '--all', '-o', 'ndjson', '--fields', fields], {
      ...env,
      LMS_MOCK_DB: db,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => Object.values(JSON.parse(l)).join('|'))
      .sort();
  };
  const course = 'sis_course_id:E2E-1';
  return {
    sections: await read(['sections', 'list', '--course', course], 'name,sis_section_id'),
    enrollments: await read(
      [
        'enrollments',
        'list',
        '--course',
        course,
        '--state',
        'active',
        '--state',
        'invited',
        '--state',
        'inactive',
        '--state',
        'completed',
      ],
      'user_id,role,enrollment_state',
    ),
    assignments: await read(['assignments', 'list', '--course', course], 'name,points_possible'),
    topics: await read(['topics', 'list', '--course', course], 'title,published'),
    announcements: await read(['announcements', 'list', '--course', course], 'title'),
    quizzes: await read(['quizzes', 'list', '--course', course], 'title,time_limit'),
    outcomes: (await spawnLms(['--mock', 'outcomes', 'export', '--course', course], { ...env, LMS_MOCK_DB: db })).stdout
      .split('\n')
      .sort(),
  };
}

const duplicates = (rows: string[]) => rows.filter((r, i) => rows.indexOf(r) !== i);

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('lms apply against lms mock serve', () => {
  it('applies, then re-applies with zero writes at the server; one edit is one write', async () => {
    const { served, http } = await server('reapply');
    const path = files('reapply');
    const first = await spawnLms(['apply', '-f', path, '--yes', '-o', 'json'], http('state-reapply'));
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).summary).toMatchObject({ create: 15, update: 1, delete: 0 });

    let mark = served.log().length;
    const again = await spawnLms(['apply', '-f', path, '--yes', '-o', 'json'], http('state-reapply'));
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stderr).summary).toMatch(/^No changes: the instance matches the file/);
    expect(writesSince(served, mark)).toEqual([]);

    const diff = await spawnLms(['diff', '-f', path, '--exit-code'], http('state-reapply'));
    expect(diff.exitCode, diff.stderr).toBe(0);

    writeFileSync(
      path,
      (await import('node:fs')).readFileSync(path, 'utf8').replace('time_limit: 10', 'time_limit: 45'),
    );
    const edited = await spawnLms(['diff', '-f', path, '--exit-code', '-o', 'json'], http('state-reapply'));
    expect(edited.exitCode).toBe(1);
    expect(JSON.parse(edited.stdout).courses[0].actions).toMatchObject([
      { action: 'update', kind: 'quiz', key: 'q1', changes: [{ field: 'time_limit', from: 10, to: 45 }] },
    ]);
    mark = served.log().length;
    expect((await spawnLms(['apply', '-f', path, '--yes'], http('state-reapply'))).exitCode).toBe(0);
    expect(writesSince(served, mark)).toEqual([
      expect.stringMatching(/^PUT \/api\/v1\/courses\/sis_course_id:E2E-1\/quizzes\/\d+ 200 /),
    ]);
  }, 120_000);

  it('--prune removes only what the file dropped', async () => {
    const { served, db, http } = await server('prune');
    const path = files('prune', { topics: 3 });
    expect((await spawnLms(['apply', '-f', path, '--yes'], http('state-prune'))).exitCode).toBe(0);
    const before = await contents(db);
    files('prune', { topics: 3, dropTopic: true });
    const mark = served.log().length;
    const r = await spawnLms(['apply', '-f', path, '--prune', '--yes', '-o', 'json'], http('state-prune'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writesSince(served, mark)).toEqual([
      expect.stringMatching(/^DELETE \/api\/v1\/courses\/sis_course_id:E2E-1\/discussion_topics\/\d+ 200 /),
    ]);
    const after = await contents(db);
    expect(after).toEqual({ ...before, topics: before.topics.filter((t) => !t.startsWith('Topic 2|')) });
  }, 120_000);

  it("a module item the file drops is deleted only when agreed to; an item's published is one write", async () => {
    const { served, http } = await server('items');
    const folder = join(dir, 'items');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'course.yaml');
    const course = (items: string[]) =>
      writeFileSync(
        path,
        `courses:\n  - sis_course_id: E2E-M\n    name: Modules\n    account: sis_account_id:MSU\n    modules:\n` +
          `      - key: w1\n        name: Week 1\n        items:\n${items.map((i) => `          - ${i}\n`).join('')}`,
      );
    const header = '{ type: SubHeader, title: Start here }';
    const link = '{ type: ExternalUrl, title: USGS, external_url: "https://www.usgs.gov/" }';
    course([header, link]);
    expect((await spawnLms(['apply', '-f', path, '--yes'], http('state-items'))).exitCode).toBe(0);

    course([header]);
    let mark = served.log().length;
    const refused = await spawnLms(['apply', '-f', path], http('state-items'));
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(writesSince(served, mark)).toEqual([]);
    const agreed = await spawnLms(['apply', '-f', path, '--yes'], http('state-items'));
    expect(agreed.exitCode, agreed.stderr).toBe(0);
    expect(writesSince(served, mark)).toEqual([
      expect.stringMatching(/^DELETE \/api\/v1\/courses\/sis_course_id:E2E-M\/modules\/\d+\/items\/\d+ 200 /),
    ]);

    course(['{ type: SubHeader, title: Start here, published: true }']);
    mark = served.log().length;
    expect((await spawnLms(['apply', '-f', path, '--yes'], http('state-items'))).exitCode).toBe(0);
    expect(writesSince(served, mark)).toEqual([
      expect.stringMatching(/^PUT \/api\/v1\/courses\/sis_course_id:E2E-M\/modules\/\d+\/items\/\d+ 200 /),
    ]);
    mark = served.log().length;
    expect((await spawnLms(['apply', '-f', path, '--yes'], http('state-items'))).exitCode).toBe(0);
    expect(writesSince(served, mark)).toEqual([]);
  }, 120_000);

  it('killed with -9 midway, a re-run ends where an uninterrupted run ends, nothing made twice', async () => {
    const whole = await server('whole');
    const size = { students: STUDENTS, topics: TOPICS, quizzes: QUIZZES };
    const path = files('killed', size);
    const uninterrupted = await spawnLms(['apply', '-f', path, '--yes'], whole.http('state-whole'));
    expect(uninterrupted.exitCode, uninterrupted.stderr).toBe(0);
    const expected = await contents(whole.db);

    const slow = await server('slow', ['--quiet', '--latency', '10']);
    const http = slow.http('state-killed');
    const child = spawnLms(['apply', '-f', path, '--yes', '--concurrency', '2'], http);
    const deadline = Date.now() + 60_000;
    while (journalLines(join(dir, 'state-killed')) < 60 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    const partial = await contents(slow.db);
    expect(partial.enrollments.length).toBeGreaterThan(0);
    expect(partial).not.toEqual(expected);

    const rerun = await spawnLms(['apply', '-f', path, '--yes', '-o', 'json'], http);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const done = await contents(slow.db);
    for (const rows of Object.values(done)) expect(duplicates(rows.filter(Boolean))).toEqual([]);
    // Ids differ between the servers; what the course holds does not.
    const withoutIds = (c: Record<string, string[]>) => ({
      ...c,
      enrollments: c.enrollments.length,
      outcomes: c.outcomes.length,
    });
    expect(withoutIds(done)).toEqual(withoutIds(expected));
    const third = await spawnLms(['diff', '-f', path, '--exit-code'], http);
    expect(third.exitCode, third.stdout).toBe(0);
  }, 180_000);

  it('Ctrl-C exits 130; the re-run finishes with nothing made twice', async () => {
    const slow = await server('interrupted', ['--quiet', '--latency', '10']);
    const path = files('interrupted', { students: 60, topics: 10 });
    const http = slow.http('state-interrupted');
    const child = spawnLms(['apply', '-f', path, '--yes', '--concurrency', '2'], http);
    const deadline = Date.now() + 60_000;
    while (journalLines(join(dir, 'state-interrupted')) < 30 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const stopped = await child;
    expect(stopped.exitCode).toBe(130);
    expect(stopped.stderr).toContain('interrupted');
    const rerun = await spawnLms(['apply', '-f', path, '--yes'], http);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const done = await contents(slow.db);
    for (const rows of Object.values(done)) expect(duplicates(rows.filter(Boolean))).toEqual([]);
    expect(done.topics).toHaveLength(11);
    expect((await spawnLms(['diff', '-f', path, '--exit-code'], http)).exitCode).toBe(0);
  }, 180_000);
});

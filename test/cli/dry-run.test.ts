// `--dry-run` on every verb that writes, read off the command tree: a verb whose routes include a
// write gets the flag, and run with it against the mock (its own first help example, with
// `--dry-run -o json`) it sends the reads it needs and no write, and prints the write it stopped at.
// A new writing verb is in this table the day it is added, flag or not.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { dryRunOf, type CommandSpec, type NounSpec } from '../../src/model/command.js';
import { buildProgram } from '../../src/cli/program.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { MOCK_ADMIN_TOKEN } from '../../src/mock/runtime.js';
import { matchRoute } from '../../src/spec/match.js';
import type { ApiRequest } from '../../src/transport/types.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session, splitArgs, type Session } from '../helpers/run-lms.js';

type Spec = CommandSpec<never> | NounSpec;
const isNoun = (s: Spec): s is NounSpec => 'commands' in s;
const word = (name: string) => name.split(' ')[0];

interface Verb {
  path: string;
  spec: CommandSpec<never>;
  how: 'plans' | 'stops';
}

function writingVerbs(specs: Spec[], prefix: string[] = []): Verb[] {
  return specs.flatMap((spec) => {
    const path = [...prefix, word(spec.name)];
    if (isNoun(spec)) return writingVerbs(spec.commands, path);
    const how = dryRunOf(spec);
    return how ? [{ path: path.join(' '), spec, how }] : [];
  });
}

/** Files the examples name. */
const FILES: Record<string, string | Uint8Array> = {
  'notes.txt': 'Lab notes\n',
  'review.html': '<h2>Review</h2>\n',
  'syllabus.html': '<h1>Syllabus</h1>\n',
  'syllabus.pdf': '%PDF-1.4\n%%EOF\n',
  'avatar.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
  'new-students.csv': 'name,login_id,email\nNew Student,nstudent,nstudent@example.edu\n',
  'roster.csv': 'user,type,section,state\nsis_user_id:S-007,student,,active\ntheo,teacher,,active\n',
  'grades.csv': 'user,grade,comment\nsam,19,\n9,18,\n',
  'sis-users.csv': 'user_id,login_id,full_name,status\nS-100,ada,Ada Lovelace,active\n',
  // As canvas-lms doc/api/sis_csv.md's samples have them, with the seeded school's SIS ids.
  'courses.csv': 'course_id,short_name,long_name,account_id,status\nE411208,ENG115,English 115,MSU-HUM,active\n',
  'sections.csv': 'section_id,course_id,name,status\nS001,BIO-101,Section 1,active\n',
  'outcomes.yaml':
    'groups:\n  - title: Field Work\n    vendor_guid: msu-field\n    outcomes:\n      - title: Keeps a field ' +
    'notebook\n        vendor_guid: msu-notebook\n        ratings: ["3:Complete", "1:Partial"]\n',
  'course.yaml':
    'courses:\n  - sis_course_id: BIO-102\n    name: Biology 102\n    account: sis_account_id:MSU\n    sections:\n' +
    '      - { sis_section_id: BIO-102-A, name: Lab A }\n    topics:\n      - { key: welcome, title: Welcome, ' +
    'message: "<p>Hello</p>", published: true }\n',
};

/**
 * The command line a verb is tried with: its first help example that is one plain command (a verb
 * that plans, the one that shows its dry run if it has one), with the confirmation and the plan
 * flags taken off and `--dry-run -o json` put on.
 */
function lineFor(verb: Verb, dir: string): string[] {
  const plain = (verb.spec.examples ?? []).filter((e) => e.startsWith('lms ') && !/&&|\$\(|\s[|<>]\s/.test(e));
  const chosen = (verb.how === 'plans' ? plain.find((e) => e.includes('--dry-run')) : undefined) ?? plain[0];
  if (!chosen) throw new Error(`${verb.path} has no plain example to try its --dry-run with`);
  const argv = splitArgs(chosen.slice(4)).filter((a) => !['--yes', '-y', '--plan', '--dry-run'].includes(a));
  return [
    ...argv.map((a) => (a.replace(/^\.\//, '') in FILES ? join(dir, basename(a)) : a)),
    '--dry-run',
    '-o',
    'json',
  ];
}

/** A seeded mock whose writes are counted where they would reach it. */
function counted(): { lms: Session; writes: ApiRequest[]; reads: ApiRequest[] } {
  const lms = session();
  const writes: ApiRequest[] = [];
  const reads: ApiRequest[] = [];
  const handler = lms.mock.handler;
  lms.mock.handler = (req: ApiRequest) => {
    (req.method === 'GET' ? reads : writes).push(req);
    return handler(req);
  };
  return { lms, writes, reads };
}

function commandAt(program: Command, path: string): Command | undefined {
  let current: Command | undefined = program;
  for (const name of path.split(' ')) current = current?.commands.find((c) => c.name() === name);
  return current;
}

describe('--dry-run on every verb that writes', async () => {
  const verbs = writingVerbs(await loadAllNouns());
  const dir = mkdtempSync(join(tmpdir(), 'lms-dry-run-'));
  for (const [name, content] of Object.entries(FILES)) writeFileSync(join(dir, name), content);

  it('finds the writing verbs in the tree, the ones the task names among them', () => {
    const paths = verbs.map((v) => v.path);
    for (const p of [
      'users create',
      'enrollments add',
      'sections create',
      'conv send',
      'topics create',
      'users import',
      'grade set',
      'apply',
    ])
      expect(paths).toContain(p);
    expect(verbs.length).toBeGreaterThan(60);
  });

  it('every one of them takes --dry-run on the command line', async () => {
    const program = await buildProgram({ io: fakeIO(), env: {} }, { jsonErrors: false });
    const without = verbs
      .filter((v) => !commandAt(program, v.path)?.options.some((o) => o.long === '--dry-run'))
      .map((v) => v.path);
    expect(without).toEqual([]);
  });

  /** What a verb's example acts on that the seed does not hold: made first, as examples.test.ts does. */
  const SETUP: Record<string, string[]> = {
    'sections delete': ['sections create --course 1 --name Spare --sis-id BIO-101-SPARE'],
  };

  it.each(verbs.filter((v) => v.how === 'stops').map((v) => [v.path, v] as const))(
    '%s: sends no write, prints the write it stopped at',
    async (_path, verb) => {
      const { lms, writes } = counted();
      for (const line of SETUP[verb.path] ?? []) expect((await lms.run(line)).exitCode).toBe(0);
      writes.length = 0;
      const r = await lms.run(lineFor(verb, dir));
      expect(writes.map((w) => `${w.method} ${w.url}`)).toEqual([]);
      expect(r.exitCode, r.stderr).toBe(0);
      if (verb.path === 'diff') {
        // A plan that sends nothing by nature: its own output, and no write to stop at.
        expect(r.stderr).toContain('Dry run: the command needed no write; nothing was sent.');
        expect(JSON.parse(r.stdout)).toBeTruthy();
        return;
      }
      const out = JSON.parse(r.stdout) as {
        dry_run: boolean;
        requests: { method: string; url: string; body: unknown }[];
      };
      expect(out).toMatchObject({
        dry_run: true,
        requests: [
          {
            method: expect.stringMatching(/^(POST|PUT|DELETE)$/),
            url: expect.stringMatching(/^http:\/\/lms\.mock\/api\/v1\//),
          },
        ],
      });
      expect(out.requests).toHaveLength(1);
      expect(Object.keys(out.requests[0])).toEqual(expect.arrayContaining(['method', 'url', 'body']));
      // The write shown is one the verb declares: what it would really have sent.
      const [{ method, url }] = out.requests;
      const matched = matchRoute(method, new URL(url).pathname)?.route.id;
      // `lms api` sends whatever it is told: a route of the table, not one it declares.
      if (verb.spec.anyRequest) expect(matched).toBeDefined();
      else expect(verb.spec.routes).toContain(matched);
      expect(r.stderr).toMatch(/^Dry run: nothing was sent\./m);
      expect(r.stdout + r.stderr).not.toContain(MOCK_ADMIN_TOKEN);
    },
  );

  it.each(verbs.filter((v) => v.how === 'plans').map((v) => [v.path, v] as const))(
    '%s: plans as it always has, and sends no write',
    async (_path, verb) => {
      const { lms, writes } = counted();
      const r = await lms.run(lineFor(verb, dir), { env: { LMS_STATE_DIR: join(dir, 'state') } });
      expect(writes.map((w) => `${w.method} ${w.url}`)).toEqual([]);
      expect(r.exitCode, r.stderr).toBe(0);
      // Its own plan, shaped like its run's result (test/bulk/dry-run-shape.test.ts), not a write it stopped at.
      const out = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(out.dry_run).toBe(true);
      expect(out).not.toHaveProperty('requests');
    },
  );
});

describe('a dry run', () => {
  it('resolves what it needs with reads, then shows the write as the API would receive it', async () => {
    const { lms, writes, reads } = counted();
    const r = await lms.run('conv remove-messages 5 --message 9 --dry-run -o json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes).toEqual([]);
    expect(reads.map((q) => new URL(q.url).pathname)).toContain('/api/v1/conversations/5');
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      requests: [
        {
          method: 'POST',
          url: 'http://lms.mock/api/v1/conversations/5/remove_messages',
          content_type: 'application/x-www-form-urlencoded',
          body: [['remove[]', '9']],
        },
      ],
      checked: { method: 'GET', url: '/api/v1/conversations/5', status: 200 },
    });
    // The check reads the conversation without marking it read.
    expect(
      reads.filter((q) => q.url.includes('/conversations/5?')).every((q) => q.url.includes('auto_mark_as_read=false')),
    ).toBe(true);
  });

  it.each([
    ['a user that does not exist', 'users delete 99999 --account 1', {}, 4, 'GET /api/v1/users/99999 answered 404'],
    ['a course that does not exist', 'courses update 999 --name x', {}, 4, 'GET /api/v1/courses/999 answered 404'],
    [
      'a section that does not exist',
      'enrollments add --section sis_section_id:NOPE --user 7 --type student',
      {},
      4,
      'GET /api/v1/sections/sis_section_id:NOPE answered 404',
    ],
    [
      'a student creating a user',
      'users create --account 1 --name Zed --login-id zed',
      { LMS_TOKEN: '7~mock-sam' },
      3,
      'GET /api/v1/accounts/1 answered 401',
    ],
  ])('predicts its run: %s exits as the run would, nothing sent', async (_what, line, env, exitCode, said) => {
    const { lms, writes } = counted();
    const r = await lms.run(`${line} --dry-run`, { env });
    expect(r.exitCode, r.stderr).toBe(exitCode);
    expect(r.stderr).toContain(said);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stdout).toBe('');
    expect(writes).toEqual([]);
  });

  it('says what it checked when the target is there, and what a read cannot tell', async () => {
    const { lms } = counted();
    const r = await lms.run('courses update 1 --name x --dry-run -o json');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Checked: GET /api/v1/courses/1 answered 200; the write itself may still be refused.');
    expect(JSON.parse(r.stdout).checked).toEqual({ method: 'GET', url: '/api/v1/courses/1', status: 200 });
  });

  it('masks secrets in the body and never shows the token, in JSON and as text', async () => {
    const { lms } = counted();
    const line = 'users create --login-id jdoe --name "Jane Doe" --password hunter22 --dry-run';
    const json = await lms.run(`${line} -o json`, { env: { LMS_TOKEN: MOCK_ADMIN_TOKEN } });
    expect(JSON.parse(json.stdout).requests[0].body).toEqual([
      ['user[name]', 'Jane Doe'],
      ['pseudonym[unique_id]', 'jdoe'],
      ['pseudonym[password]', '[REDACTED]'],
    ]);
    const table = await lms.run(line, { tty: true, env: { LMS_TOKEN: MOCK_ADMIN_TOKEN } });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toBe(
      [
        'POST http://lms.mock/api/v1/accounts/self/users',
        'Content-Type: application/x-www-form-urlencoded',
        '',
        'user[name]=Jane Doe',
        'pseudonym[unique_id]=jdoe',
        'pseudonym[password]=[REDACTED]',
        '',
        `curl -X POST http://lms.mock/api/v1/accounts/self/users -H "Authorization: Bearer $LMS_TOKEN" ` +
          `--data-urlencode 'user[name]=Jane Doe' --data-urlencode 'pseudonym[unique_id]=jdoe' --data-urlencode ` +
          `'pseudonym[password]=[REDACTED]'`,
        '',
      ].join('\n'),
    );
    for (const r of [json, table]) {
      expect(r.stdout + r.stderr).not.toContain('hunter22');
      expect(r.stdout + r.stderr).not.toContain(MOCK_ADMIN_TOKEN);
    }
  });

  it('asks no confirmation, and needs no --yes in a script: nothing is destroyed', async () => {
    const { lms, writes } = counted();
    const confirm = vi.fn(async () => true);
    const tty = await lms.run('sections delete 2 --dry-run', {
      tty: true,
      prompter: { secret: async () => '', confirm },
    });
    expect(tty.exitCode, tty.stderr).toBe(0);
    expect(confirm).not.toHaveBeenCalled();
    const script = await lms.run('users delete 7 --account 1 --dry-run -o json');
    expect(script.exitCode, script.stderr).toBe(0);
    expect(JSON.parse(script.stdout).requests[0]).toMatchObject({
      method: 'DELETE',
      url: 'http://lms.mock/api/v1/accounts/1/users/7',
      body: null,
    });
    expect(writes).toEqual([]);
    expect(JSON.parse((await lms.run('sections get 2 -o json')).stdout)).toMatchObject({ id: 2 });
  });

  it('of a multi-step upload shows the first step and says the rest depend on its answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-dry-upload-'));
    writeFileSync(join(dir, 'notes.txt'), 'Lab notes\n');
    const { lms, writes } = counted();
    const r = await lms.run(['users', 'upload', join(dir, 'notes.txt'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes).toEqual([]);
    const out = JSON.parse(r.stdout);
    expect(out.requests).toEqual([
      {
        method: 'POST',
        url: 'http://lms.mock/api/v1/users/self/files',
        content_type: 'application/x-www-form-urlencoded',
        body: [
          ['name', 'notes.txt'],
          ['size', '10'],
          ['content_type', 'text/plain'],
          ['on_duplicate', 'overwrite'],
        ],
      },
    ]);
    expect(out.note).toMatch(/starts a file upload.*depend on it/);
    expect(r.stderr).toMatch(/starts a file upload/);
  });

  it('knows the upload step under a base URL with a path of its own, and sends nothing there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-dry-upload-'));
    writeFileSync(join(dir, 'notes.txt'), 'Lab notes\n');
    // Port 9 (discard) on loopback: nothing listens, so a request sent would fail the command.
    const lms = session({ LMS_MOCK: '', LMS_BASE_URL: 'http://127.0.0.1:9/canvas', LMS_TOKEN: 'a-token' });
    const r = await lms.run(['users', 'upload', join(dir, 'notes.txt'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.requests).toMatchObject([{ method: 'POST', url: 'http://127.0.0.1:9/canvas/api/v1/users/self/files' }]);
    expect(out.note).toMatch(/starts a file upload.*depend on it/);
  });

  it('carries --as-user in the URL, and -v traces the write as not sent', async () => {
    const { lms } = counted();
    const r = await lms.run('-v conv update 5 --star --as-user 3 --dry-run -o json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].url).toBe('http://lms.mock/api/v1/conversations/5?as_user_id=3');
    expect(r.stderr).toMatch(
      /✗ PUT http:\/\/lms\.mock\/api\/v1\/conversations\/5\?as_user_id=3 \(\d+ ms\): PUT not sent \(--dry-run\)/,
    );
  });

  it('lets a usage error or a failed lookup through as it is: nothing was stopped', async () => {
    const { lms, writes } = counted();
    expect((await lms.run('users create --dry-run')).exitCode).toBe(2);
    const missing = await lms.run('conv remove-messages 999 --message 9 --dry-run');
    expect(missing.exitCode).toBe(4);
    expect(missing.stdout).toBe('');
    expect(writes).toEqual([]);
  });

  it('on apply is its plan (as --plan)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-dry-apply-'));
    writeFileSync(join(dir, 'course.yaml'), FILES['course.yaml']);
    const { lms, writes } = counted();
    const env = { LMS_STATE_DIR: join(dir, 'state') };
    const dry = await lms.run(['apply', '-f', join(dir, 'course.yaml'), '--dry-run', '-o', 'json'], { env });
    const plan = await lms.run(['apply', '-f', join(dir, 'course.yaml'), '--plan', '-o', 'json'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(plan.stdout);
    expect(writes).toEqual([]);
  });
});

// `lms __complete`: the ids a TAB is offered, read from the mock the line would use, narrowed by the
// context flags on it, with names for zsh and fish, within a deadline, from a minute's cache, and
// never a word of error.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/cli/complete.js';
import { run } from '../../src/cli/entry.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session, type Session } from '../helpers/run-lms.js';

const lms = session();
const cacheDir = () => mkdtempSync(join(tmpdir(), 'lms-test-complete-'));

/** What the mock holds, asked the ordinary way: `id name` pairs of a listing. */
async function listed(line: string, name = 'name'): Promise<[string, string][]> {
  const r = await lms.run(`${line} --all -o json`);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [String(row.id), String(row[name])]);
}

async function enrolled(course: string): Promise<[string, string][]> {
  const users = new Map<string, string>();
  for (const row of JSON.parse((await lms.run(`enrollments list --course ${course} --all -o json`)).stdout) as {
    user_id: number;
    user: { name: string };
  }[]) {
    if (!users.has(String(row.user_id))) users.set(String(row.user_id), row.user.name);
  }
  return [...users];
}

function completeIn(
  s: Session,
  words: string[],
  shell = 'bash',
  env: Record<string, string> = { LMS_MOCK: '1' },
  mock: MockRuntime = s.mock,
  options = {},
) {
  return complete(
    [shell, '--', ...words],
    { env, mock, configDir: s.configDir, keychain: s.keychain },
    { cacheDir: cacheDir(), ...options },
  );
}

const ids = (values: [string, string][]) => values.map(([id]) => `${id}\n`).join('');

describe('lms __complete offers the ids a flag or argument declares, from the mock', () => {
  it.each<[string, string[], () => Promise<[string, string][]>]>([
    ['courses for --course', ['grade', '--course', ''], () => listed('courses list --account self')],
    ['courses for courses get <id>', ['courses', 'get', ''], () => listed('courses list --account self')],
    [
      'courses for --course= as bash splits it',
      ['sections', 'list', '--course', '=', ''],
      () => listed('courses list --account self'),
    ],
    [
      'courses for --course= as zsh and fish give it',
      ['sections', 'list', '--course='],
      () => listed('courses list --account self'),
    ],
    ['accounts for --account', ['admins', 'list', '--account', ''], () => listed('accounts list')],
    ['users of the account for users get', ['users', 'get', ''], () => listed('users list --account self')],
    [
      "course 1's assignments for --assignment after --course 1",
      ['grade', '--course', '1', '--assignment', ''],
      () => listed('assignments list --course 1'),
    ],
    [
      "course 2's assignments for assignments get after --course 2",
      ['assignments', 'get', '--course', '2', ''],
      () => listed('assignments list --course 2'),
    ],
    [
      "course 1's sections for sections get after --course 1",
      ['sections', 'get', '--course', '1', ''],
      () => listed('sections list --course 1'),
    ],
    ["course 1's people for --user after --course 1", ['grade', '--course', '1', '--user', ''], () => enrolled('1')],
    [
      "course 1's topics for topics get after --course 1",
      ['topics', 'get', '--course', '1', ''],
      () => listed('topics list --course 1', 'title'),
    ],
  ])('%s', async (_what, words, expected) => {
    const values = await expected();
    expect(values.length).toBeGreaterThan(0);
    expect(await completeIn(lms, words)).toBe(ids(values));
  });

  it('narrows by the context: course 1 and course 2 have different assignments', async () => {
    const one = await completeIn(lms, ['grade', '--course', '1', '--assignment', '']);
    const two = await completeIn(lms, ['grade', '--course', '2', '--assignment', '']);
    expect(one).not.toBe(two);
  });

  it('offers only the ids that start with the word typed', async () => {
    const all = (await listed('courses list --account self')).map(([id]) => id);
    expect(await completeIn(lms, ['courses', 'get', '1'])).toBe(
      all
        .filter((id) => id.startsWith('1'))
        .map((id) => `${id}\n`)
        .join(''),
    );
  });

  it.each<[string, (id: string, name: string) => string]>([
    ['zsh', (id, name) => `${id}:${name}`],
    ['fish', (id, name) => `${id}\t${name}`],
    ['bash', (id) => id],
  ])('%s: each id with its name, where the shell shows one', async (shell, line) => {
    const courses = await listed('courses list --account self');
    expect(await completeIn(lms, ['courses', 'get', ''], shell)).toBe(
      courses.map(([id, name]) => `${line(id, name)}\n`).join(''),
    );
  });

  it.each<[string, string[]]>([
    ['a flag that takes no id', ['sections', 'create', '--name', '']],
    ['a flag with choices', ['users', 'list', '-o', '']],
    ['where a verb goes', ['grade', '']],
    ['a flag', ['courses', 'get', '--']],
    ['an assignment with no course to look in', ['grade', '--assignment', '']],
    ['an argument that takes no id', ['profile', 'add', '']],
    ['an unknown noun', ['nosuch', '--course', '']],
  ])('nothing for %s', async (_what, words) => {
    expect(await completeIn(lms, words)).toBe('');
  });

  it(
    'uses the instance the line names: --mock on it without ' + 'LMS_MOCK, and nothing for a -p that names no profile',
    async () => {
      expect(await completeIn(lms, ['--mock', 'courses', 'get', ''], 'bash', {})).toBe(
        ids(await listed('courses list --account self')),
      );
      expect(await completeIn(lms, ['-p', 'nope', 'courses', 'get', ''], 'bash', {})).toBe('');
      expect(await completeIn(lms, ['courses', 'get', ''], 'bash', { LMS_MOCK: '1', LMS_PROFILE: 'nope' })).toBe(
        ids(await listed('courses list --account self')),
      );
    },
  );
});

describe('a TAB never waits, asks or complains', () => {
  it('offers nothing once the deadline has passed, with a transport slower than it', async () => {
    const slow: MockRuntime = {
      ...lms.mock,
      handler: async (req) => {
        await new Promise((r) => setTimeout(r, 3000));
        return lms.mock.handler(req);
      },
    };
    const started = Date.now();
    expect(await completeIn(lms, ['courses', 'get', ''], 'bash', { LMS_MOCK: '1' }, slow, { deadlineMs: 300 })).toBe(
      '',
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('offers nothing, and prints nothing, when the instance refuses the token', async () => {
    const io = fakeIO();
    const code = await run(['__complete', 'bash', '--', 'courses', 'get', ''], {
      io,
      env: { LMS_MOCK: '1', LMS_TOKEN: 'not-a-token', LMS_CACHE_DIR: cacheDir() },
      mock: lms.mock,
      configDir: lms.configDir,
      keychain: lms.keychain,
    });
    expect({ code, stdout: io.stdoutText(), stderr: io.stderrText() }).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('prints the values, and nothing else, when run as a command', async () => {
    const io = fakeIO();
    const code = await run(['__complete', 'fish', '--', 'courses', 'get', ''], {
      io,
      env: { LMS_MOCK: '1', LMS_CACHE_DIR: cacheDir() },
      mock: lms.mock,
      configDir: lms.configDir,
      keychain: lms.keychain,
    });
    const courses = await listed('courses list --account self');
    expect({ code, stdout: io.stdoutText(), stderr: io.stderrText() }).toEqual({
      code: 0,
      stdout: courses.map(([id, name]) => `${id}\t${name}\n`).join(''),
      stderr: '',
    });
  });

  it('nothing for a call that is not SHELL -- WORDS', async () => {
    expect(await complete(['tcsh', '--', 'courses', 'get', ''], { env: { LMS_MOCK: '1' }, mock: lms.mock })).toBe('');
    expect(await complete(['bash', 'courses', 'get', ''], { env: { LMS_MOCK: '1' }, mock: lms.mock })).toBe('');
  });
});

describe('answers are kept a minute, per instance and list, for their owner only', () => {
  it('a second TAB within the minute asks nothing; after it, asks again', async () => {
    let asked = 0;
    const counted: MockRuntime = {
      ...lms.mock,
      handler: (req) => {
        asked++;
        return lms.mock.handler(req);
      },
    };
    const dir = cacheDir();
    let now = 1_000_000;
    const tab = () =>
      completeIn(lms, ['grade', '--course', '1', '--assignment', ''], 'bash', { LMS_MOCK: '1' }, counted, {
        cacheDir: dir,
        now: () => now,
      });
    const first = await tab();
    expect(first).not.toBe('');
    const afterFirst = asked;
    expect(afterFirst).toBeGreaterThan(0);
    now += 30_000;
    expect(await tab()).toBe(first);
    expect(asked).toBe(afterFirst);
    now += 31_000;
    expect(await tab()).toBe(first);
    expect(asked).toBeGreaterThan(afterFirst);
    // Another context is another list.
    await completeIn(lms, ['grade', '--course', '2', '--assignment', ''], 'bash', { LMS_MOCK: '1' }, counted, {
      cacheDir: dir,
      now: () => now,
    });
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
  });

  it("another caller's TAB within the minute is asked afresh: a student never gets the admin's list", async () => {
    const dir = cacheDir();
    const now = () => 1_000_000;
    const tab = (env: Record<string, string>) =>
      completeIn(lms, ['courses', 'get', ''], 'bash', { LMS_MOCK: '1', ...env }, lms.mock, { cacheDir: dir, now });
    const admin = await tab({});
    const student = await tab({ LMS_TOKEN: '7~mock-sam' });
    expect(readdirSync(dir)).toHaveLength(2);
    expect(student).not.toBe(admin);
    const own = await lms.run('courses list --all -o json', { env: { LMS_TOKEN: '7~mock-sam' } });
    expect(student).toBe(
      ids((JSON.parse(own.stdout) as { id: number; name: string }[]).map((c) => [String(c.id), c.name])),
    );
  });
});

// Every file and stdin the command tree says a verb reads, fed /dev/zero: as a path, and as stdin
// where the verb reads `-` or a `--…-stdin` flag. Each is refused (exit 2, saying what is too
// large) within seconds, while the child's peak resident set (VmHWM, sampled as it runs) stays far
// below what reading the endless input would take. The table is checked against the tree, so a new
// flag that reads a file cannot miss it.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, peakRss } from '../helpers/e2e.js';
import { declaredVerbs } from '../helpers/verbs.js';
import { longFlagOf } from '../../src/model/options.js';

const MiB = 1024 * 1024;
const BOUND = 200 * MiB;
const DEADLINE_MS = 5_000;
const { dir, env } = e2eWorkspace('bounded-readers');
const linux = existsSync('/proc/self/status');

/** Where the input goes on the command line; left out, the verb reads it from stdin by a flag of its own. */
const F = '\0input';
/** As F, for a file that is only ever a path (not `-`). */
const P = '\0path';

/** Each reader the tree declares, by `noun verb --flag` (or `noun verb <arg>`), and a command line that reaches it. */
const READERS: Record<string, string[]> = {
  'users import <file>': ['--mock', 'users', 'import', '--account', '1', F],
  'enrollments import <file>': ['--mock', 'enrollments', 'import', '--course', '1', F],
  'courses import <file>': ['--mock', 'courses', 'import', F],
  'sections import <file>': ['--mock', 'sections', 'import', F],
  'outcomes import <file>': ['--mock', 'outcomes', 'import', '--course', '1', F],
  'sis import <file>': ['--mock', 'sis', 'import', '--account', '1', F],
  'pages create --body-file': ['--mock', 'pages', 'create', '--course', '1', '--title', 'T', '--body-file', F],
  'pages update --body-file': ['--mock', 'pages', 'update', '--course', '1', 'week-1-notes', '--body-file', F],
  'pages update-front --body-file': ['--mock', 'pages', 'update-front', '--course', '1', '--body-file', F],
  'topics create --message-file': ['--mock', 'topics', 'create', '--course', '1', '--title', 'T', '--message-file', F],
  'topics update --message-file': ['--mock', 'topics', 'update', '--course', '1', '1', '--message-file', F],
  'topics post --message-file': ['--mock', 'topics', 'post', '--course', '1', '1', '--message-file', F],
  'topics reply --message-file': ['--mock', 'topics', 'reply', '--course', '1', '1', '1', '--message-file', F],
  'topics edit-entry --message-file': [
    '--mock',
    'topics',
    'edit-entry',
    '--course',
    '1',
    '1',
    '1',
    '--message-file',
    F,
  ],
  'announcements create --message-file': [
    '--mock',
    'announcements',
    'create',
    '--course',
    '1',
    '--title',
    'T',
    '--message-file',
    F,
  ],
  'announcements update --message-file': [
    '--mock',
    'announcements',
    'update',
    '--course',
    '1',
    '1',
    '--message-file',
    F,
  ],
  'announcements post --message-file': ['--mock', 'announcements', 'post', '--course', '1', '1', '--message-file', F],
  'announcements reply --message-file': [
    '--mock',
    'announcements',
    'reply',
    '--course',
    '1',
    '1',
    '1',
    '--message-file',
    F,
  ],
  'announcements edit-entry --message-file': [
    '--mock',
    'announcements',
    'edit-entry',
    '--course',
    '1',
    '1',
    '1',
    '--message-file',
    F,
  ],
  'submissions submit --text-file': [
    '--mock',
    'submissions',
    'submit',
    '--course',
    '1',
    '--assignment',
    '1',
    '--text-file',
    F,
  ],
  'grade set --csv': ['--mock', 'grade', 'set', '--course', '1', '--csv', F],
  'conv send --body-file': ['--mock', 'conv', 'send', '--to', '2', '--subject', 'S', '--body-file', F],
  'conv reply --body-file': ['--mock', 'conv', 'reply', '1', '--body-file', F],
  'conv batch --ids-file': ['--mock', 'conv', 'batch', '--event', 'mark_as_read', '--ids-file', F],
  'profile add --token-stdin': ['profile', 'add', 'p', '--url', 'http://127.0.0.1:9', '--no-verify', '--token-stdin'],
  'auth login --client-secret-stdin': [
    'auth',
    'login',
    '-p',
    'p',
    '--url',
    'http://127.0.0.1:9',
    '--client-id',
    '1',
    '--client-secret-stdin',
    '--no-browser',
  ],
  'profile add --ca-file': [
    'profile',
    'add',
    'p',
    '--url',
    'https://127.0.0.1:9',
    '--no-verify',
    '--token-stdin',
    '--ca-file',
    P,
  ],
  'auth login --ca-file': [
    'auth',
    'login',
    '-p',
    'p',
    '--url',
    'https://127.0.0.1:9',
    '--client-id',
    '1',
    '--no-browser',
    '--ca-file',
    P,
  ],
  'apply --file': ['--mock', 'apply', '-f', F],
  'diff --file': ['--mock', 'diff', '-f', F],
  'api request --input': ['--mock', 'api', 'POST', '/api/v1/courses', '--input', F],
};

/** The readers the tree declares: arguments and flags marked `file: 'read'`, and flags that read stdin. */
async function declaredReaders(): Promise<string[]> {
  const found: string[] = [];
  for (const { path, spec } of await declaredVerbs()) {
    for (const [arg, use] of Object.entries(spec.fileArgs ?? {}))
      if (use === 'read') found.push(`${path.join(' ')} <${arg}>`);
    for (const option of spec.options ?? []) {
      const long = longFlagOf(option);
      if (option.file === 'read' || long?.endsWith('-stdin')) found.push(`${path.join(' ')} ${long}`);
    }
  }
  return found;
}

/** `lms ARGS` with /dev/zero as stdin, killed past BOUND or the deadline. */
function zeroed(args: string[]): Promise<{ code: number | null; stderr: string; peak: number; ms: number }> {
  const zero = openSync('/dev/zero', 'r');
  const started = Date.now();
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...env, LMS_MOCK_DB: join(dir, 'mock.db') },
    stdio: [zero, 'ignore', 'pipe'],
  });
  closeSync(zero);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let highest = 0;
  const timer = setInterval(() => {
    const now = child.pid === undefined ? undefined : peakRss(child.pid);
    if (now !== undefined) highest = Math.max(highest, now);
    if (highest > BOUND || Date.now() - started > 2 * DEADLINE_MS) child.kill('SIGKILL');
  }, 10);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, stderr, peak: highest, ms: Date.now() - started });
    }),
  );
}

beforeAll(ensureBuilt);

describe('every reader the command tree declares is bounded', () => {
  it('the table names each one', async () => {
    expect(Object.keys(READERS).sort()).toEqual((await declaredReaders()).sort());
  });

  const runs = Object.entries(READERS).flatMap(([reader, argv]) =>
    argv.includes(P)
      ? [{ name: `${reader} /dev/zero`, args: argv.map((a) => (a === P ? '/dev/zero' : a)) }]
      : argv.includes(F)
        ? [
            { name: `${reader} /dev/zero`, args: argv.map((a) => (a === F ? '/dev/zero' : a)) },
            { name: `${reader} - < /dev/zero`, args: argv.map((a) => (a === F ? '-' : a)) },
          ]
        : [{ name: `${reader} < /dev/zero`, args: argv }],
  );

  it.skipIf(!linux).each(runs)('$name: exit 2, within seconds and bounded memory', async ({ args }) => {
    const r = await zeroed(args);
    expect(r.code, r.stderr).toBe(2);
    // Over its bound, or (a CA file, read only when it is a regular file) refused unread.
    expect(r.stderr).toMatch(/larger than \d+ (MiB|KiB)|it is a device, not a file/);
    expect(r.ms).toBeLessThan(DEADLINE_MS);
    expect(r.peak).toBeLessThan(BOUND);
  });
});

// The error contract: with -o json (or LMS_OUTPUT=json) every error is exactly one JSON object on
// stderr, whatever raised it; without, `error: …` and `hint: …` lines. Exit codes as DESIGN.md says.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/model/context.js';
import { session } from '../helpers/run-lms.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-test-errors-'));
/** A roster with a row that names no one: a bulk job that validates first, then fails or skips it. */
const roster = join(dir, 'roster.csv');
writeFileSync(roster, 'user,role\n7,student\nnosuch,student\n');

interface Case {
  what: string;
  line: string;
  code: number;
  /** Part of the message. */
  message: string;
  options?: { tty?: boolean; stdin?: string; env?: Record<string, string>; prompter?: Prompter };
  /** Without -o json, a report comes first (a bulk job's warnings and summary), then the error. */
  reported?: true;
}

// An error with the name @inquirer gives the one it rejects with on Ctrl-C.
class ExitPromptError extends Error {
  override name = 'ExitPromptError';
}
const ctrlC: Prompter = {
  secret: async () => {
    throw new ExitPromptError('User force closed the prompt with SIGINT');
  },
  confirm: async () => {
    throw new ExitPromptError('User force closed the prompt with SIGINT');
  },
};

const broken: Prompter = {
  secret: async () => {
    throw new Error('boom');
  },
  confirm: async () => {
    throw new Error('boom');
  },
};

const cases: Case[] = [
  // commander's own errors, from parsing the command line
  { what: 'an unknown command', line: 'usres list', code: 2, message: "unknown command 'usres'" },
  { what: 'an unknown verb', line: 'users lst', code: 2, message: "unknown command 'lst'" },
  { what: 'an unknown option', line: 'users list --bogus', code: 2, message: "unknown option '--bogus'" },
  {
    what: 'a missing required flag',
    line: 'users create --name X',
    code: 2,
    message: "required option '--login-id <login>' not specified",
  },
  { what: 'a missing argument', line: 'users update', code: 2, message: "missing required argument 'id'" },
  { what: 'a bad --limit', line: 'users list --limit 0', code: 2, message: '--limit must be a whole number' },
  {
    what: 'a bad choice',
    line: 'users settings update --manual-mark-as-read maybe',
    code: 2,
    message: "argument 'maybe' is invalid",
  },
  { what: 'a bad -o', line: 'users list -o xml', code: 2, message: "argument 'xml' is invalid" },
  {
    what: 'a bad choice for a flag whose value may be left out',
    line: 'mcp --pseudonymize=everyone',
    code: 2,
    message: "argument 'everyone' is invalid. Allowed choices are students, all.",
  },
  {
    what: 'a flag that needs another',
    line: 'mcp --pseudonym-key k',
    code: 2,
    message: '--pseudonym-key needs --pseudonymize',
  },
  { what: 'too many arguments', line: 'users get 1 2', code: 2, message: 'too many arguments' },
  // the tool's own errors
  {
    what: 'a usage error from a command',
    line: 'users list --search ab',
    code: 2,
    message: '--search needs at least 3 characters',
  },
  {
    what: 'an unknown field',
    line: 'users get 7 --fields id,nope',
    code: 2,
    message: '--fields: unknown field "nope"',
  },
  { what: 'a bad --timeout', line: 'users get 7 --timeout 99999999999', code: 2, message: '--timeout must be' },
  { what: 'a 404', line: 'users get 99999', code: 4, message: 'not found' },
  { what: 'a 401', line: 'users get self', code: 3, message: '401', options: { env: { LMS_TOKEN: 'nope' } } },
  { what: 'a refusal (422)', line: 'users create --login-id admin --name Dup', code: 5, message: 'failed with' },
  { what: 'a missing confirmation', line: 'users delete 7 --account 1', code: 2, message: 'pass --yes' },
  {
    what: 'a value that destroys, without --yes',
    line: 'enrollments add --course 1 --user 8 --state inactive',
    code: 2,
    message: '--state inactive destroys data',
  },
  { what: 'a 404 of a write', line: 'enrollments add --course 1 --user 999999', code: 4, message: 'not found' },
  {
    what: 'an instance that does not answer',
    line: 'users get self',
    code: 7,
    message: 'refused the connection',
    options: { env: { LMS_MOCK: '', LMS_BASE_URL: 'http://127.0.0.1:9', LMS_TOKEN: 'not-a-real-token' } },
  },
  {
    what: 'bulk rows that do not validate',
    line: `enrollments import --course 1 ${roster}`,
    code: 2,
    message: '1 problem; nothing was written',
  },
  {
    what: 'bulk rows left undone',
    line: `enrollments import --course 1 --skip-invalid ${roster}`,
    code: 1,
    message: '1 invalid row skipped',
    reported: true,
  },
  {
    what: 'Ctrl-C at a confirmation',
    line: 'users delete 7 --account 1',
    code: 130,
    message: 'interrupted',
    options: { tty: true, prompter: ctrlC },
  },
  {
    what: 'Ctrl-C at a secret prompt',
    line: 'profile add p --url https://lms.example.edu',
    code: 130,
    message: 'interrupted',
    options: { tty: true, prompter: ctrlC },
  },
  {
    what: 'an unexpected error',
    line: 'users delete 7 --account 1',
    code: 1,
    message: 'boom',
    options: { tty: true, prompter: broken },
  },
];

describe('with -o json, one JSON object on stderr and nothing else', () => {
  it.each(cases.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    const r = await session().run(`${c.line} -o json`, c.options);
    expect(r.exitCode).toBe(c.code);
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const error = JSON.parse(r.stderr) as Record<string, unknown>;
    expect(error).toMatchObject({ exit_code: c.code });
    expect(typeof error.error).toBe('string');
    expect(error.message).toContain(c.message);
  });

  it.each(cases.filter((c) => c.code === 2).map((c) => [c.what, c] as const))(
    'LMS_OUTPUT=json counts like -o json: %s',
    async (_what, c) => {
      const r = await session().run(c.line, { ...c.options, env: { ...c.options?.env, LMS_OUTPUT: 'json' } });
      expect(r.exitCode).toBe(2);
      expect(JSON.parse(r.stderr)).toMatchObject({ error: 'UsageError', exit_code: 2 });
    },
  );

  it.each([
    ['-o json', ['-o', 'json', 'usres']],
    ['-ojson', ['-ojson', 'usres']],
    ['--output=json', ['--output=json', 'usres']],
    ['--output json after the command', ['usres', '--output', 'json']],
  ])('%s', async (_what, argv) => {
    const r = await session().run(argv);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({
      error: 'UsageError',
      message: "unknown command 'usres'",
      exit_code: 2,
      hint: 'did you mean users?',
      code: 'commander.unknownCommand',
    });
  });

  it('-o table wins over LMS_OUTPUT=json', async () => {
    const r = await session().run('usres -o table', { env: { LMS_OUTPUT: 'json' } });
    expect(r.stderr).toBe("error: unknown command 'usres'\nhint: did you mean users?\n");
  });
});

describe('without -o json, human text', () => {
  it.each(cases.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    const r = await session().run(c.line, c.options);
    expect(r.exitCode).toBe(c.code);
    expect(r.stderr).toMatch(c.reported ? /^error: /m : /^error: /);
    expect(r.stderr).toContain(c.message);
    expect(r.stderr).not.toContain('{"error"');
  });

  it('commander errors read like the others, with a suggestion as the hint', async () => {
    const r = await session().run('users list --serch x');
    expect(r).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: unknown option '--serch'\nhint: did you mean --search?\n",
    });
  });

  it('Ctrl-C at a prompt exits 130 with a short message', async () => {
    const r = await session().run('users delete 7 --account 1', { tty: true, prompter: ctrlC });
    expect(r).toEqual({ exitCode: 130, stdout: '', stderr: 'error: interrupted\n' });
  });

  it.each([
    ['AbortError', () => new DOMException('This operation was aborted', 'AbortError')],
    ['AbortPromptError', () => Object.assign(new Error('Prompt was aborted'), { name: 'AbortPromptError' })],
    ['CancelPromptError', () => Object.assign(new Error('Prompt was canceled'), { name: 'CancelPromptError' })],
  ])('%s is an interruption too', async (_name, make) => {
    const abort: Prompter = {
      secret: async () => {
        throw make();
      },
      confirm: async () => false,
    };
    const r = await session().run('profile add p --url https://lms.example.edu -o json', {
      tty: true,
      prompter: abort,
    });
    expect(r.exitCode).toBe(130);
    expect(JSON.parse(r.stderr)).toEqual({ error: 'InterruptedError', message: 'interrupted', exit_code: 130 });
  });

  it('help and version are not errors', async () => {
    expect((await session().run('--help -o json')).exitCode).toBe(0);
    expect((await session().run('users list --help -o json')).stderr).toBe('');
    expect((await session().run(['--version', '--no-color'])).exitCode).toBe(0);
  });
});

describe('what is thrown that is no error', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'boom'],
    ['an object with commander-like fields', { code: 'commander.unknownOption', exitCode: 1 }],
  ])('%s is an internal error (exit 1), its message said once', async (_what, thrown) => {
    const { handleError } = await import('../../src/model/handle-error.js');
    const { fakeIO } = await import('../helpers/fake-io.js');
    const io = fakeIO();
    expect(handleError(thrown, io, true)).toBe(1);
    expect(JSON.parse(io.stderrText())).toMatchObject({ error: 'InternalError', exit_code: 1 });
  });
});

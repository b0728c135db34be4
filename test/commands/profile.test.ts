import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session, type LmsResult } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TOKEN = 'tok-very-secret-1234';
const prompter = (token = TOKEN) => ({ secret: async () => token, confirm: async () => true });

afterEach(() => {
  vi.restoreAllMocks();
});

function noToken(results: LmsResult[], token = TOKEN): void {
  for (const r of results) {
    expect(r.stdout).not.toContain(token);
    expect(r.stderr).not.toContain(token);
  }
}

describe('lms profile add / list / show / use / remove', () => {
  it('stores profiles, lists and shows them without the token, switches and removes them', async () => {
    const lms = session();
    const file = join(lms.configDir, 'config.json');
    const results: LmsResult[] = [];
    const run = async (line: string, options?: Parameters<typeof lms.run>[1]) => {
      const r = await lms.run(line, options);
      results.push(r);
      return r;
    };

    const added = await run('profile add prod --url https://lms.example.edu/ --token-stdin', { stdin: `${TOKEN}\n` });
    expect(added).toEqual({ exitCode: 0, stdout: '', stderr: `Saved profile "prod" (lms.example.edu) in ${file}\n` });
    expect((await run('profile add dev --url http://127.0.0.1:4010 --token-stdin', { stdin: 'dev-token' })).exitCode).toBe(0);

    expect(json((await run('profile list -o json')).stdout)).toEqual([
      { name: 'dev', url: 'http://127.0.0.1:4010', current: false, token: 'set (9 characters)' },
      { name: 'prod', url: 'https://lms.example.edu', current: true, token: `set (${TOKEN.length} characters)` },
    ]);
    expect(json((await run('profile show -o json')).stdout)).toEqual({
      name: 'prod',
      url: 'https://lms.example.edu',
      current: true,
      token: `set (${TOKEN.length} characters)`,
      file,
    });

    expect(await run('profile use dev')).toEqual({ exitCode: 0, stdout: '', stderr: 'Now using profile "dev".\n' });
    expect(json((await run('profile show -o json')).stdout)).toMatchObject({ name: 'dev', current: true });
    expect(json((await run('profile show prod -o json')).stdout)).toMatchObject({ name: 'prod', current: false });
    expect(json((await run('profile show -o json', { env: { LMS_PROFILE: 'prod' } })).stdout)).toMatchObject({ name: 'prod' });

    expect(await run('profile remove dev')).toEqual({ exitCode: 0, stdout: '', stderr: 'Removed profile "dev".\n' });
    expect(json((await run('profile ls -o json')).stdout)).toEqual([{ name: 'prod', url: 'https://lms.example.edu', current: false, token: `set (${TOKEN.length} characters)` }]);

    // The file holds the token, readable by its owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(lms.configDir).mode & 0o777).toBe(0o700);
    expect(json(readFileSync(file, 'utf8'))).toEqual({ profiles: { prod: { url: 'https://lms.example.edu', token: TOKEN } } });

    const table = await run('profile list', { tty: true });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain('prod');
    noToken(results);
  });

  it('writes the profile file with mode 0600 from the first save', async () => {
    const lms = session();
    await lms.run('profile add a --url https://a.example --token-stdin', { stdin: TOKEN });
    const shown = json((await lms.run('profile show a -o json')).stdout) as { file: string };
    expect(shown.file.startsWith(lms.configDir)).toBe(true);
    expect(statSync(shown.file).mode & 0o777).toBe(0o600);
  });

  it('asks for the token with the prompter on a TTY', async () => {
    const lms = session();
    const secret = vi.fn(async () => `  ${TOKEN}  `);
    const r = await lms.run('profile add tty --url https://lms.example.edu', { tty: true, prompter: { secret, confirm: async () => true } });
    expect(r.exitCode).toBe(0);
    expect(secret).toHaveBeenCalledWith('Access token for lms.example.edu:');
    expect(json((await lms.run('profile show tty -o json')).stdout)).toMatchObject({ token: `set (${TOKEN.length} characters)` });
    noToken([r]);
  });

  it.each<[string, string, { tty?: boolean; stdin?: string }, string]>([
    ['no token in a script', 'profile add p --url https://lms.example.edu', {}, 'no token: pass --token-stdin'],
    ['--no-input on a TTY', 'profile add p --url https://lms.example.edu --no-input', { tty: true }, 'no token: pass --token-stdin'],
    ['an empty token', 'profile add p --url https://lms.example.edu --token-stdin', { stdin: '  \n' }, 'the token is empty'],
    ['a bad URL', 'profile add p --url not-a-url --token-stdin', { stdin: TOKEN }, '--url is not a URL: "not-a-url"'],
    ['a non-http URL', 'profile add p --url ftp://lms.example.edu --token-stdin', { stdin: TOKEN }, '--url must be http(s), not ftp:'],
    ['a bad name', 'profile add "a b" --url https://lms.example.edu --token-stdin', { stdin: TOKEN }, 'invalid profile name "a b"'],
    ['a missing --url', 'profile add p --token-stdin', { stdin: TOKEN }, "required option '--url <url>' not specified"],
    ['use of an unknown profile', 'profile use nope', {}, 'no profile named "nope"'],
    ['removal of an unknown profile', 'profile remove nope', {}, 'no profile named "nope"'],
    ['show of an unknown profile', 'profile show nope', {}, 'no profile named "nope"'],
    ['show with no current profile', 'profile show', {}, 'no current profile'],
  ])('exits 2 for %s', async (_what, line, options, message) => {
    const lms = session();
    const r = await lms.run(line, { ...options, prompter: prompter() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('never prompts in a script, even with a prompter', async () => {
    const lms = session();
    const secret = vi.fn(async () => TOKEN);
    const r = await lms.run('profile add p --url https://lms.example.edu', { prompter: { secret, confirm: async () => true } });
    expect(r.exitCode).toBe(2);
    expect(secret).not.toHaveBeenCalled();
  });
});

describe('a real instance from a profile', () => {
  it('exits 7 when the instance refuses the connection, token kept out of the output', async () => {
    // No jitter: the retries of a refused connection wait 0 ms.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const lms = session();
    await lms.run('profile add local --url http://127.0.0.1:1 --token-stdin', { stdin: TOKEN });
    const r = await lms.run('-v users get self', { env: { LMS_MOCK: '' } });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: 127.0.0.1:1 refused the connection');
    expect(r.stderr).toContain('→ GET http://127.0.0.1:1/api/v1/users/self');
    noToken([r]);
  });

  it('chooses the profile by -p, and LMS_BASE_URL over the profile', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const lms = session();
    await lms.run('profile add a --url http://127.0.0.1:1 --token-stdin', { stdin: TOKEN });
    await lms.run('profile add b --url http://127.0.0.1:2 --token-stdin', { stdin: TOKEN });
    const byFlag = await lms.run('users get self -p b', { env: { LMS_MOCK: '' } });
    expect(byFlag.stderr).toContain('127.0.0.1:2 refused the connection');
    const byEnv = await lms.run('users get self', { env: { LMS_MOCK: '', LMS_BASE_URL: 'http://127.0.0.1:3' } });
    expect(byEnv.stderr).toContain('127.0.0.1:3 refused the connection');
    const unknown = await lms.run('users get self -p zzz', { env: { LMS_MOCK: '' } });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no profile named "zzz"');
  });

  it('exits 2 with a hint to add a profile when no instance is configured', async () => {
    const lms = session();
    const r = await lms.run('users get self', { env: { LMS_MOCK: '' } });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: no instance configured');
    expect(r.stderr).toContain('lms profile add');
  });

  it('exits 3 when the instance has no token', async () => {
    const lms = session();
    const r = await lms.run('users get self', { env: { LMS_MOCK: '', LMS_BASE_URL: 'http://127.0.0.1:1' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('no token for http://127.0.0.1:1');
  });
});

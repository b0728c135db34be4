import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveMock } from '../../src/mock/serve.js';
import { absentKeychain, memoryKeychain } from '../helpers/keychain.js';
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
  it('a keychain entry lms did not write: exit 3, with the whole command that stores a token again', async () => {
    const keychain = memoryKeychain();
    const lms = session({}, { keychain });
    expect(
      (await lms.run('profile add prod --url https://lms.example.edu --token-stdin --no-verify', { stdin: TOKEN }))
        .exitCode,
    ).toBe(0);
    for (const account of keychain.entries.keys()) keychain.entries.set(account, 'not json');
    const r = await lms.run('-p prod users get self');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(
      'error: the keychain entry of profile "prod" is not one lms wrote\nhint: log in again: `lms auth login -p ' +
        'prod`, or store a token: `lms profile add prod --url https://lms.example.edu --token-stdin`\n',
    );
  });

  it(
    'stores profiles (their tokens in the keychain), lists and shows them without the token, switches and removes ' +
      'them',
    async () => {
      const keychain = memoryKeychain();
      const lms = session({}, { keychain });
      const file = join(lms.configDir, 'config.json');
      const results: LmsResult[] = [];
      const run = async (line: string, options?: Parameters<typeof lms.run>[1]) => {
        const r = await lms.run(line, options);
        results.push(r);
        return r;
      };

      const added = await run('profile add prod --url https://lms.example.edu/ --token-stdin --no-verify', {
        stdin: `${TOKEN}\n`,
      });
      expect(added).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: `Saved profile "prod" (lms.example.edu) in ${file}, its token in the keychain\n`,
      });
      expect(
        (await run('profile add dev --url http://127.0.0.1:4010 --token-stdin --no-verify', { stdin: 'dev-token' }))
          .exitCode,
      ).toBe(0);
      // Added again under the same name: replaced, and said so.
      const again = await run('profile add dev --url http://127.0.0.1:4010 --token-stdin --no-verify', {
        stdin: 'dev-token',
      });
      expect(again.stderr).toMatch(
        /^Saved profile "dev" \(127\.0\.0\.1:4010\) in .*, replacing the one for 127\.0\.0\.1:4010\n$/,
      );

      expect(json((await run('profile list -o json')).stdout)).toEqual([
        { name: 'dev', url: 'http://127.0.0.1:4010', current: false, token: 'in the keychain' },
        { name: 'prod', url: 'https://lms.example.edu', current: true, token: 'in the keychain' },
      ]);
      expect(json((await run('profile show -o json')).stdout)).toEqual({
        name: 'prod',
        url: 'https://lms.example.edu',
        current: true,
        token: 'in the keychain',
        file,
      });
      // Listing and showing never ask the keychain.
      expect(keychain.reads).toBe(0);

      expect(await run('profile use dev')).toEqual({ exitCode: 0, stdout: '', stderr: 'Now using profile "dev".\n' });
      expect(json((await run('profile show -o json')).stdout)).toMatchObject({ name: 'dev', current: true });
      expect(json((await run('profile show prod -o json')).stdout)).toMatchObject({ name: 'prod', current: false });
      expect(json((await run('profile show -o json', { env: { LMS_PROFILE: 'prod' } })).stdout)).toMatchObject({
        name: 'prod',
      });

      expect([...keychain.entries.keys()].sort()).toEqual(['dev@127.0.0.1:4010', 'prod@lms.example.edu']);
      expect(await run('profile remove dev --yes')).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: 'Removed profile "dev".\n',
      });
      expect(json((await run('profile ls -o json')).stdout)).toEqual([
        { name: 'prod', url: 'https://lms.example.edu', current: false, token: 'in the keychain' },
      ]);
      // Its keychain entry went with it.
      expect([...keychain.entries.keys()]).toEqual(['prod@lms.example.edu']);
      expect(JSON.parse(keychain.entries.get('prod@lms.example.edu')!)).toEqual({ kind: 'token', token: TOKEN });

      // The file says where the token is, and holds no token; still readable by its owner only.
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(lms.configDir).mode & 0o777).toBe(0o700);
      expect(json(readFileSync(file, 'utf8'))).toEqual({
        profiles: { prod: { url: 'https://lms.example.edu', keychain: 'prod@lms.example.edu' } },
      });

      const table = await run('profile list', { tty: true });
      expect(table.exitCode).toBe(0);
      expect(table.stdout).toContain('prod');
      noToken(results);
    },
  );

  it('keeps the token in the file (0600) with a one-line notice when no keychain answers', async () => {
    const lms = session({}, { keychain: absentKeychain() });
    const file = join(lms.configDir, 'config.json');
    const added = await lms.run('profile add prod --url https://lms.example.edu --token-stdin --no-verify', {
      stdin: TOKEN,
    });
    expect(added).toEqual({
      exitCode: 0,
      stdout: '',
      stderr:
        `notice: no keychain answered, so the token is kept in ${file}, readable only by you ` +
        `(--insecure-storage chooses the file without asking)\nSaved profile "prod" (lms.example.edu) in ${file}\n`,
    });
    expect(json(readFileSync(file, 'utf8'))).toEqual({
      profiles: { prod: { url: 'https://lms.example.edu', token: TOKEN } },
      current: 'prod',
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(json((await lms.run('profile show -o json')).stdout)).toMatchObject({
      token: `set (${TOKEN.length} characters)`,
    });
    // -v says why, on a line of its own.
    const traced = await lms.run('profile add dev --url https://dev.example.edu --token-stdin --no-verify -v', {
      stdin: TOKEN,
    });
    expect(traced.stderr).toContain('keychain: no keychain answered (Secret Service: no D-Bus session)\n');
    noToken([added, traced]);
  });

  it('--insecure-storage chooses the file without asking the keychain, and without a notice', async () => {
    const keychain = memoryKeychain();
    const lms = session({}, { keychain });
    const file = join(lms.configDir, 'config.json');
    const added = await lms.run(
      'profile add ci --url https://lms.example.edu --token-stdin --no-verify --insecure-storage',
      { stdin: TOKEN },
    );
    expect(added).toEqual({ exitCode: 0, stdout: '', stderr: `Saved profile "ci" (lms.example.edu) in ${file}\n` });
    expect(keychain.entries.size).toBe(0);
    expect(json(readFileSync(file, 'utf8'))).toMatchObject({
      profiles: { ci: { url: 'https://lms.example.edu', token: TOKEN } },
    });
  });

  it(
    'a token already in the profile file keeps working, ' + 'without the keychain, and the next add moves it there',
    async () => {
      const keychain = memoryKeychain();
      const lms = session({}, { keychain });
      const file = join(lms.configDir, 'config.json');
      // A stand-in instance that says whether the token it got is the legacy one.
      const server = createServer((req, res) => {
        const ok = req.headers.authorization === 'Bearer legacy-token';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ok ? { id: 5, name: 'Old Timer' } : { errors: [{ message: 'Invalid access token.' }] }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const account = `old@${new URL(url).host}`;
      try {
        writeFileSync(file, JSON.stringify({ profiles: { old: { url, token: 'legacy-token' } }, current: 'old' }), {
          mode: 0o600,
        });
        const r = await lms.run('--no-mock users get self --fields name -v');
        expect(r.stderr).toContain('token from profile "old"');
        expect(json(r.stdout)).toEqual({ name: 'Old Timer' });
        expect(keychain.reads).toBe(0);
        await lms.run(['profile', 'add', 'old', '--url', url, '--token-stdin', '--no-verify'], {
          stdin: 'legacy-token',
        });
        expect(json(readFileSync(file, 'utf8'))).toEqual({
          profiles: { old: { url, keychain: account } },
          current: 'old',
        });
        expect(JSON.parse(keychain.entries.get(account)!)).toEqual({ kind: 'token', token: 'legacy-token' });
        const again = await lms.run('--no-mock users get self --fields name -v');
        expect(again.stderr).toContain('token from the keychain (profile "old")');
        expect(json(again.stdout)).toEqual({ name: 'Old Timer' });
        expect(keychain.reads).toBe(1);
        noToken([r, again], 'legacy-token');
      } finally {
        server.close();
      }
    },
  );

  it('writes the profile file with mode 0600 from the first save', async () => {
    const lms = session();
    await lms.run('profile add a --url https://a.example --token-stdin --no-verify', { stdin: TOKEN });
    const shown = json((await lms.run('profile show a -o json')).stdout) as { file: string };
    expect(shown.file.startsWith(lms.configDir)).toBe(true);
    expect(statSync(shown.file).mode & 0o777).toBe(0o600);
  });

  it('asks for the token with the prompter on a TTY', async () => {
    const lms = session();
    const secret = vi.fn(async () => `  ${TOKEN}  `);
    const r = await lms.run('profile add tty --url https://lms.example.edu --no-verify', {
      tty: true,
      prompter: { secret, confirm: async () => true },
    });
    expect(r.exitCode).toBe(0);
    expect(secret).toHaveBeenCalledWith('Access token for lms.example.edu:');
    expect(json((await lms.run('profile show tty -o json')).stdout)).toMatchObject({ token: 'in the keychain' });
    noToken([r]);
  });

  it.each<[string, string, { tty?: boolean; stdin?: string }, string]>([
    ['no token in a script', 'profile add p --url https://lms.example.edu', {}, 'no token: pass --token-stdin'],
    [
      '--no-input on a TTY',
      'profile add p --url https://lms.example.edu --no-input',
      { tty: true },
      'no token: pass --token-stdin',
    ],
    [
      'an empty token',
      'profile add p --url https://lms.example.edu --token-stdin --no-verify',
      { stdin: '  \n' },
      'the token is empty',
    ],
    [
      'a URL without a scheme',
      'profile add p --url localhost:4010 --token-stdin --no-verify',
      { stdin: TOKEN },
      'hint: did you mean --url http://localhost:4010?',
    ],
    [
      'a bad URL',
      'profile add p --url http://exa%mple --token-stdin --no-verify',
      { stdin: TOKEN },
      '--url is not a URL: "http://exa%mple"',
    ],
    [
      'a non-http URL',
      'profile add p --url ftp://lms.example.edu --token-stdin --no-verify',
      { stdin: TOKEN },
      '--url must be http(s), not ftp:',
    ],
    [
      'a bad name',
      'profile add "a b" --url https://lms.example.edu --token-stdin --no-verify',
      { stdin: TOKEN },
      'invalid profile name "a b"',
    ],
    [
      'a missing --url',
      'profile add p --token-stdin --no-verify',
      { stdin: TOKEN },
      "required option '--url <url>' not specified",
    ],
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
    const r = await lms.run('profile add p --url https://lms.example.edu', {
      prompter: { secret, confirm: async () => true },
    });
    expect(r.exitCode).toBe(2);
    expect(secret).not.toHaveBeenCalled();
  });
});

describe('a real instance from a profile', () => {
  it('exits 7 when the instance refuses the connection, token kept out of the output', async () => {
    // No jitter: the retries of a refused connection wait 0 ms.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const lms = session();
    await lms.run('profile add local --url http://127.0.0.1:1 --token-stdin --no-verify', { stdin: TOKEN });
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
    await lms.run('profile add a --url http://127.0.0.1:1 --token-stdin --no-verify', { stdin: TOKEN });
    await lms.run('profile add b --url http://127.0.0.1:2 --token-stdin --no-verify', { stdin: TOKEN });
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

describe('profile names that are properties of every object', () => {
  it.each(['constructor', 'hasOwnProperty', 'toString', '__proto__', 'prototype', 'valueOf'])(
    'use/show/remove %s: no such profile',
    async (name) => {
      const lms = session();
      for (const verb of ['use', 'show', 'remove']) {
        const r = await lms.run(['profile', verb, name]);
        expect(r.exitCode, `${verb} ${name}`).toBe(2);
        expect(r.stderr).toContain(`no profile named "${name}"`);
      }
    },
  );

  it.each(['__proto__', 'constructor', 'prototype'])(
    'add %s is refused with a clear message, and nothing is written',
    async (name) => {
      const lms = session();
      const r = await lms.run(
        ['profile', 'add', name, '--url', 'https://lms.example.edu', '--token-stdin', '--no-verify'],
        { stdin: TOKEN },
      );
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`"${name}" is reserved and cannot name a profile`);
      expect(({} as Record<string, unknown>).url).toBeUndefined();
      expect(json((await lms.run('profile list -o json')).stdout)).toEqual([]);
    },
  );

  it(
    'a hand-edited file with a "__proto__" entry is read ' + 'as a plain name, and Object.prototype stays clean',
    async () => {
      const lms = session();
      await lms.run('profile add a --url https://a.example --token-stdin --no-verify', { stdin: TOKEN });
      const file = join(lms.configDir, 'config.json');
      writeFileSync(
        file,
        '{"current":"a","profiles":{"a":{"url":"https://a.example","token":"t"},' +
          '"__proto__":{"url":"https://evil.example","token":"x"},"junk":7}}',
      );
      const listed = json((await lms.run('profile list -o json')).stdout) as { name: string }[];
      expect(listed.map((p) => p.name)).toEqual(['__proto__', 'a']);
      expect((await lms.run(['profile', 'use', '__proto__'])).exitCode).toBe(0);
      expect(json((await lms.run('profile show -o json')).stdout)).toMatchObject({
        name: '__proto__',
        url: 'https://evil.example',
      });
      expect((await lms.run(['profile', 'remove', '__proto__', '--yes'])).stderr).toBe(
        'Removed profile "__proto__".\n',
      );
      expect((json(readFileSync(file, 'utf8')) as { profiles: object }).profiles).toEqual({
        a: { url: 'https://a.example', token: 't' },
      });
      expect(Object.prototype).not.toHaveProperty('url');
    },
  );

  it('refuses names that would read as flags', async () => {
    const r = await session().run(
      ['profile', 'add', '.hidden', '--url', 'https://a.example', '--token-stdin', '--no-verify'],
      { stdin: TOKEN },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid profile name ".hidden"');
  });
});

describe('profile add checks the token with the instance', () => {
  let served: { server: Server; url: string } | undefined;
  const lms = session();

  beforeAll(async () => {
    served = await serveMock({ handler: lms.mock.handler, host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await new Promise((resolve) => served?.server.close(resolve));
  });

  it('says whose token it is, then saves the profile', async () => {
    const r = await lms.run(['profile', 'add', 'here', '--url', served!.url, '--token-stdin'], { stdin: '7~mock-sam' });
    const host = new URL(served!.url).host;
    expect(r).toEqual({
      exitCode: 0,
      stdout: '',
      stderr:
        `Logged in to ${host} as Sam Student (id 7)\nSaved profile "here" (${host}) in ` +
        `${join(lms.configDir, 'config.json')}, its token in the keychain\n`,
    });
    expect(json((await lms.run('profile show here -o json')).stdout)).toMatchObject({ url: served!.url });
  });

  it('exits 3 for a token the instance refuses, and saves nothing', async () => {
    const r = await lms.run(['profile', 'add', 'bad', '--url', served!.url, '--token-stdin'], { stdin: TOKEN });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `error: ${new URL(served!.url).host} did not accept the token (401); the profile was not saved\n`,
    );
    expect(r.stderr).not.toContain(TOKEN);
    expect((await lms.run('profile show bad')).exitCode).toBe(2);
  });

  it('as JSON: exactly one error object', async () => {
    const r = await lms.run(['profile', 'add', 'bad', '--url', served!.url, '--token-stdin', '-o', 'json'], {
      stdin: TOKEN,
    });
    expect(r.exitCode).toBe(3);
    expect(json(r.stderr)).toMatchObject({ error: 'LmsError', exit_code: 3 });
  });

  it('exits 7 with a hint to use --no-verify when the instance cannot be reached, and saves nothing', async () => {
    const r = await lms.run('profile add gone --url http://127.0.0.1:1 --token-stdin', { stdin: TOKEN });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(
      'error: could not reach 127.0.0.1:1 to check the token: 127.0.0.1:1 refused the connection; the profile was ' +
        'not saved',
    );
    expect(r.stderr).toContain('hint: check --url, or pass --no-verify to save the profile without checking');
    expect((await lms.run('profile show gone')).exitCode).toBe(2);
  });

  it('exits 4 when the URL is not an instance, with a hint', async () => {
    const stray = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>nothing here</html>');
    });
    await new Promise<void>((resolve) => stray.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(stray.address() as AddressInfo).port}`;
      const r = await lms.run(['profile', 'add', 'stray', '--url', url, '--token-stdin'], { stdin: TOKEN });
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain(`hint: is ${url} the instance's address? Or pass --no-verify`);
    } finally {
      await new Promise((resolve) => stray.close(resolve));
    }
  });

  it('--no-verify saves without asking the instance', async () => {
    const r = await lms.run('profile add later --url http://127.0.0.1:1 --token-stdin --no-verify', { stdin: TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('Logged in');
  });
});

describe('profile add --url', () => {
  it.each<[string, string, string]>([
    [
      'a host and port with no scheme (parsed as the scheme "localhost:")',
      'localhost:4010',
      'hint: did you mean --url http://localhost:4010?',
    ],
    ['a loopback address with no scheme', '127.0.0.1:4010', 'hint: did you mean --url http://127.0.0.1:4010?'],
    ['a remote host with no scheme', 'lms.example.edu', 'hint: did you mean --url https://lms.example.edu?'],
    [
      'a user name and password in the URL',
      'https://me:secret@lms.example.edu',
      '--url must not contain a user name or password',
    ],
    ['a query', 'https://lms.example.edu/?x=1', 'hint: did you mean --url https://lms.example.edu?'],
    ['the API path', 'https://lms.example.edu/api/v1', 'hint: did you mean --url https://lms.example.edu?'],
    ['an empty URL', '', '--url is empty'],
  ])('%s', async (_what, url, message) => {
    const r = await session().run(['profile', 'add', 'p', '--url', url, '--token-stdin', '--no-verify'], {
      stdin: 'tok',
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --url /);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('secret');
  });

  it('says what it needs in the message itself', async () => {
    const r = await session().run('profile add p --url localhost:4010 --token-stdin --no-verify', { stdin: 'tok' });
    expect(r.stderr).toBe(
      'error: --url needs http:// or https://: "localhost:4010"\nhint: did you mean --url http://localhost:4010?\n',
    );
  });

  it('keeps a path under which an instance lives', async () => {
    const lms = session();
    expect(
      (await lms.run('profile add p --url https://example.edu/lms/ --token-stdin --no-verify', { stdin: 'tok' }))
        .exitCode,
    ).toBe(0);
    expect(JSON.parse((await lms.run('profile show p -o json')).stdout)).toMatchObject({
      url: 'https://example.edu/lms',
    });
  });
});

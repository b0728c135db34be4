// `lms auth` in-process against a stand-in instance on node:http (test/helpers/fake-oauth.ts): the
// test plays the browser, reading the URL the command prints and calling its redirect URI. What a
// login stores and where, renewal before and after expiry (once, for parallel commands too), a
// refused renewal, status, token, logout, and the hostile cases of the redirect.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/entry.js';
import type { Prompter } from '../../src/model/prompter.js';
import type { Keychain } from '../../src/config/keychain.js';
import { fakeIO, type FakeIO } from '../helpers/fake-io.js';
import { CLIENT_ID, CLIENT_SECRET, fakeInstance, type FakeInstance } from '../helpers/fake-oauth.js';
import { absentKeychain, memoryKeychain } from '../helpers/keychain.js';
import type { LmsResult } from '../helpers/run-lms.js';

interface Running {
  io: FakeIO;
  done: Promise<LmsResult>;
}

function cli(keychain: Keychain = memoryKeychain()) {
  const configDir = mkdtempSync(join(tmpdir(), 'lms-auth-'));
  const start = (
    argv: string[],
    options: { stdin?: string; env?: Record<string, string>; prompter?: Prompter } = {},
  ): Running => {
    // With a prompter, a terminal: the person there can be asked.
    const io = fakeIO({ stdin: options.stdin, tty: options.prompter !== undefined });
    const done = run(argv, { io, env: { ...options.env }, configDir, keychain, prompter: options.prompter }).then(
      (exitCode) => ({ exitCode, stdout: io.stdoutText(), stderr: io.stderrText() }),
    );
    return { io, done };
  };
  return {
    configDir,
    keychain,
    file: join(configDir, 'config.json'),
    start,
    run: (line: string, options?: { stdin?: string; env?: Record<string, string> }) =>
      start(line.split(' '), options).done,
  };
}
type Cli = ReturnType<typeof cli>;

async function waitFor<T>(get: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = get();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The authorization URL a running login printed. */
const printedUrl = (running: Running) =>
  waitFor(() => /^ {2}(http\S+)$/m.exec(running.io.stderrText())?.[1], 'the authorization URL');

/** `lms auth login` through to the end: the test approves at the "consent page" and follows the redirect. */
async function login(lms: Cli, fake: FakeInstance, extra: string[] = []): Promise<LmsResult & { code: string }> {
  const running = lms.start(
    [
      'auth',
      'login',
      '-p',
      'prod',
      '--url',
      fake.url,
      '--client-id',
      CLIENT_ID,
      '--client-secret-stdin',
      '--no-browser',
      ...extra,
    ],
    { stdin: CLIENT_SECRET },
  );
  const { redirectUri, state } = fake.authorize(await printedUrl(running));
  const code = fake.approve();
  const page = await fetch(`${redirectUri}?code=${code}&state=${state}`);
  expect(page.status).toBe(200);
  // Answered once the login is done, naming whose it is.
  expect(await page.text()).toContain(`Logged in to ${new URL(fake.url).host} as Sam Student.`);
  return { ...(await running.done), code };
}

/** No secret of a login in what a command printed. */
function secretsAbsent(fake: FakeInstance, results: LmsResult[], code?: string): void {
  const secrets = [...fake.issued, CLIENT_SECRET, ...(code ? [code] : [])];
  for (const r of results) for (const s of secrets) expect(r.stdout + r.stderr).not.toContain(s);
}

const json = (s: string) => JSON.parse(s) as Record<string, unknown>;

let fake: FakeInstance;
beforeEach(async () => {
  fake = await fakeInstance();
});
afterEach(async () => {
  await fake.close();
});

describe('lms auth login', () => {
  it('logs in through the redirect, keeps the tokens in the keychain, and never shows a secret', async () => {
    const keychain = memoryKeychain();
    const lms = cli(keychain);
    const host = new URL(fake.url).host;
    const r = await login(lms, fake);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^Open this URL in a browser to log in to ${host}:\\n  http://${host}` +
          `/login/oauth2/auth\\?client_id=${CLIENT_ID}` +
          `&response_type=code&redirect_uri=http%3A%2F%2F127\\.0\\.0\\.1%3A\\d+%2Fcallback&state=[\\w-]{22}&` +
          `code_challenge=[\\w-]{43}&code_challenge_method=S256\\n`,
      ),
    );
    expect(r.stderr.endsWith(`Logged in to ${host} as Sam Student (id 7)\n`)).toBe(true);
    expect(fake.grants).toEqual(['authorization_code']);

    // The profile file says where the tokens are and whose they are; the tokens are in the keychain.
    const account = `prod@${host}`;
    expect(json(readFileSync(lms.file, 'utf8'))).toEqual({
      profiles: {
        prod: { url: fake.url, user: { id: 7, name: 'Sam Student' }, clientId: CLIENT_ID, keychain: account },
      },
      current: 'prod',
    });
    const stored = json(keychain.entries.get(account)!);
    expect(stored).toMatchObject({
      kind: 'oauth',
      access_token: fake.issued[0],
      refresh_token: expect.stringMatching(/^ref-/),
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect(Date.parse(stored.expires_at as string) - Date.now()).toBeGreaterThan(3500_000);

    const self = await lms.run('users get self --fields id -v');
    expect(self.exitCode, self.stderr).toBe(0);
    expect(json(self.stdout)).toEqual({ id: 7 });
    expect(self.stderr).toContain('token from the keychain (profile "prod")');
    expect(fake.bearers.at(-1)).toBe(fake.issued[0]);

    const status = await lms.run('auth status -o json');
    expect(status.exitCode, status.stderr).toBe(0);
    expect(json(status.stdout)).toEqual({
      instance: fake.url,
      profile: 'prod',
      user_id: 7,
      user_name: 'Sam Student',
      token_source: 'keychain',
      expires_at: stored.expires_at,
      renewable: true,
    });

    const token = await lms.run('auth token');
    expect(token).toEqual({ exitCode: 0, stdout: `${fake.issued[0]}\n`, stderr: '' });
    secretsAbsent(fake, [r, self, status], r.code);
  });

  it('opens the browser where there is one, and still prints the URL', async () => {
    const lms = cli();
    const running = lms.start(
      ['auth', 'login', '-p', 'prod', '--url', fake.url, '--client-id', CLIENT_ID, '--client-secret-stdin'],
      { stdin: CLIENT_SECRET, env: { BROWSER: `${process.execPath} -e 0` } },
    );
    const { redirectUri, state } = fake.authorize(await printedUrl(running));
    expect(running.io.stderrText()).toMatch(
      /^Opening 127\.0\.0\.1:\d+ in your browser\. If no page appears, open this URL:\n {2}http/,
    );
    await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
    expect((await running.done).exitCode).toBe(0);
  });

  it('logs in again with the URL and client id the profile has', async () => {
    const lms = cli();
    await login(lms, fake);
    const running = lms.start(['auth', 'login', '--client-secret-stdin', '--no-browser'], { stdin: CLIENT_SECRET });
    const { redirectUri, state } = fake.authorize(await printedUrl(running));
    await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
    const r = await running.done;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fake.grants).toEqual(['authorization_code', 'authorization_code']);
  });

  it(
    'keeps the tokens in the profile file, with a notice, ' + 'when no keychain answers; renewal then updates the file',
    async () => {
      const lms = cli(absentKeychain());
      const r = await login(lms, fake);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `notice: no keychain answered, so the token is kept in ${lms.file}, readable only by you (--insecure-storage ` +
          `chooses the file without asking)\n`,
      );
      const profile = (json(readFileSync(lms.file, 'utf8')).profiles as Record<string, Record<string, unknown>>).prod;
      expect(profile.oauth).toMatchObject({ access_token: fake.issued[0], client_secret: CLIENT_SECRET });
      expect(profile.keychain).toBeUndefined();
      fake.expireAll();
      const self = await lms.run('users get self --fields id');
      expect(self.exitCode, self.stderr).toBe(0);
      const renewed = (
        json(readFileSync(lms.file, 'utf8')).profiles as Record<string, Record<string, { access_token: string }>>
      ).prod.oauth;
      expect(renewed.access_token).toBe(fake.issued[1]);
      expect(json((await lms.run('auth status -o json')).stdout)).toMatchObject({ token_source: 'file' });
    },
  );

  it('--insecure-storage keeps the tokens in the file without asking the keychain', async () => {
    const keychain = memoryKeychain();
    const lms = cli(keychain);
    const r = await login(lms, fake, ['--insecure-storage']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('notice');
    expect(keychain.entries.size).toBe(0);
  });

  it('refuses a redirect that does not carry its state, and saves nothing', async () => {
    const lms = cli();
    const running = lms.start(
      [
        'auth',
        'login',
        '-p',
        'prod',
        '--url',
        fake.url,
        '--client-id',
        CLIENT_ID,
        '--client-secret-stdin',
        '--no-browser',
      ],
      { stdin: CLIENT_SECRET },
    );
    const { redirectUri } = fake.authorize(await printedUrl(running));
    const code = fake.approve();
    expect((await fetch(`${redirectUri}?code=${code}&state=forged`)).status).toBe(400);
    const r = await running.done;
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      'error: the redirect to this machine did not carry the state this login sent: it was not the answer to this ' +
        'login, and nothing was saved\n',
    );
    expect(r.stderr).not.toContain(code);
    expect(fake.grants).toEqual([]);
    expect(() => readFileSync(lms.file)).toThrow();
  });

  it('gives up after --timeout seconds (exit 7)', async () => {
    const lms = cli();
    const r = await lms.run(
      `auth login -p prod --url ${fake.url} --client-id ${CLIENT_ID} --client-secret-stdin --no-browser --timeout 1`,
      { stdin: CLIENT_SECRET },
    );
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(
      'error: no redirect from the browser within 1 s; nothing was saved\nhint: run the command again, and pass ' +
        '--timeout SECONDS to wait longer\n',
    );
  });

  it('says so when the user does not approve (exit 3)', async () => {
    const lms = cli();
    const running = lms.start(
      [
        'auth',
        'login',
        '-p',
        'prod',
        '--url',
        fake.url,
        '--client-id',
        CLIENT_ID,
        '--client-secret-stdin',
        '--no-browser',
      ],
      { stdin: CLIENT_SECRET },
    );
    const { redirectUri, state } = fake.authorize(await printedUrl(running));
    await fetch(`${redirectUri}?error=access_denied&state=${state}`);
    const r = await running.done;
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      `error: ${new URL(fake.url).host} was not given access (access_denied); nothing was saved\n`,
    );
  });

  it('names a wrong client secret as the client not accepted (exit 3)', async () => {
    const lms = cli();
    const running = lms.start(
      [
        'auth',
        'login',
        '-p',
        'prod',
        '--url',
        fake.url,
        '--client-id',
        CLIENT_ID,
        '--client-secret-stdin',
        '--no-browser',
      ],
      { stdin: 'wrong-secret' },
    );
    const { redirectUri, state } = fake.authorize(await printedUrl(running));
    const page = await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
    const r = await running.done;
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      `error: ${new URL(fake.url).host} did not accept the client id and secret (invalid_client: invalid client)\n`,
    );
    expect(r.stderr).not.toContain('wrong-secret');
    expect(page.status).toBe(500);
    expect(await page.text()).toContain('The login did not finish');
  });

  // The redirect brought a code, and the code its tokens, but the API refuses them: the browser's
  // page says what the terminal does, never "Logged in".
  it('tells the browser the login failed when the token it got is refused (exit 3), and saves nothing', async () => {
    const lms = cli();
    fake.refuseApi = true;
    const running = lms.start(
      [
        'auth',
        'login',
        '-p',
        'prod',
        '--url',
        fake.url,
        '--client-id',
        CLIENT_ID,
        '--client-secret-stdin',
        '--no-browser',
      ],
      { stdin: CLIENT_SECRET },
    );
    const { redirectUri, state } = fake.authorize(await printedUrl(running));
    const page = await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
    const body = await page.text();
    const r = await running.done;
    expect(r.exitCode).toBe(3);
    const host = new URL(fake.url).host;
    expect(r.stderr).toContain(`error: ${host} gave a token that its API does not accept`);
    expect(page.status).toBe(500);
    expect(body).not.toContain('Logged in');
    expect(body).toContain(`The login did not finish: ${host} gave a token that its API does not accept`);
    expect(() => readFileSync(lms.file, 'utf8')).toThrow();
  });

  // A confidential key (as the stand-in instance's is) refuses a code without its secret: lms asks
  // for it at a hidden prompt, and exchanges the same code again.
  it('asks for the secret of a confidential key only when the instance refuses the code without it', async () => {
    const keychain = memoryKeychain();
    const lms = cli(keychain);
    const asked: string[] = [];
    const prompter: Prompter = {
      secret: async (message) => {
        asked.push(message);
        return CLIENT_SECRET;
      },
      confirm: async () => true,
    };
    const running = lms.start(
      ['auth', 'login', '-p', 'prod', '--url', fake.url, '--client-id', CLIENT_ID, '--no-browser'],
      { prompter },
    );
    const { redirectUri, state } = fake.authorize(await printedUrl(running));
    expect(asked).toEqual([]);
    await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
    const r = await running.done;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(asked).toEqual([`Developer key ${CLIENT_ID} is a confidential client: its client secret:`]);
    expect(fake.grants).toEqual(['authorization_code', 'authorization_code']);
    expect(json(keychain.entries.get(`prod@${new URL(fake.url).host}`)!)).toMatchObject({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    secretsAbsent(fake, [r]);
  });

  it(
    'in a script, says that a confidential key needs its ' + 'secret and how to give it (exit 3), and saves nothing',
    async () => {
      const lms = cli();
      const running = lms.start([
        'auth',
        'login',
        '-p',
        'prod',
        '--url',
        fake.url,
        '--client-id',
        CLIENT_ID,
        '--no-browser',
      ]);
      const { redirectUri, state } = fake.authorize(await printedUrl(running));
      await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
      const r = await running.done;
      expect(r.exitCode).toBe(3);
      const host = new URL(fake.url).host;
      expect(r.stderr).toContain(
        `error: ${host} wants the client secret of developer key ${CLIENT_ID}: it is a confidential client, not a ` +
          `public one; nothing was saved\n`,
      );
      expect(r.stderr).toContain(
        `hint: give the secret on standard input: printf %s "$CLIENT_SECRET" | lms auth login -p prod --url ` +
          `${fake.url} --client-id ${CLIENT_ID} --client-secret-stdin\n`,
      );
      expect(fake.grants).toEqual(['authorization_code']);
      expect(() => readFileSync(lms.file, 'utf8')).toThrow();
    },
  );

  // canvas-lms answers a client id it has no key for (or none that is on) 401 invalid_client "unknown
  // client": no secret would help, so none is asked for, and the message says what to check.
  it.each([
    ['without a secret, at a terminal', [] as string[], undefined],
    ['with a secret', ['--client-secret-stdin'], CLIENT_SECRET],
  ])(
    'names a client id the instance does not know as such, %s (exit 3), asking for no secret',
    async (_how, extra, stdin) => {
      const lms = cli();
      const asked: string[] = [];
      const prompter: Prompter = {
        secret: async (message) => {
          asked.push(message);
          return CLIENT_SECRET;
        },
        confirm: async () => true,
      };
      const running = lms.start(
        ['auth', 'login', '-p', 'prod', '--url', fake.url, '--client-id', '170000000000999', '--no-browser', ...extra],
        { prompter, stdin },
      );
      // The stand-in's consent page takes its own key only: it is shown that one, as if the key were turned off after
      // approval.
      const { redirectUri, state } = fake.authorize(
        (await printedUrl(running)).replace('client_id=170000000000999', `client_id=${CLIENT_ID}`),
      );
      await fetch(`${redirectUri}?code=${fake.approve()}&state=${state}`);
      const r = await running.done;
      expect(r.exitCode, r.stderr).toBe(3);
      const host = new URL(fake.url).host;
      expect(r.stderr).toContain(
        `error: ${host} does not know client id 170000000000999, or does not let it log in on this instance ` +
          `(invalid_client: unknown client)\n`,
      );
      expect(r.stderr).toContain(
        'hint: check --client-id: it is the ID of a developer key of this instance (Admin > Developer Keys)',
      );
      expect(r.stderr).not.toMatch(/confidential|secret/);
      expect(asked).toEqual([]);
      expect(fake.grants).toEqual(['authorization_code']);
      expect(() => readFileSync(lms.file, 'utf8')).toThrow();
    },
  );

  it.each<[string, string, { stdin?: string }, string]>([
    [
      'an empty secret on stdin',
      `auth login -p x --url https://lms.example.edu --client-id 1 --client-secret-stdin`,
      { stdin: ' \n' },
      '--client-secret-stdin: the client secret on standard input is empty',
    ],
    [
      'no client id',
      `auth login -p x --url https://lms.example.edu --client-secret-stdin`,
      { stdin: 's' },
      "give the developer key's client id with --client-id",
    ],
    [
      'a new profile without --url',
      `auth login -p x --client-id 1 --client-secret-stdin`,
      { stdin: 's' },
      'profile "x" does not exist yet',
    ],
    [
      'plain http to a remote host',
      `auth login -p x --url http://lms.example.edu --client-id 1 --client-secret-stdin`,
      { stdin: 's' },
      'lms.example.edu is a remote host over plain http',
    ],
  ])('refuses %s (exit 2)', async (_what, line, options, message) => {
    const r = await cli().run(line, options);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('renewing the access token', () => {
  it('renews a token the instance refuses as expired, once, and sends the request again', async () => {
    const keychain = memoryKeychain();
    const lms = cli(keychain);
    await login(lms, fake);
    fake.expireAll();
    const r = await lms.run('users get self --fields id -v');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fake.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(fake.bearers.slice(-2)).toEqual([fake.issued[0], fake.issued[1]]);
    expect(r.stderr).toContain('↻ renewing the access token of profile "prod"');
    expect(r.stderr).toMatch(/↻ GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/users\/self again with the renewed token/);
    expect(json(keychain.entries.get(`prod@${new URL(fake.url).host}`)!)).toMatchObject({
      access_token: fake.issued[1],
    });
    secretsAbsent(fake, [r]);
    // The next command uses the renewed token as it is.
    expect((await lms.run('users get self')).exitCode).toBe(0);
    expect(fake.grants).toHaveLength(2);
  });

  it('renews before sending a token about to expire', async () => {
    fake.expiresIn = 30;
    const lms = cli();
    await login(lms, fake);
    const r = await lms.run('users get self');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fake.grants).toEqual(['authorization_code', 'refresh_token']);
    // Only the login's own check ever sent the old token.
    expect(fake.bearers).toEqual([fake.issued[0], fake.issued[1]]);
  });

  it('renews once for eight commands started together, and none fails', async () => {
    const lms = cli();
    await login(lms, fake);
    fake.expireAll();
    const results = await Promise.all(Array.from({ length: 8 }, () => lms.run('users get self --fields id')));
    expect(results.map((r) => r.exitCode)).toEqual(Array(8).fill(0));
    expect(fake.grants.filter((g) => g === 'refresh_token')).toHaveLength(1);
  });

  it('says to log in again when the renewal is refused (exit 3)', async () => {
    const lms = cli();
    await login(lms, fake);
    fake.expireAll();
    fake.revokeRefresh();
    const r = await lms.run('users get self');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      `error: ${new URL(fake.url).host} no longer renews the token of profile "prod" (invalid_grant): run lms auth ` +
        `login again\nhint: lms auth login -p prod\n`,
    );
    const status = await lms.run('auth status -o json');
    expect(status.exitCode).toBe(3);
    expect(json(status.stdout)).toMatchObject({ profile: 'prod', user_id: null, token_source: 'keychain' });
  });

  it('leaves LMS_TOKEN in charge, and the keychain unread, when it is set', async () => {
    const keychain = memoryKeychain();
    const lms = cli(keychain);
    await login(lms, fake);
    const reads = keychain.reads;
    const r = await lms.run('users get self -v', { env: { LMS_TOKEN: 'from-the-env' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('token from LMS_TOKEN');
    expect(fake.bearers.at(-1)).toBe('from-the-env');
    expect(keychain.reads).toBe(reads);
    expect(json((await lms.run('auth status -o json', { env: { LMS_TOKEN: fake.issued[0] } })).stdout)).toMatchObject({
      token_source: 'env',
    });
  });
});

describe('lms auth logout', () => {
  it('revokes the token at the instance, forgets it, and the next command is refused (exit 3)', async () => {
    const keychain = memoryKeychain();
    const lms = cli(keychain);
    await login(lms, fake);
    const host = new URL(fake.url).host;
    const r = await lms.run('auth logout');
    expect(r).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `Logged out of ${host}: the token was revoked, and removed from the keychain.\n`,
    });
    expect(fake.grants.at(-1)).toBe('revoke');
    expect(keychain.entries.size).toBe(0);
    // The profile stays, for the next login, with no token and no user.
    expect(json(readFileSync(lms.file, 'utf8'))).toEqual({
      profiles: { prod: { url: fake.url, clientId: CLIENT_ID } },
      current: 'prod',
    });
    const after = await lms.run('users get self');
    expect(after.exitCode).toBe(3);
    expect(after.stderr).toContain(`error: no token for ${fake.url}`);
    // The revoked token itself is refused too.
    const revoked = await lms.run('users get self', { env: { LMS_TOKEN: fake.issued[0] } });
    expect(revoked.exitCode).toBe(3);
    expect((await lms.run('auth logout')).stderr).toBe(
      'Profile "prod" holds no token: there was nothing to log out of.\n',
    );
  });

  it('renews an expired token to revoke it', async () => {
    const lms = cli();
    await login(lms, fake);
    fake.expireAll();
    const r = await lms.run('auth logout -p prod');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fake.grants).toEqual(['authorization_code', 'revoke', 'refresh_token', 'revoke']);
  });

  it('forgets a pasted token without revoking it, and says it stays valid', async () => {
    const lms = cli();
    expect(
      (await lms.run(`profile add pasted --url ${fake.url} --token-stdin --no-verify`, { stdin: 'pasted-token' }))
        .exitCode,
    ).toBe(0);
    const r = await lms.run('auth logout -p pasted');
    expect(r.stderr).toBe(
      'Removed the token of profile "pasted" from the keychain. A token you pasted stays valid on ' +
        `${new URL(fake.url).host} until you delete it in your account settings there.\n`,
    );
    expect(fake.grants).toEqual([]);
  });

  it('has nothing to log out of in the mock', async () => {
    const r = await cli().run('--mock auth logout');
    expect(r.exitCode).toBe(2);
  });
});

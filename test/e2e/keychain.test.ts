// Tokens in a real keychain: GNOME Keyring's Secret Service on a D-Bus session bus of the test's
// own (Debian's gnome-keyring and dbus packages; .ci/run installs them where it can), unlocked with
// a password, in a home directory of its own. Where they are missing the tests are skipped, and say
// why. With the keychain in use, the token is in no profile file, trace, error, server log or bulk
// journal; a login's tokens are renewed in place and removed by logout. Without a Secret Service
// the token goes to the profile file, with the notice.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, root, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { developerKey, loginThroughMock, SAM } from '../helpers/e2e-login.js';

const { dir, env: workspace } = e2eWorkspace('keychain');
const home = join(dir, 'home');
mkdirSync(home, { recursive: true });

const missing = ['dbus-daemon', 'gnome-keyring-daemon'].filter(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
);
const skipReason =
  process.platform !== 'linux'
    ? `the Secret Service tests run on Linux, not ${process.platform}`
    : missing.length
      ? `${missing.join(' and ')} not installed (apt-get install gnome-keyring dbus)`
      : undefined;
if (skipReason) console.warn(`test/e2e/keychain.test.ts: skipped: ${skipReason}`);

let bus: ResultPromise | undefined;
let env: Record<string, string> = {};
let served: Served | undefined;

/** A session bus and an unlocked login keyring on it, both gone when the bus is stopped. */
async function startSecretService(): Promise<string> {
  bus = execa('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { env: { HOME: home }, reject: false });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    bus!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    void bus!.then((r) => reject(new Error(`dbus-daemon exited: ${r.stderr}`)));
  });
  const unlocked = await execa('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    input: 'test-keyring-password',
    env: { HOME: home, DBUS_SESSION_BUS_ADDRESS: address },
    reject: false,
  });
  if (unlocked.exitCode !== 0) throw new Error(`gnome-keyring-daemon --unlock failed: ${unlocked.stderr}`);
  return address;
}

/** What the keychain holds for `account`, read as any program would, through the binding. */
async function keychainEntry(account: string): Promise<string | null> {
  const script =
    `const { Entry } = require('@napi-rs/keyring'); process.stdout.write(JSON.stringify(new ` +
    `Entry('lms-cli', process.argv[1], { linux: { store: 'secret-service' } }).getPassword()));`;
  const r = await execa(process.execPath, ['-e', script, account], {
    cwd: root,
    env: { HOME: home, DBUS_SESSION_BUS_ADDRESS: env.DBUS_SESSION_BUS_ADDRESS },
  });
  return JSON.parse(r.stdout) as string | null;
}

const lms = (args: string[], extra: Record<string, string> = {}, input?: string) =>
  spawnLms(args, { ...env, ...extra }, input);

/** Every file under a directory, as text. */
function textsUnder(path: string): string {
  let all = '';
  for (const name of readdirSync(path)) {
    const full = join(path, name);
    all += statSync(full).isDirectory() ? textsUnder(full) : readFileSync(full, 'latin1');
  }
  return all;
}

describe.skipIf(skipReason !== undefined)('tokens in GNOME Keyring (Secret Service)', () => {
  beforeAll(async () => {
    await ensureBuilt();
    const address = await startSecretService();
    env = { ...workspace, HOME: home, DBUS_SESSION_BUS_ADDRESS: address, LMS_MOCK_DB: join(dir, 'keychain.db') };
    served = await serveMock({ ...env, LMS_MOCK_NOW: '2026-11-02T12:00:00Z' });
  }, 60_000);

  afterAll(async () => {
    await served?.stop();
    bus?.kill('SIGTERM');
    await bus?.catch(() => undefined);
  });

  it('keeps a pasted token in the keychain, and nowhere else: not the profile file, a trace, an error, the server ' +
    'log or a journal', {
    timeout: 60_000,
  }, async () => {
    const host = new URL(served!.url).host;
    const added = await lms(['profile', 'add', 'pasted', '--url', served!.url, '--token-stdin'], {}, ADMIN);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stderr).toContain(
      `Saved profile "pasted" (${host}) in ${join(dir, 'config', 'config.json')}, its token in the keychain`,
    );
    expect(JSON.parse((await keychainEntry(`pasted@${host}`))!)).toEqual({ kind: 'token', token: ADMIN });

    const traced = await lms(['users', 'get', 'self', '--fields', 'id', '-v']);
    expect(traced.exitCode, traced.stderr).toBe(0);
    expect(traced.stderr).toContain('token from the keychain (profile "pasted")');
    const failed = await lms(['users', 'get', '999999', '-v']);
    expect(failed.exitCode).toBe(4);
    writeFileSync(join(dir, 'new-students.csv'), 'name,login_id,email\nKey Chain,kchain,kchain@example.edu\n');
    const bulk = await lms(['users', 'import', '--account', '1', join(dir, 'new-students.csv'), '-v']);
    expect(bulk.exitCode, bulk.stderr).toBe(0);

    const everything =
      [added, traced, failed, bulk].map((r) => r.stdout + r.stderr).join('\n') +
      served!.log() +
      textsUnder(join(dir, 'config')) +
      textsUnder(join(dir, 'state'));
    expect(everything).not.toContain(ADMIN);

    const removed = await lms(['profile', 'remove', 'pasted', '--yes']);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(await keychainEntry(`pasted@${host}`)).toBeNull();
  });

  it('keeps a login in the keychain, renews it there, and logout removes it', { timeout: 60_000 }, async () => {
    const host = new URL(served!.url).host;
    const key = await developerKey(env);
    const login = await loginThroughMock(served!, env, key, ['-p', 'school']);
    expect(login.result.exitCode, login.result.stderr as string).toBe(0);
    expect(login.result.stderr).not.toContain('notice');
    const profile = (
      JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')) as { profiles: Record<string, unknown> }
    ).profiles.school;
    expect(profile).toEqual({
      url: served!.url,
      user: { id: 7, name: 'Sam Student' },
      clientId: key.client_id,
      keychain: `school@${host}`,
    });
    const first = JSON.parse((await keychainEntry(`school@${host}`))!) as {
      access_token: string;
      refresh_token: string;
    };
    expect(first).toMatchObject({ kind: 'oauth', client_id: key.client_id, client_secret: key.client_secret });

    // Two hours on by the mock's clock, on the same database and port.
    const port = new URL(served!.url).port;
    await served!.stop();
    served = await serveMock({ ...env, LMS_MOCK_NOW: '2026-11-02T14:00:00Z' }, ['--port', port]);
    const status = await lms(['-p', 'school', 'auth', 'status', '-o', 'json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'school',
      user_id: 7,
      token_source: 'keychain',
      renewable: true,
    });
    const renewed = JSON.parse((await keychainEntry(`school@${host}`))!) as {
      access_token: string;
      refresh_token: string;
    };
    expect(renewed.access_token).not.toBe(first.access_token);
    expect(renewed.refresh_token).toBe(first.refresh_token);

    const out = await lms(['-p', 'school', 'auth', 'logout']);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stderr).toBe(`Logged out of ${host}: the token was revoked, and removed from the keychain.`);
    expect(await keychainEntry(`school@${host}`)).toBeNull();
    const refused = await lms(['-p', 'school', 'users', 'get', 'self']);
    expect(refused.exitCode).toBe(3);

    const everything =
      [login.result.stdout, login.result.stderr, status.stdout, status.stderr, out.stderr].join('\n') +
      served!.log() +
      readFileSync(join(dir, 'config', 'config.json'), 'utf8');
    for (const secret of [login.code, first.access_token, first.refresh_token, renewed.access_token, key.client_secret])
      expect(everything).not.toContain(secret);
  });

  it('keeps the token in the profile file, with the notice, when no Secret Service answers', {
    timeout: 60_000,
  }, async () => {
    const added = await lms(
      ['profile', 'add', 'nokeychain', '--url', served!.url, '--token-stdin', '--no-verify'],
      { DBUS_SESSION_BUS_ADDRESS: 'disabled:' },
      SAM,
    );
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stderr).toContain(
      `notice: no keychain answered, so the token is kept in ${join(dir, 'config', 'config.json')}, readable only ` +
        'by you',
    );
    expect(readFileSync(join(dir, 'config', 'config.json'), 'utf8')).toContain(SAM);
    expect(await keychainEntry(`nokeychain@${new URL(served!.url).host}`)).toBeNull();
  });
});

if (skipReason) it.skip(`tokens in GNOME Keyring (skipped: ${skipReason})`, () => undefined);

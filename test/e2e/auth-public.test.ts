// End to end: `lms auth login` with the mock's public developer key (a client id and PKCE, no
// secret), driven without a browser against `lms mock serve` and with no terminal: nothing asks for
// a secret, none is sent or stored; `auth status` names the login; the token, expired by restarting
// the mock with a later clock on the same database, is renewed by the next command with the
// refresh token alone. Beside it, the confidential key logged in the same way without its secret:
// the instance refuses the code, and lms says the key needs its secret and how to give it (exit 3).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { developerKey, loginThroughMock, type DeveloperKey } from '../helpers/e2e-login.js';

const { dir, env } = e2eWorkspace('auth-public');
const db = join(dir, 'auth.db');
const base = { ...env, LMS_MOCK_DB: db };
const lms = (args: string[], extra: Record<string, string> = {}) => spawnLms(args, { ...base, ...extra });

let publicKey: DeveloperKey;
let confidential: DeveloperKey;
let served: Served | undefined;
let port = 0;

async function serveAt(now: string): Promise<Served> {
  await served?.stop();
  served = await serveMock({ ...base, LMS_MOCK_NOW: now }, port ? ['--port', String(port)] : []);
  port = Number(new URL(served.url).port);
  return served;
}

interface Stored {
  url: string;
  clientId: string;
  oauth?: {
    access_token: string;
    refresh_token: string;
    expires_at: string;
    client_id: string;
    client_secret?: string;
  };
}
const profiles = () =>
  (JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')) as { profiles: Record<string, Stored> })
    .profiles;

beforeAll(async () => {
  await ensureBuilt();
  publicKey = await developerKey(base, 'public');
  confidential = await developerKey(base, 'confidential');
});

afterAll(async () => {
  await served?.stop();
});

describe('lms auth login with a public developer key', () => {
  it('logs in with the client id alone: no secret asked for, sent or stored', { timeout: 60_000 }, async () => {
    expect(publicKey.client_secret).toBeNull();
    const s = await serveAt('2026-11-02T12:00:00Z');
    const login = await loginThroughMock(s, base, publicKey, ['-p', 'pub']);
    expect(login.result.exitCode, login.result.stderr as string).toBe(0);
    expect(login.page).toBe(200);
    expect(login.result.stderr).toContain(`Logged in to ${new URL(s.url).host} as Sam Student (id 7)`);
    expect(login.result.stderr).not.toMatch(/secret/i);
    // One exchange: the code was taken without a secret the first time.
    expect(s.log().match(/POST \/login\/oauth2\/token \d{3}/g)).toEqual(['POST /login/oauth2/token 200']);
    const stored = profiles().pub;
    expect(stored.clientId).toBe(publicKey.client_id);
    expect(stored.oauth).toMatchObject({ client_id: publicKey.client_id, refresh_token: expect.stringMatching(/^1~/) });
    expect(stored.oauth).not.toHaveProperty('client_secret');

    const status = await lms(['auth', 'status', '-p', 'pub', '-o', 'json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({
      instance: s.url,
      profile: 'pub',
      user_id: 7,
      user_name: 'Sam Student',
      token_source: 'file',
      expires_at: stored.oauth!.expires_at,
      renewable: true,
    });
  });

  it('renews the token with the refresh token alone once the mock clock has passed its hour', {
    timeout: 60_000,
  }, async () => {
    const before = profiles().pub.oauth!;
    const s = await serveAt('2026-11-02T14:00:00Z');
    const r = await lms(['users', 'get', 'self', '-p', 'pub', '--fields', 'id', '-v']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('↻ renewing the access token of profile "pub"');
    expect(JSON.parse(r.stdout)).toEqual({ id: 7 });
    const after = profiles().pub.oauth!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBe(before.refresh_token);
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.parse(before.expires_at));
    expect(s.log().match(/POST \/login\/oauth2\/token \d{3}/g)).toEqual(['POST /login/oauth2/token 200']);

    const status = await lms(['auth', 'status', '-p', 'pub', '-o', 'json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ user_id: 7, expires_at: after.expires_at, renewable: true });
  });

  it('a confidential key without its secret, in a script: the code is refused, lms says the key needs its secret ' +
    'and how to give it (exit 3), nothing saved', {
    timeout: 60_000,
  }, async () => {
    const s = await serveAt('2026-11-02T14:10:00Z');
    const login = await loginThroughMock(s, base, { client_id: confidential.client_id, client_secret: null }, [
      '-p',
      'conf',
    ]);
    expect(login.result.exitCode).toBe(3);
    const host = new URL(s.url).host;
    expect(login.result.stderr).toContain(
      `error: ${host} wants the client secret of developer key ${confidential.client_id}: it is a confidential ` +
        'client, not a public one; nothing was saved',
    );
    expect(login.result.stderr).toContain(`--client-id ${confidential.client_id} --client-secret-stdin`);
    expect(s.log().match(/POST \/login\/oauth2\/token \d{3}/g)).toEqual(['POST /login/oauth2/token 401']);
    expect(profiles().conf).toBeUndefined();

    // With the secret on stdin, the same key logs in.
    const withSecret = await loginThroughMock(s, base, confidential, ['-p', 'conf']);
    expect(withSecret.result.exitCode, withSecret.result.stderr as string).toBe(0);
    expect(profiles().conf.oauth).toMatchObject({
      client_id: confidential.client_id,
      client_secret: confidential.client_secret,
    });
  });
});

// End to end: `lms auth login` against `lms mock serve`, driven without a browser; a command with
// the new token; the token expired by restarting the mock with a later clock on the same database
// and port, and renewed by the next command on its own; eight commands started together across an
// expiry, one renewal among them and no failure; logout, then a refused command. No token, code or
// secret in anything the commands or the server print. (No keychain here: the workspace has no
// Secret Service, so the tokens are in the profile file; test/e2e/keychain.test.ts has one.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { developerKey, loginThroughMock, type DeveloperKey } from '../helpers/e2e-login.js';

const { dir, env } = e2eWorkspace('auth');
const db = join(dir, 'auth.db');
const base = { ...env, LMS_MOCK_DB: db };
const lms = (args: string[], extra: Record<string, string> = {}) => spawnLms(args, { ...base, ...extra });

let key: DeveloperKey;
let served: Served | undefined;
let port = 0;
const logs: string[] = [];
const printed: string[] = [];
/** What must appear nowhere: the code, every token, the client secret. */
const secrets: string[] = [];

/** The mock at `now`, on the same database and port as before. */
async function serveAt(now: string): Promise<Served> {
  if (served) {
    logs.push(served.log());
    await served.stop();
  }
  served = await serveMock({ ...base, LMS_MOCK_NOW: now }, port ? ['--port', String(port)] : []);
  port = Number(new URL(served.url).port);
  return served;
}

const tokenRequests = (log: string) => log.match(/POST \/login\/oauth2\/token \d{3}/g) ?? [];

function stored(): { access_token: string; refresh_token: string; expires_at: string } {
  const file = JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')) as {
    profiles: Record<string, { oauth: { access_token: string; refresh_token: string; expires_at: string } }>;
  };
  return file.profiles.school.oauth;
}

beforeAll(async () => {
  await ensureBuilt();
  key = await developerKey(base);
});

afterAll(async () => {
  await served?.stop();
});

describe('lms auth against lms mock serve', () => {
  it('logs in as a seeded user through the consent page, and a command uses the new token', {
    timeout: 60_000,
  }, async () => {
    const s = await serveAt('2026-11-02T12:00:00Z');
    const login = await loginThroughMock(s, base, key, ['-p', 'school', '-v']);
    printed.push(login.result.stdout as string, login.result.stderr as string);
    secrets.push(login.code, stored().access_token, stored().refresh_token);
    expect(login.result.exitCode, login.result.stderr as string).toBe(0);
    expect(login.page).toBe(200);
    expect(login.result.stderr).toContain(`Logged in to ${new URL(s.url).host} as Sam Student (id 7)`);
    expect(login.result.stderr).not.toContain(login.code);

    const self = await lms(['users', 'get', 'self', '--fields', 'id,name']);
    printed.push(self.stdout, self.stderr);
    expect(self.exitCode, self.stderr).toBe(0);
    expect(JSON.parse(self.stdout)).toEqual({ id: 7, name: 'Sam Student' });

    const status = await lms(['auth', 'status', '-o', 'json']);
    printed.push(status.stdout, status.stderr);
    expect(JSON.parse(status.stdout)).toEqual({
      instance: s.url,
      profile: 'school',
      user_id: 7,
      user_name: 'Sam Student',
      token_source: 'file',
      expires_at: stored().expires_at,
      renewable: true,
    });
  });

  it('renews the token on its own once the mock clock has passed its hour', { timeout: 60_000 }, async () => {
    const before = stored();
    const s = await serveAt('2026-11-02T14:00:00Z');
    const r = await lms(['users', 'get', 'self', '--fields', 'id', '-v']);
    printed.push(r.stdout, r.stderr);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/← 401 GET .*\/api\/v1\/users\/self/);
    expect(r.stderr).toContain('↻ renewing the access token of profile "school"');
    expect(JSON.parse(r.stdout)).toEqual({ id: 7 });
    const after = stored();
    secrets.push(after.access_token);
    expect(after.access_token).not.toBe(before.access_token);
    // Refresh tokens are not rotated.
    expect(after.refresh_token).toBe(before.refresh_token);
    expect(tokenRequests(s.log())).toHaveLength(1);
  });

  it('renews once for eight commands started together across an expiry, and none fails', {
    timeout: 60_000,
  }, async () => {
    const s = await serveAt('2026-11-02T16:00:00Z');
    const results = await Promise.all(Array.from({ length: 8 }, () => lms(['users', 'get', 'self', '--fields', 'id'])));
    for (const r of results) printed.push(r.stdout, r.stderr);
    expect(
      results.map((r) => r.exitCode),
      results.map((r) => r.stderr).join('\n'),
    ).toEqual(Array(8).fill(0));
    expect(results.map((r) => JSON.parse(r.stdout))).toEqual(Array(8).fill({ id: 7 }));
    expect(tokenRequests(s.log())).toHaveLength(1);
  });

  it('logs out (revoked at the mock), after which a command is refused (exit 3)', { timeout: 60_000 }, async () => {
    const s = await serveAt('2026-11-02T16:30:00Z');
    const last = stored();
    secrets.push(last.access_token);
    const out = await lms(['auth', 'logout']);
    printed.push(out.stdout, out.stderr);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stderr).toBe(
      `Logged out of ${new URL(s.url).host}: the token was revoked, and removed from ` +
        `${join(dir, 'config', 'config.json')}.`,
    );
    expect(s.log()).toMatch(/DELETE \/login\/oauth2\/token 200/);

    const refused = await lms(['users', 'get', 'self']);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain(`error: no token for ${s.url}`);
    // The revoked token itself no longer works, nor does its refresh token.
    const revoked = await lms(['users', 'get', 'self'], { LMS_TOKEN: last.access_token });
    expect(revoked.exitCode).toBe(3);
    const renew = await fetch(`${s.url}/login/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: key.client_id,
        client_secret: key.client_secret!,
        refresh_token: last.refresh_token,
      }),
    });
    expect(renew.status).toBe(400);
    printed.push(refused.stdout, refused.stderr, revoked.stdout, revoked.stderr);
  });

  it('printed no token, code or client secret anywhere, nor did the server log one', async () => {
    logs.push(served!.log());
    secrets.push(key.client_secret!);
    const file = readFileSync(join(dir, 'config', 'config.json'), 'utf8');
    expect(file).not.toContain('access_token');
    const everything = printed.join('\n') + logs.join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/\b1~[A-Za-z0-9_-]{20,}/);
  });
});

// End to end: a token the instance refuses gets advice that fits where the token came from — an
// OAuth login is logged in again, a pasted token is stored anew, LMS_TOKEN is the environment's —
// from the failing command and from lms doctor alike, against `lms mock serve`.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { developerKey, loginThroughMock } from '../helpers/e2e-login.js';

const { dir, env } = e2eWorkspace('token-hints');
const base = { ...env, LMS_MOCK_DB: join(dir, 'hints.db') };
const lms = (args: string[], extra: Record<string, string> = {}, input?: string) =>
  spawnLms(args, { ...base, ...extra }, input);
let served: Served;

beforeAll(async () => {
  await ensureBuilt();
  served = await serveMock(base);
});
afterAll(() => served.stop());

/** The doctor's auth check, as data. */
async function doctorAuth(args: string[], extra: Record<string, string> = {}) {
  const r = await lms([...args, 'doctor', '-o', 'json'], extra);
  return (JSON.parse(r.stdout) as { check: string; status: string; fix?: string }[]).find((c) => c.check === 'auth');
}

describe('a refused token', () => {
  it("from LMS_TOKEN, in --mock: names the mock's tokens", async () => {
    const r = await lms(['--mock', 'users', 'get', 'self'], { LMS_TOKEN: 'not-a-mock-token' });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('LMS_TOKEN is not a token of the mock: lms mock tokens lists them');
    expect(r.stderr).not.toContain('lms profile');
  });

  it('from LMS_TOKEN, against an instance: says LMS_TOKEN, not a profile', async () => {
    const extra = { LMS_BASE_URL: served.url, LMS_TOKEN: 'expired-or-wrong' };
    const r = await lms(['users', 'get', 'self'], extra);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('LMS_TOKEN was refused: set it to a valid token, or unset it to use a profile');
    expect(r.stderr).not.toContain('profile show');
    expect((await doctorAuth([], extra))?.fix).toBe(
      'LMS_TOKEN was refused: set it to a valid token, or unset it to use a profile',
    );
  });

  it('pasted into a profile: store a new one in that profile', async () => {
    const added = await lms(
      ['profile', 'add', 'pasted', '--url', served.url, '--token-stdin', '--no-verify'],
      {},
      'a-token-that-was-revoked',
    );
    expect(added.exitCode, added.stderr).toBe(0);
    const r = await lms(['-p', 'pasted', 'users', 'get', 'self']);
    expect(r.exitCode).toBe(3);
    const hint = `lms profile add pasted --url ${served.url} --token-stdin`;
    expect(r.stderr).toContain(`then store it: ${hint}`);
    expect((await doctorAuth(['-p', 'pasted']))?.fix).toContain(hint);
    // The hint is a whole command: run as printed with a good token, the profile works again.
    const stored = await lms(hint.split(' ').slice(1), {}, '1~mock-admin');
    expect(stored.exitCode, stored.stderr).toBe(0);
    expect((await lms(['-p', 'pasted', 'users', 'get', 'self'])).exitCode).toBe(0);
  });

  it('from a login whose session ended: log in again, never paste a token', { timeout: 60_000 }, async () => {
    const key = await developerKey(base);
    const login = await loginThroughMock(served, base, key, ['-p', 'school']);
    expect(login.result.exitCode, String(login.result.stderr)).toBe(0);
    const { access_token: token } = (await import(join(dir, 'config', 'config.json'), { with: { type: 'json' } }))
      .default.profiles.school.oauth as { access_token: string };
    // Revoked at the instance (as an administrator or the user would), and not forgotten here.
    const revoked = await fetch(`${served.url}/login/oauth2/token`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'lms-test' },
    });
    expect(revoked.status).toBe(200);
    const r = await lms(['-p', 'school', 'users', 'get', 'self']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('lms auth login');
    expect(r.stderr).not.toContain('--token-stdin');
    const auth = await doctorAuth(['-p', 'school']);
    expect(auth?.status).toBe('fail');
    expect(`${auth?.fix}`).toMatch(/lms auth login/);
    expect(`${auth?.fix}`).not.toContain('--token-stdin');
  });
});

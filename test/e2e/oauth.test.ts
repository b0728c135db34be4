// End to end: logging in through `lms mock serve` over real HTTP as a browser and `lms auth login`
// would, with no browser: the authorization URL followed, its consent form posted for a seeded user,
// the code exchanged (PKCE, S256), the API called with the new token; then the mock's clock moved
// past the hour by a restart on the same database, the token refused, refreshed, and revoked. The
// server's log shows no code, token, verifier, challenge, state or secret.
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('oauth');
const SAM = '7~mock-sam';
const REDIRECT = 'http://127.0.0.1:53682/callback';
const form = 'application/x-www-form-urlencoded';

beforeAll(async () => {
  await ensureBuilt();
});

async function served(now: string, run: (s: Served) => Promise<void>): Promise<string> {
  const s = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'oauth.db'), LMS_MOCK_NOW: now });
  try {
    await run(s);
  } finally {
    await s.stop();
  }
  return s.log();
}

const post = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': form, ...headers },
    body: new URLSearchParams(body),
  });

const whoAmI = async (base: string, token: string) => {
  const res = await fetch(`${base}/api/v1/users/self`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

it('logs in over HTTP as a seeded user, works an hour by the mock clock, refreshes, and logs out', {
  timeout: 60_000,
}, async () => {
  const tokens = await spawnLms(['mock', 'tokens', '-o', 'json'], { ...env, LMS_MOCK_DB: join(dir, 'oauth.db') });
  expect(tokens.exitCode, tokens.stderr).toBe(0);
  const key = (JSON.parse(tokens.stdout) as Record<string, string>[]).find((r) => r.role === 'developer_key')!;
  expect(key.client_id).toMatch(/^\d+$/);
  const client = { client_id: key.client_id, client_secret: key.client_secret };

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('hex');
  const secrets: string[] = [verifier, challenge, state, key.client_secret, SAM];
  let access = '';
  let refresh = '';

  const firstLog = await served('2026-11-02T12:00:00Z', async (s) => {
    const auth = new URL('/login/oauth2/auth', s.url);
    for (const [k, v] of Object.entries({
      client_id: key.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })) {
      auth.searchParams.set(k, v);
    }
    const page = await fetch(auth, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)![1];
    const unescapeHtml = (v: string) => v.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1],
        unescapeHtml(m[2]),
      ]),
    );

    const approved = await post(
      new URL(action, s.url).href,
      { ...fields, approve: '1' },
      { authorization: `Bearer ${SAM}` },
    );
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe(state);
    const code = back.searchParams.get('code')!;
    secrets.push(code);

    const exchanged = await post(`${s.url}/login/oauth2/token`, {
      grant_type: 'authorization_code',
      ...client,
      redirect_uri: REDIRECT,
      code,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    const grant = (await exchanged.json()) as Record<string, unknown>;
    expect(grant).toMatchObject({ token_type: 'Bearer', user: { id: 7, name: 'Sam Student' }, expires_in: 3600 });
    access = grant.access_token as string;
    refresh = grant.refresh_token as string;
    secrets.push(access, refresh);

    expect((await whoAmI(s.url, access)).body).toMatchObject({ id: 7, name: 'Sam Student' });
    // The code was single-use: a second exchange fails and takes the grant with it.
    const again = await post(`${s.url}/login/oauth2/token`, {
      grant_type: 'authorization_code',
      ...client,
      redirect_uri: REDIRECT,
      code,
      code_verifier: verifier,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await whoAmI(s.url, access)).status).toBe(401);
  });

  // A second login (the first was revoked by the reuse), to carry across the clock.
  const secondLog = await served('2026-11-02T12:30:00Z', async (s) => {
    const approved = await post(
      `${s.url}/login/oauth2/confirm`,
      {
        client_id: key.client_id,
        redirect_uri: REDIRECT,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        approve: '1',
      },
      { authorization: `Bearer ${SAM}` },
    );
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    secrets.push(code);
    const grant = (await (
      await post(`${s.url}/login/oauth2/token`, {
        grant_type: 'authorization_code',
        ...client,
        redirect_uri: REDIRECT,
        code,
        code_verifier: verifier,
      })
    ).json()) as Record<string, string>;
    access = grant.access_token;
    refresh = grant.refresh_token;
    secrets.push(access, refresh);
    expect((await whoAmI(s.url, access)).status).toBe(200);
  });

  // Two hours later by the mock's clock, on the same database.
  const thirdLog = await served('2026-11-02T14:30:00Z', async (s) => {
    const expired = await whoAmI(s.url, access);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer realm="canvas-lms"');
    expect(expired.body).toEqual({ errors: [{ message: 'Invalid access token.' }] });

    const renewed = await post(`${s.url}/login/oauth2/token`, {
      grant_type: 'refresh_token',
      ...client,
      refresh_token: refresh,
    });
    expect(renewed.status).toBe(200);
    const body = (await renewed.json()) as Record<string, unknown>;
    expect(body.refresh_token).toBeUndefined();
    const fresh = body.access_token as string;
    secrets.push(fresh);
    expect((await whoAmI(s.url, fresh)).body).toMatchObject({ id: 7 });

    const out = await fetch(`${s.url}/login/oauth2/token`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({});
    expect((await whoAmI(s.url, fresh)).status).toBe(401);
    const refused = await post(`${s.url}/login/oauth2/token`, {
      grant_type: 'refresh_token',
      ...client,
      refresh_token: refresh,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
  });

  const log = firstLog + secondLog + thirdLog;
  expect(log).toMatch(/GET \/login\/oauth2\/auth\?\[REDACTED\] 200/);
  expect(log).toMatch(/POST \/login\/oauth2\/confirm 302/);
  expect(log).toMatch(/POST \/login\/oauth2\/token 200/);
  for (const secret of secrets) expect(log.includes(secret), `the log shows ${secret.slice(0, 6)}…`).toBe(false);
});

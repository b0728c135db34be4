// The mock's OAuth2 endpoints, in process: the authorization step and its consent form, the code
// and refresh grants with PKCE (S256), revocation, tokens that expire by the mock's clock, each
// refusal the protocol names (RFC 6749 §4.1.2.1, §5.2; RFC 7636 §4.4.1, §4.6), and what the
// database keeps of a code or token (a hash, never the value).
import { createHash, randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { addCode, addDeveloperKey } from '../../src/mock/areas/oauth/repo.js';
import { MOCK_CLIENT_ID, MOCK_CLIENT_SECRET, MOCK_PUBLIC_CLIENT_ID } from '../../src/mock/areas/oauth/seed.js';
import { createMockHandler, type MockHandler } from '../../src/mock/handler.js';
import { listTokens, type MockRuntime } from '../../src/mock/runtime.js';
import { freshMock, TOKENS } from '../helpers/mock-client.js';

const NOW = '2026-11-02T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const REDIRECT = 'http://127.0.0.1:53682/callback';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

/** The same database as `mock`, with the clock at `now` (as `lms mock serve` restarted with a later LMS_MOCK_NOW). */
const handlerAt = (now: string): MockHandler => createMockHandler({ db: mock.db, now });

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json(): Record<string, unknown>;
}

async function send(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  o: {
    token?: string;
    form?: Record<string, string>;
    json?: Record<string, unknown>;
    headers?: Record<string, string>;
    handler?: MockHandler;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: string | undefined;
  if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(o.form).toString();
  } else if (o.json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  }
  const res = await (o.handler ?? mock.handler)({ method, url: `http://lms.mock${path}`, headers, body });
  const text = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An authorization request as `lms auth login` sends one. */
function request(challenge: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: MOCK_CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT,
    state: 'st-4711',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

const authPath = (params: Record<string, string>) => `/login/oauth2/auth?${new URLSearchParams(params)}`;

/** Where a redirect goes, and what it carries. */
function location(a: Answer): { base: string; params: Record<string, string> } {
  expect(a.status, a.text).toBe(302);
  const url = new URL(a.headers.location);
  return { base: `${url.origin}${url.pathname}`, params: Object.fromEntries(url.searchParams) };
}

/** The hidden fields of the consent form, unescaped. */
function formFields(html: string): Record<string, string> {
  const unescapeHtml = (s: string) => s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      unescapeHtml(m[1]),
      unescapeHtml(m[2]),
    ]),
  );
}

/** Through the consent page to a code, approved by the user `token` names. */
async function codeFor(token: string, challenge: string, extra: Record<string, string> = {}): Promise<string> {
  const page = await send('GET', authPath(request(challenge, extra)));
  expect(page.status, page.text).toBe(200);
  const back = location(
    await send('POST', '/login/oauth2/confirm', { token, form: { ...formFields(page.text), approve: '1' } }),
  );
  return back.params.code;
}

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}, handler?: MockHandler) =>
  send('POST', '/login/oauth2/token', {
    handler,
    form: {
      grant_type: 'authorization_code',
      client_id: MOCK_CLIENT_ID,
      client_secret: MOCK_CLIENT_SECRET,
      redirect_uri: REDIRECT,
      code,
      code_verifier: verifier,
      ...extra,
    },
  });

const refresh = (refreshToken: string, extra: Record<string, string> = {}, handler?: MockHandler) =>
  send('POST', '/login/oauth2/token', {
    handler,
    form: {
      grant_type: 'refresh_token',
      client_id: MOCK_CLIENT_ID,
      client_secret: MOCK_CLIENT_SECRET,
      refresh_token: refreshToken,
      ...extra,
    },
  });

/** A whole login as Sam: his access and refresh tokens. */
async function loginAsSam(): Promise<{ access: string; refresh: string; code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const code = await codeFor(TOKENS.student, challenge);
  const answer = await exchange(code, verifier);
  expect(answer.status, answer.text).toBe(200);
  const body = answer.json();
  return { access: body.access_token as string, refresh: body.refresh_token as string, code, verifier };
}

const whoAmI = async (token: string, handler?: MockHandler) => {
  const a = await send('GET', '/api/v1/users/self', { token, handler });
  return a.status === 200 ? (a.json().id as number) : a.status;
};

const grantError = (a: Answer) => ({ status: a.status, error: a.json().error });

describe('the seeded developer keys', () => {
  it(
    'are Canvas-style numeric client ids, a confidential one with its secret and a public one without, listed ' +
      'after the users by lms mock tokens',
    () => {
      expect(MOCK_CLIENT_ID).toBe('10000000000001');
      expect(MOCK_PUBLIC_CLIENT_ID).toBe('10000000000002');
      const rows = listTokens(mock.db);
      expect(rows.slice(-2)).toEqual([
        {
          user_id: null,
          name: 'lms command-line tool',
          role: 'developer_key',
          token: null,
          client_id: MOCK_CLIENT_ID,
          client_secret: MOCK_CLIENT_SECRET,
        },
        {
          user_id: null,
          name: 'lms command-line tool (public client)',
          role: 'developer_key',
          token: null,
          client_id: MOCK_PUBLIC_CLIENT_ID,
          client_secret: null,
        },
      ]);
      expect(rows.filter((r) => r.role === 'developer_key')).toHaveLength(2);
    },
  );
});

describe('a public developer key (PKCE only, no secret)', () => {
  const publicExchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    send('POST', '/login/oauth2/token', {
      form: {
        grant_type: 'authorization_code',
        client_id: MOCK_PUBLIC_CLIENT_ID,
        redirect_uri: REDIRECT,
        code,
        code_verifier: verifier,
        ...extra,
      },
    });
  const publicRefresh = (refreshToken: string, extra: Record<string, string> = {}, handler?: MockHandler) =>
    send('POST', '/login/oauth2/token', {
      handler,
      form: { grant_type: 'refresh_token', client_id: MOCK_PUBLIC_CLIENT_ID, refresh_token: refreshToken, ...extra },
    });

  it(
    'exchanges a code for tokens with the verifier alone, and renews with the refresh token alone, after the hour ' +
      'too',
    async () => {
      const { verifier, challenge } = pkce();
      const code = await codeFor(TOKENS.student, challenge, { client_id: MOCK_PUBLIC_CLIENT_ID });
      const got = await publicExchange(code, verifier);
      expect(got.status, got.text).toBe(200);
      const body = got.json();
      expect(body).toMatchObject({ token_type: 'Bearer', user: { id: 7 }, expires_in: 3600 });
      expect(await whoAmI(body.access_token as string)).toBe(7);

      const later = handlerAt(at(3601));
      expect(await whoAmI(body.access_token as string, later)).toBe(401);
      const renewed = await publicRefresh(body.refresh_token as string, {}, later);
      expect(renewed.status, renewed.text).toBe(200);
      expect(await whoAmI(renewed.json().access_token as string, later)).toBe(7);
    },
  );

  it('a secret it sends anyway proves nothing and is not read', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge, { client_id: MOCK_PUBLIC_CLIENT_ID });
    expect((await publicExchange(code, verifier, { client_secret: 'anything' })).status).toBe(200);
  });

  it('refuses a wrong verifier (invalid_grant, the code spent), and a verifier without a code', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge, { client_id: MOCK_PUBLIC_CLIENT_ID });
    const wrong = await publicExchange(code, pkce().verifier);
    expect(wrong.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
    });
    expect(grantError(await publicExchange(code, verifier))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(grantError(await publicExchange('', verifier))).toEqual({ status: 400, error: 'invalid_request' });
  });

  it("cannot spend the confidential key's code or refresh token, nor the other way round", async () => {
    const sam = await loginAsSam();
    expect((await publicRefresh(sam.refresh)).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'incorrect client',
    });
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    expect((await publicExchange(code, verifier)).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'incorrect client',
    });
    const { verifier: v2, challenge: c2 } = pkce();
    const publicCode = await codeFor(TOKENS.student, c2, { client_id: MOCK_PUBLIC_CLIENT_ID });
    expect((await exchange(publicCode, v2)).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'incorrect client',
    });
  });

  it(
    'leaves the confidential key needing its secret: a request without one is 401 invalid_client, and the code ' +
      'still works with it',
    async () => {
      const { verifier, challenge } = pkce();
      const code = await codeFor(TOKENS.student, challenge);
      const bare = await send('POST', '/login/oauth2/token', {
        form: {
          grant_type: 'authorization_code',
          client_id: MOCK_CLIENT_ID,
          redirect_uri: REDIRECT,
          code,
          code_verifier: verifier,
        },
      });
      expect(bare.status).toBe(401);
      expect(bare.json()).toEqual({
        error: 'invalid_client',
        error_description: 'client_secret is required: this developer key is a confidential client',
      });
      expect(bare.headers['www-authenticate']).toBe('Canvas OAuth 2.0');
      expect((await exchange(code, verifier)).status).toBe(200);
      const sam = await loginAsSam();
      expect(
        grantError(
          await send('POST', '/login/oauth2/token', {
            form: { grant_type: 'refresh_token', client_id: MOCK_CLIENT_ID, refresh_token: sam.refresh },
          }),
        ),
      ).toEqual({ status: 401, error: 'invalid_client' });
    },
  );
});

describe('the authorization-code flow with PKCE', () => {
  it(
    'shows a consent page whose form, answered for a user, redirects with a code and the state; the code buys ' +
      'tokens that act as that user',
    async () => {
      const { verifier, challenge } = pkce();
      const page = await send('GET', authPath(request(challenge)));
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<form method="post" action="/login/oauth2/confirm">');
      expect(page.text).toContain('lms command-line tool is requesting access to your account');
      const fields = formFields(page.text);
      expect(fields).toEqual({
        client_id: MOCK_CLIENT_ID,
        response_type: 'code',
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st-4711',
      });

      const back = location(
        await send('POST', '/login/oauth2/confirm', { token: TOKENS.student, form: { ...fields, approve: '1' } }),
      );
      expect(back.base).toBe(REDIRECT);
      expect(Object.keys(back.params)).toEqual(['code', 'state']);
      expect(back.params.state).toBe('st-4711');
      expect(back.params.code).toMatch(/^[0-9a-f]{128}$/);

      const answer = await exchange(back.params.code, verifier);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const body = answer.json();
      expect(Object.keys(body)).toEqual(['access_token', 'token_type', 'user', 'refresh_token', 'expires_in']);
      expect(body).toMatchObject({
        token_type: 'Bearer',
        user: { id: 7, name: 'Sam Student', global_id: '10000000000007' },
        expires_in: 3600,
      });
      expect(body.access_token).toMatch(/^1~[\w-]{64}$/);
      expect(body.refresh_token).toMatch(/^1~[\w-]{64}$/);
      expect(body.refresh_token).not.toBe(body.access_token);

      // The token is Sam's, with Sam's rights and no one else's.
      expect(await whoAmI(body.access_token as string)).toBe(7);
      expect((await send('GET', '/api/v1/accounts/1/users', { token: body.access_token as string })).status).toBe(401);
      expect((await send('GET', '/api/v1/accounts/1/users', { token: TOKENS.admin })).status).toBe(200);
    },
  );

  it('answers for whichever user approves: the teacher who signs the form gets a teacher token', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.teacher, challenge);
    const body = (await exchange(code, verifier)).json();
    expect(body.user).toMatchObject({ id: 3, name: 'Tess Teacher' });
    expect(await whoAmI(body.access_token as string)).toBe(3);
  });

  it('takes the approving token from the consent form itself, as a person types it in a browser', async () => {
    const { verifier, challenge } = pkce();
    const page = await send('GET', authPath(request(challenge)));
    expect(page.text).toContain('<input type="password" id="access_token" name="access_token"');
    const back = location(
      await send('POST', '/login/oauth2/confirm', {
        form: { ...formFields(page.text), access_token: TOKENS.otherStudent, approve: '1' },
      }),
    );
    const body = (await exchange(back.params.code, verifier)).json();
    expect(body.user).toMatchObject({ id: 8 });
  });

  it('accepts the token request as JSON, and the client credentials by HTTP Basic (RFC 6749 §2.3.1)', async () => {
    const first = pkce();
    const code1 = await codeFor(TOKENS.student, first.challenge);
    const asJson = await send('POST', '/login/oauth2/token', {
      json: {
        grant_type: 'authorization_code',
        client_id: Number(MOCK_CLIENT_ID),
        client_secret: MOCK_CLIENT_SECRET,
        redirect_uri: REDIRECT,
        code: code1,
        code_verifier: first.verifier,
      },
    });
    expect(asJson.status, asJson.text).toBe(200);

    const second = pkce();
    const code2 = await codeFor(TOKENS.student, second.challenge);
    const basic = Buffer.from(`${MOCK_CLIENT_ID}:${MOCK_CLIENT_SECRET}`).toString('base64');
    const byBasic = await send('POST', '/login/oauth2/token', {
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'authorization_code', redirect_uri: REDIRECT, code: code2, code_verifier: second.verifier },
    });
    expect(byBasic.status, byBasic.text).toBe(200);
    expect(await whoAmI(byBasic.json().access_token as string)).toBe(7);
  });

  it(
    'redirects to any loopback port and path, on 127.0.0.1 ' + 'or localhost, keeping a query the redirect_uri has',
    async () => {
      for (const redirect of [
        'http://localhost:8123/cb?session=a%20b',
        'http://127.0.0.1/',
        'http://127.0.0.1:1/deep/path',
      ]) {
        const { verifier, challenge } = pkce();
        const page = await send('GET', authPath(request(challenge, { redirect_uri: redirect })));
        expect(page.status, redirect).toBe(200);
        const res = await send('POST', '/login/oauth2/confirm', {
          token: TOKENS.student,
          form: { ...formFields(page.text), approve: '1' },
        });
        const back = new URL(res.headers.location);
        expect(`${back.origin}${back.pathname}`).toBe(new URL(redirect).origin + new URL(redirect).pathname);
        if (redirect.includes('session')) expect(back.searchParams.get('session')).toBe('a b');
        expect((await exchange(back.searchParams.get('code')!, verifier, { redirect_uri: redirect })).status).toBe(200);
      }
    },
  );
});

describe('the authorization step refuses', () => {
  const { challenge } = pkce();

  it.each([
    ['an unknown client_id', { client_id: '10000000000099' }],
    ['a client_id that is not a number', { client_id: 'lms' }],
    ['no client_id', { client_id: '' }],
  ])('%s: 401 invalid_client, and no redirect to anywhere', async (_what, extra) => {
    const a = await send('GET', authPath(request(challenge, extra)));
    expect(a.status).toBe(401);
    expect(a.headers.location).toBeUndefined();
    expect(a.json()).toEqual({ error: 'invalid_client', error_description: 'unknown client' });
  });

  it.each([
    ['another host', 'https://evil.example/callback'],
    ['https on loopback', 'https://127.0.0.1:5000/cb'],
    ['a host that only starts like loopback', 'http://127.0.0.1.evil.example:5000/cb'],
    ['credentials before the host', 'http://127.0.0.1:5000@evil.example/cb'],
    ['user info on loopback', 'http://me:pw@127.0.0.1:5000/cb'],
    ['a fragment', 'http://127.0.0.1:5000/cb#frag'],
    ['the out-of-band URN', 'urn:ietf:wg:oauth:2.0:oob'],
    ['no redirect_uri', ''],
    ['a code of its own', 'http://127.0.0.1:5/cb?code=ATTACKER'],
    ['a code of its own after another parameter', 'http://127.0.0.1:5/cb?x=1&code=ATTACKER'],
    ['an empty code of its own', 'http://127.0.0.1:5/cb?code='],
    ['a state of its own', 'http://127.0.0.1:5/cb?state=forged'],
  ])('a redirect_uri with %s: 400 invalid_request, and no redirect', async (_what, redirect) => {
    const a = await send('GET', authPath(request(challenge, { redirect_uri: redirect })));
    expect(a.status).toBe(400);
    expect(a.headers.location).toBeUndefined();
    expect(a.json()).toEqual({
      error: 'invalid_request',
      error_description: 'redirect_uri does not match client settings',
    });
  });

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: '' }, 'unsupported_response_type'],
    ['no code_challenge', { code_challenge: '' }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method (plain, by RFC 7636)', { code_challenge_method: '' }, 'invalid_request'],
    ['a challenge that is no S256 digest', { code_challenge: 'too-short' }, 'invalid_request'],
  ])('%s: back to the client with %s and the state', async (_what, extra, error) => {
    const back = location(await send('GET', authPath(request(challenge, extra))));
    expect(back.base).toBe(REDIRECT);
    expect(back.params).toMatchObject({ error, state: 'st-4711' });
    expect(back.params.code).toBeUndefined();
  });
});

describe('the consent step', () => {
  it('a redirect_uri with a query of its own but no code or state still gets the answer after it', async () => {
    const { challenge } = pkce();
    const back = location(
      await send('POST', '/login/oauth2/confirm', {
        token: TOKENS.student,
        form: { ...request(challenge, { redirect_uri: `${REDIRECT}?x=1` }), approve: '1' },
      }),
    );
    expect(back.base).toBe(REDIRECT);
    expect(back.params).toMatchObject({ x: '1', state: 'st-4711' });
    expect(back.params.code).toMatch(/^[0-9a-f]{128}$/);
  });

  it('a forged form whose redirect_uri brings its own code: 400, and no code sent anywhere', async () => {
    const { challenge } = pkce();
    const a = await send('POST', '/login/oauth2/confirm', {
      token: TOKENS.student,
      form: { ...request(challenge, { redirect_uri: 'http://127.0.0.1:5/cb?code=ATTACKER' }), approve: '1' },
    });
    expect(a.status).toBe(400);
    expect(a.headers.location).toBeUndefined();
  });

  it(
    'is not approved by an access token the provider issued ' + '(header or form): 401 as for no login, and no code',
    async () => {
      const { access } = await loginAsSam();
      expect(await whoAmI(access)).toBeTypeOf('number');
      const { challenge } = pkce();
      const form = { ...request(challenge), approve: '1' };
      for (const a of [
        await send('POST', '/login/oauth2/confirm', { token: access, form }),
        await send('POST', '/login/oauth2/confirm', { form: { ...form, access_token: access } }),
      ]) {
        expect(a.status).toBe(401);
        expect(a.headers.location).toBeUndefined();
        expect(a.json()).toEqual({ status: 'unauthenticated', errors: [{ message: 'user authorization required' }] });
      }
    },
  );

  it(
    'needs the approving user: no token is 401, an unknown ' +
      'one 401 with WWW-Authenticate, and neither sends a code',
    async () => {
      const { challenge } = pkce();
      const form = { ...request(challenge), approve: '1' };
      const none = await send('POST', '/login/oauth2/confirm', { form });
      expect(none.status).toBe(401);
      expect(none.json()).toEqual({ status: 'unauthenticated', errors: [{ message: 'user authorization required' }] });
      const bad = await send('POST', '/login/oauth2/confirm', { token: '7~not-a-token', form });
      expect(bad.status).toBe(401);
      expect(bad.headers['www-authenticate']).toBe('Bearer realm="canvas-lms"');
      expect(bad.headers.location).toBeUndefined();
    },
  );

  it('denied: back to the client with access_denied and the state, no code', async () => {
    const { challenge } = pkce();
    const back = location(
      await send('POST', '/login/oauth2/confirm', {
        token: TOKENS.student,
        form: { ...request(challenge), deny: '1' },
      }),
    );
    expect(back.params).toMatchObject({ error: 'access_denied', state: 'st-4711' });
    expect(back.params.code).toBeUndefined();
  });

  it('checks the client and redirect_uri again (the form can be forged), and wants an answer', async () => {
    const { challenge } = pkce();
    const forged = await send('POST', '/login/oauth2/confirm', {
      token: TOKENS.student,
      form: { ...request(challenge), redirect_uri: 'https://evil.example/', approve: '1' },
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.location).toBeUndefined();
    const unknown = await send('POST', '/login/oauth2/confirm', {
      token: TOKENS.student,
      form: { ...request(challenge), client_id: '42', approve: '1' },
    });
    expect(unknown.status).toBe(401);
    const noPkce = location(
      await send('POST', '/login/oauth2/confirm', {
        token: TOKENS.student,
        form: { ...request(challenge), code_challenge: '', approve: '1' },
      }),
    );
    expect(noPkce.params).toMatchObject({ error: 'invalid_request', state: 'st-4711' });
    const undecided = await send('POST', '/login/oauth2/confirm', { token: TOKENS.student, form: request(challenge) });
    expect(undecided.status).toBe(400);
  });
});

describe('the token endpoint refuses', () => {
  it(
    'a wrong client secret, an unknown client or none: ' + '401 invalid_client, and the code still works after',
    async () => {
      const { verifier, challenge } = pkce();
      const code = await codeFor(TOKENS.student, challenge);
      const wrong: Record<string, string>[] = [
        { client_secret: 'wrong' },
        { client_secret: '' },
        { client_id: '10000000000099' },
        { client_id: '' },
      ];
      for (const extra of wrong) {
        const a = await exchange(code, verifier, extra);
        expect(grantError(a), JSON.stringify(extra)).toEqual({ status: 401, error: 'invalid_client' });
        expect(a.headers['www-authenticate']).toBe('Canvas OAuth 2.0');
      }
      expect((await exchange(code, verifier)).status).toBe(200);
    },
  );

  it.each([
    ['password', { grant_type: 'password' }],
    ['client_credentials', { grant_type: 'client_credentials' }],
    ['none, and no code', { grant_type: '', code: '' }],
  ])('grant_type %s: 400 unsupported_grant_type', async (_what, extra) => {
    expect(grantError(await exchange('x', 'y', extra))).toEqual({ status: 400, error: 'unsupported_grant_type' });
  });

  it('takes a request with a code and no grant_type for the code grant, as real instances do', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    const form = {
      client_id: MOCK_CLIENT_ID,
      client_secret: MOCK_CLIENT_SECRET,
      redirect_uri: REDIRECT,
      code,
      code_verifier: verifier,
    };
    expect((await send('POST', '/login/oauth2/token', { form })).status).toBe(200);
  });

  it('missing parameters: 400 invalid_request, the code left usable', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    expect(grantError(await exchange('', verifier))).toEqual({ status: 400, error: 'invalid_request' });
    expect(grantError(await exchange(code, ''))).toEqual({ status: 400, error: 'invalid_request' });
    expect(grantError(await exchange(code, verifier, { redirect_uri: '' }))).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    // A verifier shorter than RFC 7636 allows is malformed, whatever it hashes to.
    expect(grantError(await exchange(code, 'short'))).toEqual({ status: 400, error: 'invalid_request' });
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it('an unknown code: 400 invalid_grant', async () => {
    expect(grantError(await exchange('f'.repeat(128), pkce().verifier))).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('a reused code: invalid_grant, and what the code issued is revoked (RFC 6749 §4.1.2)', async () => {
    const sam = await loginAsSam();
    expect(await whoAmI(sam.access)).toBe(7);
    const again = await exchange(sam.code, sam.verifier);
    expect(again.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'authorization_code has already been used',
    });
    expect(again.status).toBe(400);
    expect(await whoAmI(sam.access)).toBe(401);
    expect(grantError(await refresh(sam.refresh))).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('an expired code: ten minutes by the mock clock', async () => {
    const { verifier, challenge } = pkce();
    const stale = await codeFor(TOKENS.student, challenge);
    expect(grantError(await exchange(stale, verifier, {}, handlerAt(at(600))))).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
    const fresh = pkce();
    const code = await codeFor(TOKENS.student, fresh.challenge);
    expect((await exchange(code, fresh.verifier, {}, handlerAt(at(599)))).status).toBe(200);
  });

  it('a wrong code_verifier: invalid_grant, and the code is spent (one guess per code)', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    const wrong = await exchange(code, pkce().verifier);
    expect(wrong.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
    });
    // The challenge itself is no verifier either.
    expect(grantError(await exchange(code, challenge))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(grantError(await exchange(code, verifier))).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('a redirect_uri other than the one the code was issued for: invalid_grant', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    for (const other of ['http://127.0.0.1:53683/callback', `${REDIRECT}/`, 'https://evil.example/callback']) {
      expect(grantError(await exchange(code, verifier, { redirect_uri: other })), other).toEqual({
        status: 400,
        error: 'invalid_grant',
      });
    }
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it(
    'a code issued for a redirect_uri that brought its own ' + 'code: invalid_grant, even with that same redirect_uri',
    async () => {
      const { verifier, challenge } = pkce();
      const redirect = 'http://127.0.0.1:5/cb?code=ATTACKER';
      const code = randomBytes(64).toString('hex');
      addCode(mock.db, {
        code,
        key: 1,
        user: (await whoAmI(TOKENS.student)) as number,
        redirectUri: redirect,
        challenge,
        scopes: '',
        expiresAt: at(600),
        now: NOW,
      });
      const a = await exchange(code, verifier, { redirect_uri: redirect });
      expect(a.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'redirect_uri does not match client settings',
      });
    },
  );

  it("another client's code: invalid_grant (incorrect client)", async () => {
    addDeveloperKey(mock.db, {
      id: 3,
      account: 1,
      name: 'Other app',
      apiKey: 'other-secret',
      redirectUris: ['http://127.0.0.1/'],
      now: NOW,
    });
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    const a = await exchange(code, verifier, { client_id: '10000000000003', client_secret: 'other-secret' });
    expect(a.json()).toEqual({ error: 'invalid_grant', error_description: 'incorrect client' });
  });
});

describe('the refresh grant', () => {
  it(
    'gives a new access token and no new refresh token; the refresh token keeps working, the replaced access token ' +
      'does not',
    async () => {
      const sam = await loginAsSam();
      const first = await refresh(sam.refresh);
      expect(first.status, first.text).toBe(200);
      const body = first.json();
      expect(Object.keys(body)).toEqual(['access_token', 'token_type', 'user', 'expires_in']);
      expect(body).toMatchObject({ token_type: 'Bearer', user: { id: 7, name: 'Sam Student' }, expires_in: 3600 });
      expect(body.access_token).not.toBe(sam.access);
      expect(await whoAmI(body.access_token as string)).toBe(7);
      // Real instances issue the new access token in the old one's place.
      expect(await whoAmI(sam.access)).toBe(401);

      const second = await refresh(sam.refresh);
      expect(second.status).toBe(200);
      expect(await whoAmI(second.json().access_token as string)).toBe(7);
      expect(await whoAmI(body.access_token as string)).toBe(401);
    },
  );

  it(
    'refuses a wrong secret (401), no refresh_token ' + '(invalid_request) and an unknown one (invalid_grant)',
    async () => {
      const sam = await loginAsSam();
      expect(grantError(await refresh(sam.refresh, { client_secret: 'nope' }))).toEqual({
        status: 401,
        error: 'invalid_client',
      });
      expect(grantError(await refresh(''))).toEqual({ status: 400, error: 'invalid_request' });
      expect(grantError(await refresh(`1~${'x'.repeat(64)}`))).toEqual({ status: 400, error: 'invalid_grant' });
      // An access token is no refresh token.
      expect(grantError(await refresh(sam.access))).toEqual({ status: 400, error: 'invalid_grant' });
    },
  );
});

describe('expiry by the mock clock', () => {
  it(
    'an access token works for an hour; then 401 as real ' + 'instances answer, and a refresh brings a new hour',
    async () => {
      const sam = await loginAsSam();
      expect(await whoAmI(sam.access, handlerAt(at(3599)))).toBe(7);
      const expired = await send('GET', '/api/v1/users/self', { token: sam.access, handler: handlerAt(at(3600)) });
      expect(expired.status).toBe(401);
      expect(expired.headers['www-authenticate']).toBe('Bearer realm="canvas-lms"');
      expect(expired.json()).toEqual({ errors: [{ message: 'Invalid access token.' }] });
      // A seeded token does not expire.
      expect(await whoAmI(TOKENS.student, handlerAt(at(10 * 86400)))).toBe(7);

      const later = handlerAt(at(2 * 86400));
      const renewed = await refresh(sam.refresh, {}, later);
      expect(renewed.status, renewed.text).toBe(200);
      const token = renewed.json().access_token as string;
      expect(await whoAmI(token, later)).toBe(7);
      expect(await whoAmI(token, handlerAt(at(2 * 86400 + 3599)))).toBe(7);
      expect(await whoAmI(token, handlerAt(at(2 * 86400 + 3600)))).toBe(401);
    },
  );

  it('reads a clock given without milliseconds (LMS_MOCK_NOW=…T13:00:00Z) the same', async () => {
    const sam = await loginAsSam();
    expect(await whoAmI(sam.access, handlerAt('2026-11-02T12:59:59Z'))).toBe(7);
    expect(await whoAmI(sam.access, handlerAt('2026-11-02T13:00:00Z'))).toBe(401);
  });
});

describe('revocation (DELETE /login/oauth2/token)', () => {
  it('answers {} and the access token and its refresh token stop working', async () => {
    const sam = await loginAsSam();
    const out = await send('DELETE', '/login/oauth2/token', { token: sam.access });
    expect(out.status, out.text).toBe(200);
    expect(out.json()).toEqual({});
    const refused = await send('GET', '/api/v1/users/self', { token: sam.access });
    expect(refused.status).toBe(401);
    expect(refused.json()).toEqual({ errors: [{ message: 'Invalid access token.' }] });
    expect(grantError(await refresh(sam.refresh))).toEqual({ status: 400, error: 'invalid_grant' });
    expect((await send('DELETE', '/login/oauth2/token', { token: sam.access })).status).toBe(401);
    // Sam's other ways in are his own business.
    expect(await whoAmI(TOKENS.student)).toBe(7);
  });

  it('revokes one grant only: a second login of the same user keeps working', async () => {
    const one = await loginAsSam();
    const two = await loginAsSam();
    await send('DELETE', '/login/oauth2/token', { token: one.access });
    expect(await whoAmI(one.access)).toBe(401);
    expect(await whoAmI(two.access)).toBe(7);
    expect((await refresh(two.refresh)).status).toBe(200);
  });

  it('with no token is 401; with a seeded token (no OAuth grant) is 400 and the token stays', async () => {
    expect((await send('DELETE', '/login/oauth2/token')).status).toBe(401);
    const seeded = await send('DELETE', '/login/oauth2/token', { token: TOKENS.student });
    expect(seeded.status).toBe(400);
    expect(seeded.json()).toEqual({ message: "can't delete OAuth access token when not using an OAuth access token" });
    expect(await whoAmI(TOKENS.student)).toBe(7);
  });
});

describe('what the database keeps', () => {
  it('of codes and tokens, only their SHA-256: no row anywhere holds one in plaintext', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(TOKENS.student, challenge);
    const issued = (await exchange(code, verifier)).json();
    const renewed = (await refresh(issued.refresh_token as string)).json();
    const secrets = [code, verifier, issued.access_token, issued.refresh_token, renewed.access_token] as string[];

    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const tokens = mock.db.prepare(`SELECT * FROM oauth_tokens`).all() as Record<string, unknown>[];
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({
      user_id: 7,
      crypted_token: sha(renewed.access_token as string),
      crypted_refresh_token: sha(issued.refresh_token as string),
      workflow_state: 'active',
    });
    const codes = mock.db.prepare(`SELECT * FROM oauth_codes`).all() as Record<string, unknown>[];
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ crypted_code: sha(code), code_challenge: challenge, user_id: 7 });

    const tables = (
      mock.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]
    ).map((t) => t.name);
    const everything = tables.map((t) => JSON.stringify(mock.db.prepare(`SELECT * FROM "${t}"`).all())).join('\n');
    for (const secret of secrets)
      expect(everything.includes(secret), `a plaintext ${secret.slice(0, 6)}… in the database`).toBe(false);
  });
});

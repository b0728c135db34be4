// OAuth2 as real instances serve it: the authorization step (a consent page, answered for a chosen
// user), the token endpoint with the authorization_code grant (PKCE, S256 only) and the
// refresh_token grant, and revocation. Errors are the protocol's (RFC 6749 §4.1.2.1, §5.2; RFC 7636
// §4.4.1), in real instances' words where they have them. What this mock asks beyond them: PKCE on
// every authorization (real instances accept a confidential client without it), the redirect_uri
// checked again at the token endpoint, and a second use of a code revoking what the first issued
// (RFC 6749 §4.1.2, which real instances leave to the code's expiry).
import type { OperationId } from '../../../spec/routes.js';
import { headerOf } from '../../decode.js';
import {
  HttpError,
  Reply,
  bearerToken,
  bool,
  crypto,
  invalidToken,
  str,
  unauthenticated,
  type Handler,
  type MockCtx,
  type UserRow,
} from '../../kit.js';
import { activeUser, tokenUser } from '../lookup.js';
import { tokenOwner } from '../../school/users/repo.js';
import { consentPage, PAGE_HEADERS } from './page.js';
import {
  addCode,
  addOAuthToken,
  codeByValue,
  developerKeyByClientId,
  digest,
  globalIdOf,
  replaceAccessToken,
  revokeToken,
  spendCode,
  tokenByAccessToken,
  tokenByRefreshToken,
  type DeveloperKeyRow,
} from './repo.js';

/** An access token lives an hour, as real instances' do for keys issued since 2015. */
const ACCESS_TOKEN_SECONDS = 3600;
/** A code lives ten minutes (real instances' `oath_token_request_timeout`). */
const CODE_MS = 10 * 60 * 1000;

// ---- the authorization request ----------------------------------------------------------------

/**
 * The error answers of the authorization step that must not redirect: the client or its redirect_uri cannot be trusted.
 */
const unknownClient = () =>
  new HttpError(
    401,
    { error: 'invalid_client', error_description: 'unknown client' },
    { 'www-authenticate': 'Canvas OAuth 2.0' },
  );
const badRedirect = () =>
  new HttpError(400, { error: 'invalid_request', error_description: 'redirect_uri does not match client settings' });

interface Authorization {
  key: DeveloperKeyRow;
  /** The redirect_uri as the client sent it (the token request must send the same text). */
  redirectUri: string;
  /** The same, parsed and checked: where the answer goes. */
  redirect: URL;
  state: string | undefined;
  scope: string;
}

/** The client and where to send it back, both checked before anything is sent there. */
function authorization(ctx: MockCtx): Authorization {
  const key = developerKeyByClientId(ctx.db, str(ctx.params, 'client_id') ?? '');
  if (!key) throw unknownClient();
  const redirectUri = str(ctx.params, 'redirect_uri') ?? '';
  const redirect = allowedRedirect(key, redirectUri);
  if (!redirect) throw badRedirect();
  const scope = (str(ctx.params, 'scope') ?? str(ctx.params, 'scopes') ?? '').trim();
  return { key, redirectUri, redirect, state: str(ctx.params, 'state'), scope };
}

/**
 * The redirect_uri parsed, when the key allows it: the same scheme and host as one of the key's,
 * and a path under that one's; any port on a loopback host (RFC 8252 §7.3: a native app listens
 * wherever a port was free), the same port elsewhere. No credentials in it, no fragment
 * (RFC 6749 §3.1.2), and no `code` or `state` of its own in its query.
 */
function allowedRedirect(key: DeveloperKeyRow, raw: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username || url.password || raw.includes('#')) return undefined;
  // The answer's own `code` and `state` are the only ones the client may find there: one the
  // redirect_uri brought would come first and be taken for the answer.
  if (url.searchParams.has('code') || url.searchParams.has('state')) return undefined;
  const allowed = (JSON.parse(key.redirect_uris) as string[]).some((entry) => {
    const a = new URL(entry);
    const loopback = a.hostname === '127.0.0.1' || a.hostname === 'localhost' || a.hostname === '[::1]';
    return (
      a.protocol === url.protocol &&
      a.hostname === url.hostname &&
      (loopback || a.port === url.port) &&
      url.pathname.startsWith(a.pathname)
    );
  });
  return allowed ? url : undefined;
}

/** Back to the client with the outcome, as query parameters of its redirect_uri. */
function redirectBack(a: Authorization, outcome: Record<string, string>): Reply {
  const query = new URLSearchParams(outcome);
  if (a.state !== undefined) query.set('state', a.state);
  const target = a.redirect.href;
  return new Reply(302, undefined, {
    location: `${target}${target.includes('?') ? '&' : '?'}${query}`,
    'cache-control': 'no-store',
  });
}

/**
 * What is wrong with the rest of the request, once the client may be told (RFC 6749 §4.1.2.1): the
 * response type, then the PKCE challenge, which must be an S256 one (RFC 7636 §4.4.1).
 */
function requestProblem(ctx: MockCtx): Record<string, string> | undefined {
  const responseType = str(ctx.params, 'response_type');
  if (ctx.route.id === 'oauth.authorize' || responseType !== undefined) {
    if (responseType !== 'code')
      return { error: 'unsupported_response_type', error_description: 'Only response_type=code is permitted' };
  }
  const challenge = str(ctx.params, 'code_challenge');
  const method = str(ctx.params, 'code_challenge_method');
  if (challenge === undefined || challenge === '')
    return { error: 'invalid_request', error_description: 'code_challenge is required (PKCE, RFC 7636)' };
  if (method !== 'S256') return { error: 'invalid_request', error_description: 'code_challenge_method must be S256' };
  // An S256 challenge is the base64url of a SHA-256: 43 characters, no padding.
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return { error: 'invalid_request', error_description: 'code_challenge is not an S256 challenge' };
  return undefined;
}

const authorize: Handler = (ctx) => {
  const a = authorization(ctx);
  const problem = requestProblem(ctx);
  if (problem) return redirectBack(a, problem);
  const fields: Record<string, string> = {
    client_id: str(ctx.params, 'client_id')!,
    response_type: 'code',
    redirect_uri: a.redirectUri,
    code_challenge: str(ctx.params, 'code_challenge')!,
    code_challenge_method: 'S256',
  };
  if (a.state !== undefined) fields.state = a.state;
  if (a.scope) fields.scope = a.scope;
  const html = consentPage({
    appName: a.key.name,
    instance: ctx.origin,
    redirectUri: a.redirectUri,
    scope: a.scope,
    fields,
  });
  return new Reply(200, html, { ...PAGE_HEADERS });
};

/**
 * The consent step, answered by the user a token names: the `Authorization: Bearer` header (what a
 * test sends) or the form's `access_token` field (what a person types on the consent page). Only a
 * person's own token signs them in here; a token this provider issued is not a login (on real
 * instances the page wants a session), else a stolen one-hour token would approve a grant whose
 * refresh token never expires. It is answered as no login at all.
 */
const confirm: Handler = (ctx) => {
  const token = bearerToken(ctx.req) ?? str(ctx.params, 'access_token');
  if (!token) throw unauthenticated();
  const user = tokenUser(ctx.db, token, ctx.now());
  if (!user) throw invalidToken();
  if (tokenOwner(ctx.db, token) === undefined) throw unauthenticated();
  const a = authorization(ctx);
  const problem = requestProblem(ctx);
  if (problem) return redirectBack(a, problem);
  if (bool(ctx.params, 'deny'))
    return redirectBack(a, { error: 'access_denied', error_description: 'the user denied the request' });
  if (!bool(ctx.params, 'approve'))
    throw new HttpError(400, { errors: [{ message: 'approve=1 or deny=1 is required' }] });
  const code = crypto().randomBytes(64).toString('hex');
  const now = ctx.now();
  addCode(ctx.db, {
    code,
    key: a.key.id,
    user: user.id,
    redirectUri: a.redirectUri,
    challenge: str(ctx.params, 'code_challenge')!,
    scopes: a.scope,
    expiresAt: new Date(Date.parse(now) + CODE_MS).toISOString(),
    now,
  });
  return redirectBack(a, { code });
};

// ---- the token endpoint -----------------------------------------------------------------------

/** RFC 6749 §5.1: no cache keeps a token answer (nor, here, a refusal). */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/**
 * A refusal of the token endpoint (RFC 6749 §5.2), returned rather than thrown: a thrown error rolls
 * the request's transaction back, and some refusals must keep what they did (a reused code's grant
 * revoked, a code spent by a wrong verifier).
 */
function refusal(error: string, description: string, status = 400): Reply {
  return new Reply(
    status,
    { error, error_description: description },
    { ...NO_STORE, ...(status === 401 ? { 'www-authenticate': 'Canvas OAuth 2.0' } : {}) },
  );
}

/** The client's credentials: the form's client_id and client_secret, or HTTP Basic (RFC 6749 §2.3.1). */
function clientCredentials(ctx: MockCtx): { id: string | undefined; secret: string | undefined } {
  let basic: [string, string] | undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headerOf(ctx.req, 'authorization') ?? '');
  if (m) {
    const text = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon >= 0) basic = [text.slice(0, colon), text.slice(colon + 1)];
  }
  return { id: str(ctx.params, 'client_id') || basic?.[0], secret: str(ctx.params, 'client_secret') || basic?.[1] };
}

function sameSecret(a: string, b: string): boolean {
  return crypto().timingSafeEqual(Buffer.from(digest(a), 'hex'), Buffer.from(digest(b), 'hex'));
}

function tokenAnswer(user: UserRow, accessToken: string, refreshToken?: string): Reply {
  return new Reply(
    200,
    {
      access_token: accessToken,
      token_type: 'Bearer',
      user: { id: user.id, name: user.name, global_id: globalIdOf(user.id), effective_locale: user.locale ?? 'en' },
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      expires_in: ACCESS_TOKEN_SECONDS,
    },
    { ...NO_STORE },
  );
}

/** `1~` and 64 random characters, as real instances' tokens look. */
const newToken = () => `1~${crypto().randomBytes(48).toString('base64url')}`;
const expiry = (now: string) => new Date(Date.parse(now) + ACCESS_TOKEN_SECONDS * 1000).toISOString();

const token: Handler = (ctx) => {
  const p = ctx.params;
  // A request with a code and no grant type is taken for the code grant, as real instances take it.
  const grantType = str(p, 'grant_type') ?? (str(p, 'code') !== undefined ? 'authorization_code' : undefined);
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    return refusal('unsupported_grant_type', 'The grant_type you requested is not currently supported');
  }
  const client = clientCredentials(ctx);
  const key = client.id ? developerKeyByClientId(ctx.db, client.id) : undefined;
  if (!key) return refusal('invalid_client', 'unknown client', 401);
  // A confidential key proves itself with its secret, and is refused without it, before its code or
  // refresh token is looked at (so a client that first tries without one may try again). A public
  // key has none to prove (RFC 6749 §2.1): its codes are bound to a PKCE verifier, and its refresh
  // tokens to it. A secret it sends anyway proves nothing and is not read.
  if (key.api_key !== null) {
    if (!client.secret)
      return refusal('invalid_client', 'client_secret is required: this developer key is a confidential client', 401);
    if (!sameSecret(client.secret, key.api_key)) return refusal('invalid_client', 'invalid client', 401);
  }
  return grantType === 'authorization_code' ? codeGrant(ctx, key) : refreshGrant(ctx, key);
};

function codeGrant(ctx: MockCtx, key: DeveloperKeyRow): Reply {
  const p = ctx.params;
  const now = ctx.now();
  const code = str(p, 'code');
  if (!code)
    return refusal(
      'invalid_request',
      'You must provide the code parameter when using the authorization_code grant type',
    );
  const grant = codeByValue(ctx.db, code);
  if (!grant) return refusal('invalid_grant', 'authorization_code not found');
  if (grant.used_at !== null) {
    // Someone has this code who should not: what it was exchanged for is theirs too, so it goes.
    if (grant.token_id !== null) revokeToken(ctx.db, grant.token_id, now);
    return refusal('invalid_grant', 'authorization_code has already been used');
  }
  if (Date.parse(grant.expires_at) <= Date.parse(now))
    return refusal('invalid_grant', 'authorization_code has expired');
  if (grant.developer_key_id !== key.id) return refusal('invalid_grant', 'incorrect client');
  const redirectUri = str(p, 'redirect_uri');
  if (!redirectUri) return refusal('invalid_request', 'redirect_uri is required: the one the code was issued for');
  if (redirectUri !== grant.redirect_uri)
    return refusal('invalid_grant', 'redirect_uri does not match the one the code was issued for');
  // A code issued for a redirect_uri the key does not allow now (one that brought its own `code`, say) buys nothing.
  if (!allowedRedirect(key, redirectUri))
    return refusal('invalid_grant', 'redirect_uri does not match client settings');
  const verifier = str(p, 'code_verifier');
  if (!verifier)
    return refusal('invalid_request', 'code_verifier is required: the code was issued for a code_challenge');
  // RFC 7636 §4.1: 43 to 128 unreserved characters. A shorter one is a client's bug, told as such.
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
    return refusal(
      'invalid_request',
      'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636 §4.1)',
    );
  if (!sameSecret(crypto().createHash('sha256').update(verifier, 'utf8').digest('base64url'), grant.code_challenge)) {
    // One guess per code, as real instances give (they drop the challenge at the first try).
    spendCode(ctx.db, code, now, null);
    return refusal('invalid_grant', 'code_verifier does not match the code_challenge');
  }
  const user = activeUser(ctx.db, grant.user_id);
  if (!user) {
    spendCode(ctx.db, code, now, null);
    return refusal('invalid_grant', 'the user who approved the request no longer exists');
  }
  const accessToken = newToken();
  const refreshToken = newToken();
  const id = addOAuthToken(ctx.db, {
    key: key.id,
    user: user.id,
    token: accessToken,
    refreshToken,
    scopes: grant.scopes,
    expiresAt: expiry(now),
    now,
  });
  spendCode(ctx.db, code, now, id);
  return tokenAnswer(user, accessToken, refreshToken);
}

/**
 * A new access token for a refresh token, which stays as it is (real instances give a confidential
 * client no new one) and keeps working until revoked. The access token it replaces stops working,
 * expired or not: real instances issue the new one in its place.
 */
function refreshGrant(ctx: MockCtx, key: DeveloperKeyRow): Reply {
  const now = ctx.now();
  const refreshToken = str(ctx.params, 'refresh_token');
  if (!refreshToken)
    return refusal(
      'invalid_request',
      'You must provide the refresh_token parameter when using the refresh_token grant type',
    );
  const grant = tokenByRefreshToken(ctx.db, refreshToken);
  if (!grant) return refusal('invalid_grant', 'refresh_token not found');
  if (grant.developer_key_id !== key.id) return refusal('invalid_grant', 'incorrect client');
  const user = activeUser(ctx.db, grant.user_id);
  if (!user) return refusal('invalid_grant', 'the user of this refresh_token no longer exists');
  const accessToken = newToken();
  replaceAccessToken(ctx.db, grant.id, accessToken, expiry(now), now);
  return tokenAnswer(user, accessToken);
}

/**
 * Logging out: the access token the request is made with, and its refresh token, stop working. A
 * seeded token is no OAuth grant and stays (real instances would delete a personal token here; the
 * mock's are the fixtures `lms mock tokens` lists and `--mock` mode signs with).
 */
const revoke: Handler = (ctx) => {
  const token = bearerToken(ctx.req) ?? ctx.url.searchParams.get('access_token') ?? '';
  const grant = tokenByAccessToken(ctx.db, token);
  if (!grant)
    throw new HttpError(400, { message: "can't delete OAuth access token when not using an OAuth access token" });
  revokeToken(ctx.db, grant.id, ctx.now());
  return {};
};

export const oauthHandlers: Partial<Record<OperationId, Handler>> = {
  'oauth.authorize': authorize,
  'oauth.confirm': confirm,
  'oauth.token': token,
  'oauth.revoke': revoke,
};

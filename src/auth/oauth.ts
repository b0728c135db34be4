// The OAuth2 endpoints of a Canvas-style instance, as a client speaks to them: the authorization URL
// a browser opens, the token endpoint (an authorization code for tokens, a refresh token for a new
// access token) and revocation. Requests go through an ApiClient, so they are encoded, traced and
// timed as every other request; the secrets they carry travel in form bodies, which no trace shows.
// Errors are RFC 6749 §5.2 answers (`{error, error_description}`), turned into this tool's errors.
import type { ApiClient } from '../client/client.js';
import type { TokenParams } from '../spec/types/oauth.js';
import { ApiError, ExitCode, LmsError, UsageError } from '../errors.js';
import { isLoopbackHost } from '../net.js';
import { redactText } from '../redact.js';
import { pathOf, route } from '../spec/routes.js';

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
}

/** The URL the browser opens: the instance's consent page for this developer key. */
export function authorizeUrl(baseUrl: string, request: AuthorizeRequest): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${pathOf('oauth.authorize', {})}`);
  url.search = new URLSearchParams({
    client_id: request.clientId,
    response_type: 'code',
    redirect_uri: request.redirectUri,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** What the token endpoint granted, with the expiry made a time by this machine's clock. */
export interface Grant {
  access_token: string;
  refresh_token?: string;
  expires_at?: string;
  user?: { id: number | string; name: string };
}

/** An answer of the token endpoint that refused: `error` is the RFC 6749 code. */
export class OAuthError extends LmsError {
  readonly code: string;
  readonly status: number;
  /**
   * invalid_client because the instance has no such client (or none it lets log in here), not
   * because the client failed to prove itself: canvas-lms answers an unknown or unusable developer
   * key "unknown client", a secret missing or wrong "invalid client".
   */
  unknownClient = false;

  constructor(message: string, code: string, status: number, hint?: string) {
    // A refused grant or client is about who may log in; anything else is a request the server rejected.
    super(message, REFUSALS.has(code) || status === 401 ? ExitCode.auth : ExitCode.rejected, {
      hint,
      details: { oauth_error: code, status },
    });
    this.code = code;
    this.status = status;
  }
}

const REFUSALS = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client', 'access_denied']);

/**
 * The client secret and refresh token travel in the body: over plain http to a host other than this
 * machine, anyone on the way could read them, as they could a token in a header.
 */
export function checkTokenTransport(baseUrl: string, insecure: boolean): void {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the client's credentials and tokens over plain http to ${url.host}`, {
      hint: 'use an https:// URL; if you really mean it, pass --insecure',
    });
  }
}

export interface CodeExchange {
  clientId: string;
  /** A confidential key's secret; none for a public key, whose proof is the PKCE verifier. */
  clientSecret?: string;
  redirectUri: string;
  code: string;
  codeVerifier: string;
}

/** The authorization code for tokens (grant_type=authorization_code, with the PKCE verifier). */
export function exchangeCode(client: ApiClient, request: CodeExchange, now: number): Promise<Grant> {
  const body: TokenParams = {
    grant_type: 'authorization_code',
    client_id: request.clientId,
    ...(request.clientSecret !== undefined ? { client_secret: request.clientSecret } : {}),
    redirect_uri: request.redirectUri,
    code: request.code,
    code_verifier: request.codeVerifier,
  };
  return grant(client, body, now, [request.clientSecret, request.code, request.codeVerifier], 'the authorization code');
}

export interface Refresh {
  clientId: string;
  /** None for a public key: its refresh token is bound to it. */
  clientSecret?: string;
  refreshToken: string;
}

/** A new access token for the refresh token (grant_type=refresh_token); the refresh token stays. */
export function refreshAccessToken(client: ApiClient, request: Refresh, now: number): Promise<Grant> {
  const body: TokenParams = {
    grant_type: 'refresh_token',
    client_id: request.clientId,
    ...(request.clientSecret !== undefined ? { client_secret: request.clientSecret } : {}),
    refresh_token: request.refreshToken,
  };
  return grant(client, body, now, [request.clientSecret, request.refreshToken], 'the refresh token');
}

/** Revokes the access token the client sends (and, on real instances, its refresh token with it). */
export async function revokeToken(client: ApiClient): Promise<void> {
  await client.ops.oauth.revoke({});
}

/** `client` sends no token: the token endpoint knows the developer key from the form. */
async function grant(
  client: ApiClient,
  body: TokenParams,
  now: number,
  given: (string | undefined)[],
  what: string,
): Promise<Grant> {
  const host = new URL(client.baseUrl).host;
  const secrets = given.filter((s): s is string => s !== undefined);
  let answer: unknown;
  try {
    answer = await client.ops.oauth.token(body);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 401))
      throw refusal(error, host, what, secrets, {
        clientId: body.client_id,
        withSecret: body.client_secret !== undefined,
      });
    throw error;
  }
  const record = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  if (typeof record.access_token !== 'string' || record.access_token === '') {
    throw new LmsError(`${host} answered ${route('oauth.token').path} without an access token`, ExitCode.failure, {
      hint: "is the URL the instance's address?",
    });
  }
  if (typeof record.token_type === 'string' && record.token_type.toLowerCase() !== 'bearer') {
    throw new LmsError(
      `${host} granted a "${record.token_type}" token; lms sends bearer tokens only`,
      ExitCode.failure,
    );
  }
  const expiresIn = typeof record.expires_in === 'number' ? record.expires_in : Number(record.expires_in);
  const user = record.user as { id?: unknown; name?: unknown } | undefined;
  return {
    access_token: record.access_token,
    ...(typeof record.refresh_token === 'string' && record.refresh_token
      ? { refresh_token: record.refresh_token }
      : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0
      ? { expires_at: new Date(now + expiresIn * 1000).toISOString() }
      : {}),
    ...(user && (typeof user.id === 'number' || typeof user.id === 'string')
      ? { user: { id: user.id, name: typeof user.name === 'string' && user.name ? user.name : `user ${user.id}` } }
      : {}),
  };
}

function refusal(
  error: ApiError,
  host: string,
  what: string,
  secrets: string[],
  client: { clientId: string; withSecret: boolean },
): OAuthError {
  const body = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as Record<string, unknown>;
  const code =
    typeof body.error === 'string' ? body.error : error.status === 401 ? 'invalid_client' : 'invalid_request';
  const description =
    typeof body.error_description === 'string' ? `: ${redactText(body.error_description, secrets).slice(0, 300)}` : '';
  const detail = `${code}${description}`;
  if (code === 'invalid_client') {
    if (/\bunknown client\b/i.test(description)) {
      const refused = new OAuthError(
        `${host} does not know client id ${client.clientId}, or does not let it log in on this instance (${detail})`,
        code,
        error.status,
        'check --client-id: it is the ID of a developer key of this instance (Admin > Developer Keys), a number ' +
          'such as 170000000000123, and the key must be on; a key of another instance is not known here',
      );
      refused.unknownClient = true;
      return refused;
    }
    return client.withSecret
      ? new OAuthError(
          `${host} did not accept the client id and secret (${detail})`,
          code,
          error.status,
          'check --client-id and the client secret of the developer key',
        )
      : new OAuthError(
          `${host} did not accept the client id without a secret (${detail})`,
          code,
          error.status,
          'check --client-id; a confidential developer key also needs its client secret',
        );
  }
  return new OAuthError(`${host} refused ${what} (${detail})`, code, error.status);
}

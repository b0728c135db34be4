// A stand-in instance for the client side of OAuth2, on node:http: the token endpoint (both grants,
// PKCE S256 checked), revocation, and GET /api/v1/users/self, which refuses an expired or revoked
// token as real instances do (401 with WWW-Authenticate). The test plays the browser: it reads the
// authorization URL the command prints, then calls the redirect URI itself.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT_ID = '170000000000042';
export const CLIENT_SECRET = 'fake-client-secret';

interface Issued {
  refresh: string;
  expired: boolean;
  revoked: boolean;
}

export interface FakeInstance {
  url: string;
  /** Requests to the token endpoint, by grant (`revoke` for DELETE). */
  grants: string[];
  /** Access tokens issued, in order. */
  issued: string[];
  /** Seconds each new access token lives (the answer's expires_in). */
  expiresIn: number;
  /** Makes every access token issued so far refused as expired. */
  expireAll(): void;
  /** Refuses the refresh tokens issued so far (invalid_grant). */
  revokeRefresh(): void;
  /** Every Authorization header users/self saw. */
  bearers: string[];
  /** users/self refuses every token, as an API that does not accept the tokens its login issues. */
  refuseApi: boolean;
  /** Reads the authorization URL the command printed, as the consent page would. */
  authorize(address: string): { redirectUri: string; state: string };
  /** Approves the request last passed to `authorize`: the code the browser is redirected with. */
  approve(): string;
  close(): Promise<void>;
}

const b64url = (b: Buffer) => b.toString('base64url');

export async function fakeInstance(): Promise<FakeInstance> {
  const access = new Map<string, Issued>();
  const refreshes = new Map<string, boolean>();
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  let pending: { challenge: string; redirectUri: string } | undefined;
  const issue = (refresh?: string) => {
    const token = `acc-${b64url(randomBytes(12))}`;
    const refreshToken = refresh ?? `ref-${b64url(randomBytes(12))}`;
    access.set(token, { refresh: refreshToken, expired: false, revoked: false });
    refreshes.set(refreshToken, true);
    fake.issued.push(token);
    return {
      access_token: token,
      token_type: 'Bearer',
      user: { id: 10000000000007, name: 'Sam Student' },
      refresh_token: refreshToken,
      expires_in: fake.expiresIn,
    };
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const refused = () =>
      send(
        401,
        { errors: [{ message: 'Invalid access token.' }] },
        { 'www-authenticate': 'Bearer realm="canvas-lms"' },
      );
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (url.pathname === '/login/oauth2/token' && req.method === 'POST') {
      const form = new URLSearchParams(await text(req));
      fake.grants.push(form.get('grant_type') ?? '?');
      // As canvas-lms answers: a key it does not have is unknown; a secret missing or wrong, invalid.
      if (form.get('client_id') !== CLIENT_ID)
        return send(401, { error: 'invalid_client', error_description: 'unknown client' });
      if (form.get('client_secret') !== CLIENT_SECRET)
        return send(401, { error: 'invalid_client', error_description: 'invalid client' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.redirectUri !== form.get('redirect_uri'))
          return send(400, { error: 'invalid_grant', error_description: 'bad code' });
        const challenge = b64url(
          createHash('sha256')
            .update(form.get('code_verifier') ?? '')
            .digest(),
        );
        if (challenge !== code.challenge)
          return send(400, { error: 'invalid_grant', error_description: 'bad verifier' });
        return send(200, issue());
      }
      if (form.get('grant_type') === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        if (!refreshes.get(refresh))
          return send(400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
        const { refresh_token: _kept, ...answer } = issue(refresh);
        return send(200, answer);
      }
      return send(400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname === '/login/oauth2/token' && req.method === 'DELETE') {
      fake.grants.push('revoke');
      const issued = access.get(bearer);
      if (!issued || issued.expired || issued.revoked) return refused();
      issued.revoked = true;
      refreshes.set(issued.refresh, false);
      return send(200, {});
    }
    if (url.pathname === '/api/v1/users/self') {
      fake.bearers.push(bearer);
      const issued = access.get(bearer);
      if (!issued || issued.expired || issued.revoked || fake.refuseApi) return refused();
      return send(200, { id: 7, name: 'Sam Student' });
    }
    send(404, { errors: [{ message: 'The specified resource does not exist.' }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeInstance = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    grants: [],
    issued: [],
    bearers: [],
    refuseApi: false,
    expiresIn: 3600,
    expireAll() {
      for (const issued of access.values()) issued.expired = true;
    },
    revokeRefresh() {
      for (const key of refreshes.keys()) refreshes.set(key, false);
    },
    authorize(address) {
      const params = new URL(address).searchParams;
      if (
        params.get('code_challenge_method') !== 'S256' ||
        params.get('client_id') !== CLIENT_ID ||
        params.get('response_type') !== 'code'
      )
        throw new Error(`not an S256 authorization request: ${address}`);
      pending = { challenge: params.get('code_challenge')!, redirectUri: params.get('redirect_uri')! };
      return { redirectUri: pending.redirectUri, state: params.get('state')! };
    },
    approve() {
      const code = `code-${b64url(randomBytes(9))}`;
      codes.set(code, pending!);
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

function text(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
  });
}

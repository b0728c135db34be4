// The pieces of a login that face the outside: the redirect listener (one redirect, on loopback,
// with this login's state, within the time given), PKCE, and which command opens a browser.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { openerFor } from '../../src/auth/browser.js';
import { listenForRedirect } from '../../src/auth/loopback.js';
import { challengeOf, createPkce, createState } from '../../src/auth/pkce.js';
import { ExitCode, LmsError, NetworkError } from '../../src/errors.js';

/** A GET with the Host header of our choosing (fetch will not let a page set it, nor does it here). */
function get(url: string, host?: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        headers: host ? { host } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the redirect listener', () => {
  it('listens on 127.0.0.1, takes the one redirect with its state, and then no more', async () => {
    const state = createState();
    const listener = await listenForRedirect({ state, timeoutMs: 10_000, host: 'lms.example.edu' });
    const { hostname, port, pathname } = new URL(listener.redirectUri);
    expect([hostname, pathname]).toEqual(['127.0.0.1', '/callback']);
    // What a browser asks besides the redirect, or a page rebinding a DNS name to this machine, is ignored.
    expect((await get(`http://127.0.0.1:${port}/favicon.ico`)).status).toBe(404);
    expect((await get(`${listener.redirectUri}?code=stolen&state=${state}`, `evil.example:${port}`)).status).toBe(404);
    const answered = get(`${listener.redirectUri}?code=the-code&state=${state}`);
    await expect(listener.code).resolves.toBe('the-code');
    // The browser waits for how the login ended, and is told in words, never as markup.
    listener.finish({ ok: true, message: 'Logged in as <Sam>.' });
    const answer = await answered;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Logged in as &#60;Sam&#62;.');
    expect(answer.body).not.toContain('the-code');
    // The listener is gone: a second redirect finds nothing to talk to.
    await expect(get(`${listener.redirectUri}?code=again&state=${state}`)).rejects.toThrow(
      /ECONNREFUSED|socket hang up|ECONNRESET/,
    );
  });

  it('tells the browser that brought the code of a login that then failed, or was stopped', async () => {
    for (const end of ['finish', 'close'] as const) {
      const state = createState();
      const listener = await listenForRedirect({ state, timeoutMs: 10_000, host: 'lms.example.edu' });
      const answered = get(`${listener.redirectUri}?code=the-code&state=${state}`);
      await listener.code;
      if (end === 'finish') listener.finish({ ok: false, message: 'The login did not finish: the token was refused.' });
      else listener.close();
      const answer = await answered;
      expect(answer.status).toBe(500);
      expect(answer.body).not.toContain('Logged in');
      expect(answer.body).toContain(end === 'finish' ? 'the token was refused' : 'The login did not finish');
    }
  });

  it('refuses a redirect with another state, and ends the login', async () => {
    const listener = await listenForRedirect({ state: createState(), timeoutMs: 10_000, host: 'lms.example.edu' });
    const answer = await get(`${listener.redirectUri}?code=forged-code&state=not-ours`);
    expect(answer.status).toBe(400);
    const error = await listener.code.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LmsError);
    expect((error as LmsError).exitCode).toBe(ExitCode.auth);
    expect((error as LmsError).message).toMatch(/did not carry the state this login sent/);
    expect(String((error as LmsError).message)).not.toContain('forged-code');
    await expect(get(`${listener.redirectUri}?code=x&state=y`)).rejects.toThrow();
  });

  it('reports a refusal at the consent page (access_denied) as an auth error', async () => {
    const state = createState();
    const listener = await listenForRedirect({ state, timeoutMs: 10_000, host: 'lms.example.edu' });
    await get(`${listener.redirectUri}?error=access_denied&error_description=the+user+said+no&state=${state}`);
    await expect(listener.code).rejects.toMatchObject({
      exitCode: ExitCode.auth,
      message: 'lms.example.edu was not given access (access_denied: the user said no); nothing was saved',
    });
  });

  it('gives up after the timeout, as a timeout (exit 7)', async () => {
    const listener = await listenForRedirect({ state: createState(), timeoutMs: 200, host: 'lms.example.edu' });
    const error = await listener.code.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.network);
    expect((error as NetworkError).message).toBe('no redirect from the browser within 0 s; nothing was saved');
    await expect(get(listener.redirectUri)).rejects.toThrow();
  });
});

describe('PKCE', () => {
  it('derives the S256 challenge as RFC 7636 appendix B does', () => {
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh 43-character verifier and state each time', () => {
    const [a, b] = [createPkce(), createPkce()];
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(challengeOf(a.verifier));
    expect(createState()).not.toBe(createState());
  });
});

describe('opening a browser', () => {
  const url = 'https://lms.example.edu/login/oauth2/auth?a=1&b=2';
  it.each<[string, NodeJS.ProcessEnv, NodeJS.Platform, string[] | undefined]>([
    ['$BROWSER first', { BROWSER: 'firefox:chromium', DISPLAY: ':0' }, 'linux', ['firefox', url]],
    ['$BROWSER with %s', { BROWSER: 'w3m -o x %s' }, 'linux', ['w3m', '-o', 'x', url]],
    ['xdg-open under X', { DISPLAY: ':0' }, 'linux', ['xdg-open', url]],
    ['xdg-open under Wayland', { WAYLAND_DISPLAY: 'wayland-0' }, 'linux', ['xdg-open', url]],
    ['nothing without a display (ssh, CI)', {}, 'linux', undefined],
    ['open on macOS', {}, 'darwin', ['open', url]],
    [
      'the URL handler on Windows, where cmd would split the URL at &',
      {},
      'win32',
      ['rundll32', 'url.dll,FileProtocolHandler', url],
    ],
  ])('%s', (_what, env, platform, expected) => {
    expect(openerFor(url, env, platform)).toEqual(expected);
  });
});

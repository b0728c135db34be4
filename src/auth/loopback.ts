// The redirect target of a login: an HTTP listener on 127.0.0.1, on a port the system picks, for
// one redirect. The first GET of the callback path settles the login either way (its code, or why
// not), then the listener closes; anything else (a favicon, a request naming another host, as a page
// rebinding a DNS name to this machine would) is answered and ignored. The state is checked before
// anything else is read, and the code is handed to the caller, never written anywhere.
//
// A redirect with a code is not yet a login: the code may not exchange, the token may be refused.
// The browser's page waits for the caller to say how the login ended (finish), so it never says
// "Logged in" of a login that then fails.
import * as http from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExitCode, LmsError, NetworkError } from '../errors.js';
import { isLoopbackHost } from '../net.js';

const CALLBACK_PATH = '/callback';

export interface LoopbackOptions {
  /** The state the authorization request carried; a redirect with another is refused. */
  state: string;
  timeoutMs: number;
  /** The instance's host, for messages. */
  host: string;
}

export interface Loopback {
  redirectUri: string;
  /** The authorization code of the one redirect; rejects on a refusal, a wrong state or the timeout. */
  code: Promise<string>;
  /** Answers the browser that brought the code with how the login ended, in plain text. */
  finish(outcome: { ok: boolean; message: string }): void;
  /** Stops listening; a browser still waiting is told the login did not finish. */
  close(): void;
}

const UNFINISHED = 'The login did not finish. The terminal says why.';

export async function listenForRedirect(options: LoopbackOptions): Promise<Loopback> {
  let settle: { resolve(code: string): void; reject(error: Error): void };
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Settled by whoever comes first; the listener is of no use after that.
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  /** The browser that brought the code, waiting to be told how the login ended. */
  let waiting: ServerResponse | undefined;
  const server: Server = http.createServer((req, res) => {
    if (done) return void answer(res, 410, 'This login has already ended.');
    const outcome = handle(req, server, options);
    if (!outcome) return void answer(res, 404, 'Not found.');
    done = true;
    if (timer) clearTimeout(timer);
    if (outcome.ok) {
      waiting = res;
      settle.resolve(outcome.code);
    } else {
      answer(res, 400, outcome.page, () => close());
      settle.reject(outcome.error);
    }
  });
  const shutDown = () => {
    if (timer) clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  const finish = ({ ok, message }: { ok: boolean; message: string }) => {
    const res = waiting;
    waiting = undefined;
    if (res) answer(res, ok ? 200 : 500, escapeHtml(message), shutDown);
    else shutDown();
  };
  const close = () => finish({ ok: false, message: UNFINISHED });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  timer = setTimeout(() => {
    if (done) return;
    done = true;
    close();
    const seconds = Math.round(options.timeoutMs / 1000);
    settle.reject(
      new NetworkError(`no redirect from the browser within ${seconds} s; nothing was saved`, {
        code: 'ETIMEDOUT',
        hint: 'run the command again, and pass --timeout SECONDS to wait longer',
      }),
    );
  }, options.timeoutMs);
  // A rejection nobody awaits yet (the browser is still opening) is not an unhandled one.
  code.catch(() => undefined);
  return { redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`, code, finish, close };
}

type Outcome = { ok: true; code: string } | { ok: false; error: LmsError; page: string };

function handle(req: IncomingMessage, server: Server, { state, host }: LoopbackOptions): Outcome | undefined {
  const { port } = server.address() as AddressInfo;
  const remote = req.socket.remoteAddress ?? '';
  const fromHere = isLoopbackHost(remote) || remote === '::ffff:127.0.0.1';
  // The redirect names 127.0.0.1:PORT: a browser sends exactly that Host.
  if (!fromHere || req.method !== 'GET' || req.headers.host !== `127.0.0.1:${port}`) return undefined;
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (url.pathname !== CALLBACK_PATH) return undefined;
  const params = url.searchParams;
  if (params.get('state') !== state) {
    const error = new LmsError(
      'the redirect to this machine did not carry the state this login sent: it was not the answer to this login, ' +
        'and nothing was saved',
      ExitCode.auth,
      {
        hint: 'run the command again; if it happens again, something other than your browser is calling this machine',
      },
    );
    return { ok: false, error, page: 'This redirect does not belong to the login in progress; it was refused.' };
  }
  const refused = params.get('error');
  if (refused !== null) {
    const description = params.get('error_description');
    const detail = `${refused.slice(0, 64)}${description ? `: ${description.slice(0, 200)}` : ''}`;
    const denied = refused === 'access_denied';
    const error = new LmsError(
      `${host} ${denied ? 'was not given access' : 'refused the authorization'} (${detail}); nothing was saved`,
      ExitCode.auth,
      {
        hint: denied
          ? 'run the command again and approve the access on the page it opens'
          : 'check --client-id, and that the developer key allows this redirect URI',
      },
    );
    return { ok: false, error, page: 'The login was not approved. You can close this window.' };
  }
  const code = params.get('code');
  if (!code) {
    return {
      ok: false,
      error: new LmsError(`${host} redirected without an authorization code; nothing was saved`, ExitCode.auth),
      page: 'The redirect carried no authorization code.',
    };
  }
  return { ok: true, code };
}

/** Text from a server or a person (a user's name, an error) as HTML shows it, never as markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function answer(res: ServerResponse, status: number, message: string, then?: () => void): void {
  const page = `<!doctype html><meta charset="utf-8"><title>lms</title><p>${message}</p>\n`;
  // The redirect URL carries the code: it must not follow the user anywhere, not even as a referrer.
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(page, then);
}

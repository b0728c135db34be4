// End to end: the built binary against instances and proxies on loopback that answer what a real
// one never should (a redirected write, a loop, a 304, a 204 or a login page where JSON is due, an
// endless or bottomless body, 200,000 error messages) or that trickle, or say nothing. Each ends
// with the exit code and message the issue asks for, never a success, a hang or an internal error.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-hostile-answers');
const TOKEN = '7~hostile-answers-token';
const servers: (Server | TcpServer)[] = [];
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

beforeAll(ensureBuilt);
afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
  for (const s of sockets.splice(0)) s.destroy();
});
afterAll(async () => {
  for (const s of servers) {
    if ('closeAllConnections' in s) s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

interface Instance {
  url: string;
  /** `METHOD path` of every request it was sent. */
  seen: string[];
}

async function instance(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Instance> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function rawListener(onSocket: (socket: Socket) => void): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    sockets.push(socket);
    socket.on('error', () => {});
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** The CLI, bounded: a hang is a failure, never a test that waits for ever. */
function lms(args: string[], extra: Record<string, string>) {
  return execa(process.execPath, [bin, ...args, '-o', 'json'], {
    env: { ...env, LMS_TOKEN: TOKEN, ...extra },
    reject: false,
    timeout: 60_000,
    extendEnv: true,
  });
}

const errorOf = (stderr: string) =>
  JSON.parse(stderr.trim().split('\n').at(-1)!) as { message: string; hint?: string; exit_code: number; error: string };
const create = (base: string, extra: Record<string, string> = {}) =>
  lms(['users', 'create', '--account', '1', '--login-id', 'jdoe', '--name', 'Jane Doe'], {
    LMS_BASE_URL: base,
    ...extra,
  });
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('a write is done only when the instance says so', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i to a POST: exit 1, naming the status and the Location, nothing written, where to point the profile',
    async (status) => {
      const api = await instance((_req, res) =>
        res.writeHead(status, { location: 'https://lms.example.edu/api/v1/accounts/1/users' }).end(),
      );
      const r = await create(api.url);
      expect(r.timedOut).toBe(false);
      expect(r.exitCode, r.stderr).toBe(1);
      const error = errorOf(r.stderr);
      expect(error.message).toBe(
        `POST ${api.url}/api/v1/accounts/1/users: the instance redirected the write (${status}) to ` +
          'https://lms.example.edu/[REDACTED], and a write is not sent on; nothing was written',
      );
      expect(error.hint).toBe(
        "set the profile's URL (or LMS_BASE_URL) to https://lms.example.edu, where the instance says it is",
      );
      expect(r.stdout).toBe('');
      expect(api.seen).toEqual(['POST /api/v1/accounts/1/users']);
    },
  );

  it('a PUT sent to a login page on the same origin: exit 1, nothing written', async () => {
    const api = await instance((_req, res) => res.writeHead(302, { location: '/login/saml' }).end());
    const r = await lms(['users', 'update', '5', '--name', 'Jane'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(errorOf(r.stderr).message).toBe(
      `PUT ${api.url}/api/v1/users/5: the instance redirected the write (302) to ${api.url}/login/saml, and a write ` +
        'is not sent on; nothing was written',
    );
    expect(api.seen).toEqual(['PUT /api/v1/users/5']);
  });

  it('a 204 where the API returns the user: exit 1, not an empty success', async () => {
    const api = await instance((_req, res) => res.writeHead(204).end());
    const r = await lms(['users', 'update', '5', '--name', 'Jane'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(errorOf(r.stderr).message).toBe(
      `PUT ${api.url}/api/v1/users/5: the instance answered 204 with no body, where the API returns one; lms cannot ` +
        'tell whether it was written: check before running it again',
    );
  });

  it('an HTML 200 (a login page) to a listing: exit 1, naming what came back', async () => {
    const api = await instance((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><form action="/login">Sign in</form>'),
    );
    const r = await lms(['users', 'list', '--account', '1'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(errorOf(r.stderr).message).toBe(
      `GET ${api.url}/api/v1/accounts/1/users?per_page=100: the instance answered 200 with text/html that is not ` +
        'JSON, where the API returns JSON; nothing was read',
    );
    expect(r.stdout).toBe('');
  });
});

describe('reads follow redirects on their own origin, a few times, never in a circle', () => {
  it('a redirect loop: exit 1 at the first URL asked for again', async () => {
    const api = await instance((req, res) =>
      res.writeHead(302, { location: req.url === '/api/v1/users/5' ? '/api/v1/users/five' : '/api/v1/users/5' }).end(),
    );
    const r = await lms(['users', 'get', '5'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(errorOf(r.stderr).message).toBe(
      `GET ${api.url}/api/v1/users/five: the instance redirected it (302) to ${api.url}/api/v1/users/5, a URL ` +
        'already asked for: a redirect loop; nothing was read',
    );
    expect(api.seen).toEqual(['GET /api/v1/users/5', 'GET /api/v1/users/five']);
  });

  it('a redirect to another origin: exit 1, and the other origin sees nothing, the token least of all', async () => {
    const other = await instance((_req, res) => json(res, 200, { id: 5 }));
    const api = await instance((_req, res) => res.writeHead(301, { location: `${other.url}/api/v1/users/5` }).end());
    const r = await lms(['users', 'get', '5'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(errorOf(r.stderr).message).toContain(
      `the instance redirected it (301) to ${other.url}/[REDACTED], another origin than ${api.url}`,
    );
    expect(other.seen).toEqual([]);
  });

  it('a 304: exit 1', async () => {
    const api = await instance((_req, res) => res.writeHead(304).end());
    const r = await lms(['users', 'get', '5'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(errorOf(r.stderr).message).toBe(
      `GET ${api.url}/api/v1/users/5: the instance answered 304 Not Modified to a request that asked for no cached ` +
        'copy; nothing was read',
    );
  });
});

describe('every answer is bounded', () => {
  it('a body that never ends: exit 1 naming the limit (LMS_MAX_BODY), asked once, not retried', async () => {
    const api = await instance((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const block = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(block));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const r = await lms(['users', 'list', '--account', '1'], { LMS_BASE_URL: api.url, LMS_MAX_BODY: '2M' });
    expect(r.exitCode, r.stderr).toBe(1);
    const error = errorOf(r.stderr);
    expect(error.message).toBe(
      `GET ${api.url}/api/v1/accounts/1/users?per_page=100: the instance's answer is larger than 2 MiB, the most ` +
        'lms reads of one answer; the rest was not read',
    );
    expect(error.hint).toContain('LMS_MAX_BODY');
    expect(api.seen).toHaveLength(1);
  });

  it('JSON nested 200,000 deep: exit 1 naming the limit, not an internal error', async () => {
    const api = await instance((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(200_000) + ']'.repeat(200_000)),
    );
    const r = await lms(['users', 'get', '5'], { LMS_BASE_URL: api.url });
    expect(r.exitCode, r.stderr).toBe(1);
    const error = errorOf(r.stderr);
    expect(error.error).toBe('TooDeepError');
    expect(error.message).toBe(
      "the instance's answer nests arrays and objects deeper than 512 levels, the most lms reads; it was not read",
    );
  });

  it('an error with 200,000 messages: its status, ten messages and a count of the rest', async () => {
    const api = await instance((_req, res) =>
      json(res, 422, { errors: Array.from({ length: 200_000 }, (_, i) => ({ message: `login ${i} is taken` })) }),
    );
    const r = await create(api.url);
    expect(r.exitCode, r.stderr).toBe(5);
    const { message } = errorOf(r.stderr);
    expect(message).toMatch(
      /^POST \/api\/v1\/accounts\/1\/users failed with 422: login 0 is taken; login 1 is taken; .*; login 9 is taken; and 199990 more$/,
    );
    expect(r.stderr.length).toBeLessThan(2000);
  });
});

/**
 * The tunnel's bound is what is left of --timeout once the request starts, and the try lasts until its timer
 * fires: on a loaded machine the process starts late and the timer fires late, so the one can show less than the
 * --timeout and the other more, as the message says truly. The bound may never exceed the --timeout, nor be none.
 */
function expectTunnelTimeout(message: string, port: number): void {
  const shape = new RegExp(
    `^the proxy http://127\\.0\\.0\\.1:${port} \\(from HTTPS_PROXY\\) ` +
      'did not open a tunnel within (\\d+(?:\\.\\d)?) s \\(one try over (\\d+(?:\\.\\d)?) s within --timeout 1\\)$',
  );
  const m = shape.exec(message);
  expect(message, 'the proxy named, the tunnel bound, one try, the --timeout given').toMatch(shape);
  const [bound, tried] = [Number(m![1]), Number(m![2])];
  expect(bound, 'the tunnel has what is left of --timeout 1').toBeGreaterThan(0);
  expect(bound, 'the tunnel has what is left of --timeout 1').toBeLessThanOrEqual(1);
  // Rounded to tenths each, the try can show a tenth less than the bound it waited out.
  expect(tried, 'the try waited out the tunnel bound').toBeGreaterThanOrEqual(bound - 0.1);
  expect(tried, 'the try ended at the deadline, not at a later one').toBeLessThan(5);
}

describe('one deadline from the first byte, through a proxy', () => {
  const https = (proxyPort: number) => ({
    LMS_BASE_URL: 'https://lms.example.edu',
    HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
  });

  it('a proxy that answers CONNECT a byte at a time: exit 7 within --timeout, naming the proxy', async () => {
    const proxy = await rawListener((socket) =>
      socket.once('data', () => {
        const answer = `HTTP/1.1 200 Connection established\r\nX-Padding: ${'a'.repeat(1_000_000)}`;
        let i = 0;
        const timer = setInterval(() => socket.destroyed || socket.write(answer[i++]), 20);
        timers.push(timer);
      }),
    );
    const r = await lms(['users', 'get', '5', '--timeout', '1'], https(proxy.port));
    expect(r.timedOut).toBe(false);
    expect(r.exitCode, r.stderr).toBe(7);
    expectTunnelTimeout(errorOf(r.stderr).message, proxy.port);
  });

  it('a proxy that accepts and never answers: exit 7 within --timeout, naming the proxy', async () => {
    const proxy = await rawListener(() => {
      /* silent */
    });
    const r = await lms(['users', 'get', '5', '--timeout', '1'], https(proxy.port));
    expect(r.timedOut).toBe(false);
    expect(r.exitCode, r.stderr).toBe(7);
    expectTunnelTimeout(errorOf(r.stderr).message, proxy.port);
    expect(proxy.connections()).toBeGreaterThan(0);
  });
});

describe('low items', () => {
  it(
    'the token over plain http through a proxy, to a loopback instance: exit 2 unless --insecure, the proxy sent ' +
      'nothing',
    async () => {
      const api = await instance((_req, res) => json(res, 200, { id: 5, name: 'Jane' }));
      const proxy = await rawListener((socket) => socket.destroy());
      const r = await lms(['users', 'get', '5'], {
        LMS_BASE_URL: api.url,
        HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
      });
      expect(r.exitCode, r.stderr).toBe(2);
      const error = errorOf(r.stderr);
      expect(error.message).toBe(
        `refusing to send the token over plain http through the proxy http://127.0.0.1:${proxy.port} (from ` +
          `HTTP_PROXY) to ${new URL(api.url).host}: the proxy would read it`,
      );
      expect(error.hint).toContain('--insecure');
      expect(proxy.connections()).toBe(0);
      expect(api.seen).toEqual([]);
    },
  );

  it.skipIf(process.platform === 'win32')('a CA file that is a FIFO: exit 2 at once, saying so', async () => {
    const fifo = join(dir, 'ca-fifo.pem');
    execFileSync('mkfifo', [fifo]);
    const r = await lms(['users', 'get', '5'], { LMS_BASE_URL: 'https://127.0.0.1:9', LMS_CA_FILE: fifo });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(errorOf(r.stderr).message).toBe(
      `cannot read the CA file ${fifo} (from LMS_CA_FILE): it is a named pipe (FIFO), not a file`,
    );
  });
});

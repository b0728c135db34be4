// The transport's bounds on what a hostile instance or proxy can make lms do: an answer's size,
// counted as it streams; one deadline for the whole exchange, a proxy's CONNECT answer and a
// trickled body included; and no token through a proxy over plain http.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode, FailureError, NetworkError, UsageError } from '../../src/errors.js';
import { DEFAULT_MAX_BODY, httpTransport, maxBodyOf } from '../../src/transport/http.js';
import { parseProxyUrl, tunnelAgent } from '../../src/transport/proxy.js';
import { bodyText } from '../../src/transport/types.js';

const servers: (Server | TcpServer)[] = [];
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) {
    if ('closeAllConnections' in s) s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A TCP listener whose every connection is handed to `onSocket`: a proxy that says what it likes, when it likes. */
async function rawListener(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Writes `text` a byte at a time, one byte every few milliseconds, for ever (its last byte repeated). */
function trickle(socket: Socket, text: string): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(text[Math.min(i++, text.length - 1)]);
  }, 20);
  timers.push(timer);
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('it succeeded'),
    (e: unknown) => e as Error,
  );

describe('the size of an answer', () => {
  it(
    'an answer that never ends is cut at the limit: exit ' + '1 naming it, not a network error (so not retried)',
    async () => {
      let chunks = 0;
      const base = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const block = Buffer.alloc(64 * 1024, 0x20);
        const more = () => {
          while (!res.destroyed && ++chunks < 10_000 && res.write(block));
          if (!res.destroyed && chunks < 10_000) res.once('drain', more);
        };
        res.write('[');
        more();
      });
      const error = await failure(
        httpTransport({ timeoutMs: 30_000, env: { LMS_MAX_BODY: '1M' } })({
          method: 'GET',
          url: `${base}/api/v1/courses`,
          headers: {},
        }),
      );
      expect(error).toBeInstanceOf(FailureError);
      expect(error).not.toBeInstanceOf(NetworkError);
      expect((error as FailureError).exitCode).toBe(ExitCode.failure);
      expect(error.message).toBe(
        `GET ${base}/api/v1/courses: the instance's answer is larger than 1 MiB, the most lms reads of one answer; ` +
          'the rest was not read',
      );
      expect((error as FailureError).hint).toContain('LMS_MAX_BODY');
      // It stopped reading: the server was far from done.
      expect(chunks).toBeLessThan(10_000);
    },
  );

  it('a Content-Length over the limit is refused before the body is read', async () => {
    const base = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(DEFAULT_MAX_BODY + 1) });
      res.write('[');
    });
    const error = await failure(
      httpTransport({ timeoutMs: 30_000 })({ method: 'POST', url: `${base}/x`, headers: {}, body: 'a=1' }),
    );
    expect(error.message).toBe(
      `POST ${base}/x: the instance's answer is larger than 64 MiB, the most lms reads of one answer; the rest was ` +
        'not read (the request itself was sent)',
    );
  });

  it('an answer at the limit is read whole', async () => {
    const base = await listen((_req, res) => res.end('x'.repeat(1024)));
    const res = await httpTransport({ timeoutMs: 5000, env: { LMS_MAX_BODY: '1024' } })({
      method: 'GET',
      url: `${base}/x`,
      headers: {},
    });
    expect(bodyText(res.body)).toHaveLength(1024);
  });

  it.each([
    [undefined, DEFAULT_MAX_BODY],
    ['', DEFAULT_MAX_BODY],
    ['4096', 4096],
    ['8K', 8192],
    ['128M', 128 * 1024 * 1024],
    ['1GiB', 1024 ** 3],
    ['2mb', 2 * 1024 * 1024],
  ])('LMS_MAX_BODY=%j is %i bytes', (value, bytes) => {
    expect(maxBodyOf(value)).toBe(bytes);
  });

  it.each(['0', '-1', 'lots', '1.5M', '12T'])('LMS_MAX_BODY=%j is a usage error', (value) => {
    expect(() => httpTransport({ timeoutMs: 1000, env: { LMS_MAX_BODY: value } })).toThrow(UsageError);
    expect(() => maxBodyOf(value)).toThrow(`LMS_MAX_BODY is not a size: "${value}"`);
  });
});

describe('one deadline from the first byte', () => {
  it('a proxy that answers CONNECT a byte at a time ends at the timeout, naming the proxy', async () => {
    const port = await rawListener((socket) =>
      socket.once('data', () =>
        trickle(socket, `HTTP/1.1 200 Connection established\r\nX-Padding: ${'a'.repeat(100_000)}`),
      ),
    );
    const error = await failure(
      httpTransport({ timeoutMs: 300, env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } })({
        method: 'GET',
        url: 'https://lms.example.edu/api/v1/users/self',
        headers: {},
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ETIMEDOUT');
    expect(error.message).toBe(
      `the proxy http://127.0.0.1:${port} (from HTTPS_PROXY) did not open a tunnel within 0.3 s`,
    );
  });

  it("the tunnel agent's own CONNECT ends at the request's deadline, however the proxy trickles", async () => {
    const port = await rawListener((socket) =>
      socket.once('data', () =>
        trickle(socket, `HTTP/1.1 200 Connection established\r\nX-Padding: ${'a'.repeat(100_000)}`),
      ),
    );
    const agent = tunnelAgent(parseProxyUrl('HTTPS_PROXY', `http://127.0.0.1:${port}`), {
      timeoutMs: 60_000,
      agent: { keepAlive: false, keepAliveMsecs: 1000, maxSockets: 1 },
    });
    const { request } = await import('node:https');
    // No timer of the transport here: only the deadline handed to the agent can end it.
    const error = await new Promise<Error>((resolve) => {
      const options = { agent, deadline: Date.now() + 300 };
      request('https://lms.example.edu/', options).on('error', resolve).end();
    });
    expect(error.message).toBe(
      `the proxy http://127.0.0.1:${port} (from HTTPS_PROXY) did not open a tunnel within 60 s`,
    );
  });

  it('a proxy that accepts and never answers ends at the timeout, naming the proxy', async () => {
    const port = await rawListener(() => {
      /* silent */
    });
    const error = await failure(
      httpTransport({ timeoutMs: 300, env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } })({
        method: 'GET',
        url: 'https://lms.example.edu/api/v1/users/self',
        headers: {},
      }),
    );
    expect((error as NetworkError).code).toBe('ETIMEDOUT');
    expect(error.message).toBe(
      `the proxy http://127.0.0.1:${port} (from HTTPS_PROXY) did not open a tunnel within 0.3 s`,
    );
  });

  it(
    'a tunnel opened, then a TLS handshake that never comes, ends at the timeout: the instance could not be ' +
      'connected to, nothing sent',
    async () => {
      const port = await rawListener((socket) =>
        socket.once('data', () => socket.write('HTTP/1.1 200 Connection established\r\n\r\n')),
      );
      const error = await failure(
        httpTransport({ timeoutMs: 300, env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } })({
          method: 'GET',
          url: 'https://lms.example.edu/api/v1/users/self',
          headers: {},
        }),
      );
      expect(error).toMatchObject({ code: 'ETIMEDOUT', neverSent: true });
      expect(error.message).toBe('GET lms.example.edu: could not connect within 0.3 s');
    },
  );

  it('an answer whose body trickles in a byte at a time ends at the timeout', async () => {
    const port = await rawListener((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
        const timer = setInterval(() => socket.destroyed || socket.write('1\r\n \r\n'), 20);
        timers.push(timer);
      }),
    );
    const error = await failure(
      httpTransport({ timeoutMs: 300 })({ method: 'GET', url: `http://127.0.0.1:${port}/api/v1/courses`, headers: {} }),
    );
    expect((error as NetworkError).code).toBe('ETIMEDOUT');
    expect(error.message).toBe(`GET 127.0.0.1:${port}: no answer within 0.3 s`);
  });
});

describe('the token through a proxy over plain http', () => {
  it('is refused before anything is sent, loopback instance or not (exit 2)', async () => {
    let connections = 0;
    const port = await rawListener((socket) => {
      connections++;
      socket.destroy();
    });
    const base = await listen((_req, res) => res.end('{}'));
    const transport = httpTransport({ timeoutMs: 2000, env: { HTTP_PROXY: `http://127.0.0.1:${port}` } });
    const error = await failure(
      transport({ method: 'GET', url: `${base}/api/v1/users/self`, headers: { authorization: 'Bearer t' } }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(
      `refusing to send the token over plain http through the proxy http://127.0.0.1:${port} (from HTTP_PROXY) to ` +
        `${new URL(base).host}: the proxy would read it`,
    );
    expect((error as UsageError).hint).toContain('--insecure');
    expect(connections).toBe(0);
  });

  it('goes with --insecure, and a request without the token goes as before', async () => {
    const seen: string[] = [];
    const target = await listen((_req, res) => res.end('{}'));
    const proxyServer = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
      res.end('{"via":"proxy"}');
    });
    servers.push(proxyServer);
    await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
    const env = { HTTP_PROXY: `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}` };
    await httpTransport({ timeoutMs: 2000, env, insecure: true })({
      method: 'GET',
      url: `${target}/a`,
      headers: { authorization: 'Bearer t' },
    });
    await httpTransport({ timeoutMs: 2000, env })({ method: 'GET', url: `${target}/b`, headers: {} });
    expect(seen).toEqual([`GET ${target}/a Bearer t`, `GET ${target}/b -`]);
  });
});

describe('connecting, and answering, bounded apart', () => {
  it(
    'a host that takes the connection and never shakes ' + 'hands ends at the bound on connecting, nothing sent',
    async () => {
      const port = await rawListener(() => {
        /* a TCP listener where a TLS server should be: no handshake ever */
      });
      const started = Date.now();
      const error = await failure(
        httpTransport({ timeoutMs: 5000, connectTimeoutMs: 200 })({
          method: 'POST',
          url: `https://127.0.0.1:${port}/api/v1/x`,
          headers: {},
          body: 'a=1',
        }),
      );
      expect(Date.now() - started).toBeLessThan(2000);
      expect(error).toMatchObject({
        code: 'ETIMEDOUT',
        neverSent: true,
        message: `POST 127.0.0.1:${port}: could not connect within 0.2 s`,
      });
    },
  );

  it('a connected host that never answers has the whole timeout, not the bound on connecting', async () => {
    const port = await rawListener(() => {
      /* connected, silent */
    });
    const started = Date.now();
    const error = await failure(
      httpTransport({ timeoutMs: 400, connectTimeoutMs: 100 })({
        method: 'GET',
        url: `http://127.0.0.1:${port}/api/v1/x`,
        headers: {},
      }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(error).toMatchObject({ code: 'ETIMEDOUT', message: `GET 127.0.0.1:${port}: no answer within 0.4 s` });
    expect((error as NetworkError).neverSent).toBeFalsy();
  });

  it("a request's deadline ends its try before the transport's own timeout", async () => {
    const port = await rawListener(() => {
      /* connected, silent */
    });
    const started = Date.now();
    const error = await failure(
      httpTransport({ timeoutMs: 10_000 })({
        method: 'GET',
        url: `http://127.0.0.1:${port}/api/v1/x`,
        headers: {},
        deadline: Date.now() + 300,
      }),
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.message).toBe(`GET 127.0.0.1:${port}: no answer within 0.3 s`);
  });

  it(
    'a kept-alive connection is connected already: its ' + 'next request is not held to the bound on connecting',
    async () => {
      // The second request is answered after the bound on connecting has passed.
      const base = await listen((req, res) => setTimeout(() => res.end('{}'), req.url === '/slow' ? 300 : 0));
      const transport = httpTransport({ timeoutMs: 2000, connectTimeoutMs: 100 });
      expect((await transport({ method: 'GET', url: `${base}/fast`, headers: {} })).status).toBe(200);
      expect((await transport({ method: 'GET', url: `${base}/slow`, headers: {} })).status).toBe(200);
    },
  );
});

// The HTTP adapter of `lms mock serve`, in process: what it does with errors, hosts, request targets,
// listen failures and upload bodies.
import { once } from 'node:events';
import { connect as request, createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import { FailureError, UsageError } from '../../src/errors.js';
import type { MockHandler } from '../../src/mock/handler.js';
import { openMock, type MockRuntime } from '../../src/mock/runtime.js';
import { hostHeaderName, listenError, serveMock, targetPath } from '../../src/mock/serve.js';
import type { ApiRequest } from '../../src/transport/types.js';
import { seedSchool } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

async function withServer(
  handler: MockHandler,
  run: (url: string, lines: string[]) => Promise<void>,
  extra: { publicUrl?: string } = {},
) {
  const lines: string[] = [];
  const { server, url } = await serveMock({ handler, host: '127.0.0.1', port: 0, log: (l) => lines.push(l), ...extra });
  try {
    await run(url, lines);
  } finally {
    server.close();
    server.closeAllConnections();
    await once(server, 'close');
  }
}

/** Sends raw bytes and returns everything the server wrote before closing. */
async function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = request({ host: hostname, port: Number(port) });
  socket.end(text);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('utf8');
}

describe('an internal error', () => {
  it('answers a bare 500 with a report id, and logs neither its message nor user input', async () => {
    const handler: MockHandler = async (req: ApiRequest) => {
      throw new TypeError(`cannot handle ${req.url} for ${req.headers.authorization}`);
    };
    await withServer(handler, async (url, lines) => {
      const res = await fetch(`${url}/api/v1/users/self?access_token=7~mock-sam&name=<script>`, {
        headers: { authorization: 'Bearer 1~mock-admin' },
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ errors: [{ message: 'An error occurred.' }], error_report_id: 1 });
      const log = lines.join('\n');
      expect(log).toMatch(/^error report 1: TypeError at \S+:\d+:\d+$/m);
      expect(log).toMatch(/^GET \/api\/v1\/users\/self\?access_token=\[REDACTED\]&name=%3Cscript%3E 500 \d+ms$/m);
      for (const leak of ['mock-sam', 'mock-admin', 'cannot handle', '<script>']) expect(log).not.toContain(leak);
    });
  });
});

describe('absolute URLs and routing', () => {
  const echo: MockHandler = async (req) => ({
    status: 200,
    headers: { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(req.url)) },
    body: req.url,
  });

  it('route on the request path alone; the origin is the listening address, or localhost on its port', async () => {
    await withServer(echo, async (url) => {
      const port = new URL(url).port;
      const cases: [string, string, string][] = [
        [`GET /a/b?c=1 HTTP/1.1\r\nHost: evil.example\r\n`, `${url}/a/b?c=1`, 'hostile name'],
        [`GET /a HTTP/1.1\r\nHost: evil/api/v1/x\r\n`, `${url}/a`, 'a path in the Host'],
        [`GET /a HTTP/1.1\r\nHost: a@b\r\n`, `${url}/a`, 'userinfo in the Host'],
        [
          `GET //evil.example/x HTTP/1.1\r\nHost: x\r\n`,
          `${url}//evil.example/x`,
          'a path that looks like an authority',
        ],
        [
          `GET http://evil.example/api/v1/x?y=1 HTTP/1.1\r\nHost: evil.example\r\n`,
          `${url}/api/v1/x?y=1`,
          'an absolute-form target',
        ],
        [
          `GET /a HTTP/1.1\r\nHost: localhost:${port}\r\n`,
          `http://localhost:${port}/a`,
          'localhost on the listening port',
        ],
        [`GET /a HTTP/1.1\r\nHost: LOCALHOST:${port}\r\n`, `http://localhost:${port}/a`, 'localhost in capitals'],
        [`GET /a HTTP/1.1\r\nHost: localhost:${Number(port) + 1}\r\n`, `${url}/a`, 'localhost on another port'],
        [`GET /a HTTP/1.1\r\nHost: 10.9.8.7:${port}\r\n`, `${url}/a`, 'an address that is not the one connected to'],
      ];
      for (const [head, expected, what] of cases) {
        const answer = await raw(url, `${head}Connection: close\r\n\r\n`);
        expect(answer.split('\r\n\r\n')[1], what).toBe(expected);
      }
    });
  });

  it('use --public-url for every answer when given', async () => {
    await withServer(
      echo,
      async (url) => {
        const answer = await raw(
          url,
          `GET /a?b=1 HTTP/1.1\r\nHost: localhost:${new URL(url).port}\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.split('\r\n\r\n')[1]).toBe('https://mock.example.org/a?b=1');
      },
      { publicUrl: 'https://mock.example.org' },
    );
  });

  it.each([
    ['/a?b', '/a?b'],
    ['http://x/a?b', '/a?b'],
    ['https://x', '/'],
    ['http://x?q=1', '/?q=1'],
    ['*', undefined],
    ['evil.example:443', undefined],
  ])('targetPath(%j) is %j', (target, path) => {
    expect(targetPath(target)).toBe(path);
  });

  it.each([
    ['localhost:4010', 'localhost'],
    ['127.0.0.1:4010', '127.0.0.1'],
    ['[::1]:4010', '::1'],
    ['localhost:4011', undefined],
    ['localhost', undefined],
    ['evil.example:4010', undefined],
    ['localhost.evil.example:4010', undefined],
    ['a@localhost:4010', undefined],
    [undefined, undefined],
  ])('hostHeaderName(%j) on port 4010 is %j', (header, name) => {
    expect(hostHeaderName(header, 4010)).toBe(name);
  });
});

describe('bad requests', () => {
  const ok: MockHandler = async () => ({ status: 200, headers: {}, body: 'ok' });

  it('answers 400 in the API shape to a request target that is not a path', async () => {
    await withServer(ok, async (url, lines) => {
      const answer = await raw(url, `GET evil.example:80 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(answer).toContain('{"errors":[{"message":');
      expect(lines.join('\n')).not.toContain('evil');
    });
  });

  it.each([
    ['headers over 16 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a header line that is not one', `GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n`, 400],
  ])('answers %s in the API shape', async (_what, text, status) => {
    await withServer(ok, async (url) => {
      const answer = await raw(url, text);
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(answer).toContain('{"errors":[{"message":');
    });
  });

  it('refuses an oversized body announced with Expect: 100-continue without asking for it', async () => {
    const lines: string[] = [];
    const { server, url } = await serveMock({
      handler: ok,
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
      maxBodyBytes: 1024,
    });
    try {
      const answer = await raw(
        url,
        `POST /api/v1/accounts/1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n`,
      );
      expect(answer).not.toContain('100 Continue');
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(answer).toContain('{"errors":[{"message":"the request body is larger than the limit of 1 KiB"}]}');
    } finally {
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
    }
  });

  it('gives uploads their own limit', async () => {
    const { server, url } = await serveMock({
      handler: ok,
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 1024,
      maxUploadBytes: 4096,
    });
    try {
      const body = 'x'.repeat(3000);
      const multipart = { 'content-type': 'multipart/form-data; boundary=zz' };
      expect((await fetch(`${url}/files_api/uploads/abc`, { method: 'POST', body, headers: multipart })).status).toBe(
        200,
      );
      // Only a multipart body is an upload: JSON or a form posted there has the API's limit.
      expect(
        (
          await fetch(`${url}/files_api/uploads/abc`, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json' },
          })
        ).status,
      ).toBe(413);
      expect((await fetch(`${url}/api/v1/users/self/files`, { method: 'POST', body })).status).toBe(413);
      expect(
        (await fetch(`${url}/files_api/uploads/abc`, { method: 'POST', body: body + body, headers: multipart })).status,
      ).toBe(413);
    } finally {
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
    }
  });

  it('answers 503 once the bodies being received at once pass their shared budget', async () => {
    // The budget is max(8 × 1 KiB, 2 × 4 KiB) = 8 KiB: two uploads nearly received, a third starting.
    const lines: string[] = [];
    const { server, url } = await serveMock({
      handler: ok,
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
      maxBodyBytes: 1024,
      maxUploadBytes: 4096,
    });
    try {
      const { hostname, port } = new URL(url);
      const head =
        `POST /files_api/uploads/abc HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; ` +
        `boundary=zz\r\nContent-Length: 4000\r\nConnection: close\r\n\r\n`;
      const open = () => request({ host: hostname, port: Number(port) });
      const [a, b] = [open(), open()];
      a.write(head + 'a'.repeat(3999));
      b.write(head + 'b'.repeat(3999));
      await new Promise((r) => setTimeout(r, 100));
      const third = await raw(url, head + 'c'.repeat(4000));
      expect(third).toMatch(/^HTTP\/1\.1 503/);
      expect(third.toLowerCase()).toContain('retry-after: 1');
      const chunks: Buffer[] = [];
      a.on('data', (c: Buffer) => chunks.push(c));
      a.end('a');
      await once(a, 'close');
      expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 200/);
      b.destroy();
    } finally {
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
    }
  });

  it('survives a client that goes away in the middle of a body', async () => {
    let calls = 0;
    const counting: MockHandler = async () => {
      calls++;
      return { status: 200, headers: {}, body: 'ok' };
    };
    await withServer(counting, async (url, lines) => {
      const { hostname, port } = new URL(url);
      const socket = request({ host: hostname, port: Number(port) });
      socket.write(
        `POST /api/v1/accounts/1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n${'a'.repeat(1000)}`,
      );
      await new Promise((r) => setTimeout(r, 50));
      socket.destroy();
      await new Promise((r) => setTimeout(r, 50));
      expect(calls).toBe(0);
      expect(lines).toEqual([expect.stringMatching(/^POST \/api\/v1\/accounts\/1\/users aborted \d+ms$/)]);
      expect((await fetch(`${url}/x`)).status).toBe(200);
    });
  });
});

describe('listen failures', () => {
  it('say a busy port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await serveMock({
        handler: async () => ({ status: 200, headers: {}, body: '' }),
        host: '127.0.0.1',
        port,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(`port ${port} is in use; pick another with --port`);
    } finally {
      blocker.close();
    }
  });

  it.each([
    [
      'EACCES',
      80,
      'no permission to listen on 0.0.0.0 port 80 (ports below 1024 need privileges); pick another with --port',
    ],
    ['EADDRNOTAVAIL', 4010, '--host 0.0.0.0 is not an address of this machine'],
    ['ENOTFOUND', 4010, '--host 0.0.0.0 does not resolve to an address of this machine'],
  ])('explain %s', (code, port, message) => {
    const error = listenError(Object.assign(new Error('x'), { code }), '0.0.0.0', port);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(message);
  });

  it('fall back to a failure naming the code', () => {
    expect(listenError(Object.assign(new Error('x'), { code: 'EMFILE' }), '127.0.0.1', 1)).toBeInstanceOf(FailureError);
  });
});

describe('uploads over HTTP', () => {
  const MiB = 1024 * 1024;

  /** The seeded mock behind a server; `calls` counts the requests that reached the mock. */
  async function withMock(
    run: (o: {
      url: string;
      mock: MockRuntime;
      calls: () => number;
      ticket: (size?: number) => Promise<string>;
      stored: () => { chunks: number; receipts: number };
    }) => Promise<void>,
    extra: { maxUploadBytes?: number; maxBodyBytes?: number } = {},
  ) {
    const mock = openMock(':memory:', { LMS_MOCK_NOW: '2026-11-02T12:00:00.000Z' }, seedSchool);
    const count = (table: string) => Number(value(mock.db, `SELECT count(*) FROM ${table}`));
    /** Chunk rows and open receipts, beyond the seeded files' chunks. */
    const seeded = count('attachment_chunks');
    const stored = () => ({ chunks: count('attachment_chunks') - seeded, receipts: count('upload_receipts') });
    let calls = 0;
    const handler: MockHandler = Object.assign(
      async (req: ApiRequest) => {
        calls++;
        return mock.handler(req);
      },
      { uploads: mock.handler.uploads },
    );
    const { server, url } = await serveMock({ handler, host: '127.0.0.1', port: 0, ...extra });
    /** An upload URL on this server, from step 1 in process (which does not count as a call). */
    const ticket = async (size?: number) => {
      const client = new ApiClient({ baseUrl: 'http://lms.mock', token: '7~mock-sam', transport: mock.handler });
      const t = await client.ops.users.uploadFile({
        user_id: 'self',
        name: 'notes.txt',
        ...(size === undefined ? {} : { size }),
      } as never);
      return `${url}${new URL(t.upload_url).pathname}`;
    };
    try {
      await run({ url, mock, calls: () => calls, ticket, stored });
    } finally {
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
      mock.db.close();
    }
  }

  const head = (path: string, headers: string) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=zz\r\n${headers}\r\n`;
  const filePart = (bytes: number, fill = 'a') =>
    `--zz\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n` +
    `${fill.repeat(bytes)}`;

  /** Sends the start of a request and reads what the server answers before the rest is sent. */
  async function answerBeforeBody(url: string, text: string): Promise<string> {
    const { hostname, port } = new URL(url);
    const socket = request({ host: hostname, port: Number(port) });
    socket.write(text);
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    return chunk.toString('utf8');
  }

  it('answers 404 to an upload URL that is not pending, before reading a byte of its 50 MiB body', async () => {
    await withMock(async ({ url, calls }) => {
      const answer = await answerBeforeBody(
        url,
        head('/files_api/uploads/deadbeef', `Content-Length: ${50 * MiB}\r\n`) + filePart(1000),
      );
      expect(answer).toMatch(/^HTTP\/1\.1 404/);
      expect(answer).toContain('{"errors":[{"message":"unknown or used upload URL"}]}');
      // Asked to confirm it may send, the client is told no at once.
      const expecting = await answerBeforeBody(
        url,
        head('/files_api/uploads/deadbeef', `Content-Length: ${50 * MiB}\r\nExpect: 100-continue\r\n`),
      );
      expect(expecting).toMatch(/^HTTP\/1\.1 404/);
      expect(calls()).toBe(0);
    });
  });

  it('refuses with 413 a body larger than the size step 1 declared, by Content-Length or as it streams', async () => {
    await withMock(async ({ url, ticket, stored }) => {
      const upload = new URL(await ticket(1000));
      const over = 1000 + 64 * 1024 + 1;
      const byLength = await answerBeforeBody(
        url,
        head(upload.pathname, `Content-Length: ${over}\r\n`) + filePart(100),
      );
      expect(byLength).toMatch(/^HTTP\/1\.1 413/);
      expect(byLength).toContain(
        'the upload is larger than the 1000 bytes declared when it was started (and 64 KiB for the form around them)',
      );
      const chunked = await answerBeforeBody(
        url,
        head(upload.pathname, 'Transfer-Encoding: chunked\r\n') +
          `${over.toString(16)}\r\n${filePart(over).slice(0, over)}\r\n`,
      );
      expect(chunked).toMatch(/^HTTP\/1\.1 413/);
      expect(stored()).toEqual({ chunks: 0, receipts: 0 });
      // The URL is still good for a body of the size declared.
      const form = new FormData();
      form.set('file', new File(['x'.repeat(1000)], 'notes.txt', { type: 'text/plain' }));
      expect((await fetch(upload, { method: 'POST', body: form })).status).toBe(201);
    });
  });

  it('stores the file as it arrives, a chunk row per MiB, and sends it back a chunk at a time', async () => {
    await withMock(async ({ mock, ticket, stored }) => {
      const bytes = new Uint8Array(3.5 * MiB).map((_, i) => (i * 7919) % 251);
      const form = new FormData();
      form.set('content_type', 'application/x-thing');
      form.set('file', new File([bytes], 'data.bin', { type: 'application/octet-stream' }));
      const step2 = await fetch(await ticket(bytes.byteLength), { method: 'POST', body: form });
      expect(step2.status).toBe(201);
      expect(stored()).toEqual({ chunks: 4, receipts: 0 });
      const location = (await step2.json()) as { location: string };
      const confirmed = await fetch(location.location, {
        method: 'POST',
        headers: { authorization: 'Bearer 7~mock-sam' },
      });
      const file = (await confirmed.json()) as { url: string; size: number; 'content-type': string };
      expect(file).toMatchObject({ size: bytes.byteLength, 'content-type': 'application/x-thing' });
      const download = await fetch(file.url);
      expect(download.headers.get('content-length')).toBe(String(bytes.byteLength));
      expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
      // The same bytes in process, joined.
      const inProcess = await mock.handler({
        method: 'GET',
        url: file.url.replace(/^http:\/\/[^/]+/, 'http://lms.mock'),
        headers: {},
      });
      expect(Buffer.from(inProcess.body as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
    });
  });

  it('removes what it stored of an upload whose client goes away, or that the mock refuses', async () => {
    await withMock(async ({ url, mock, ticket, stored }) => {
      const upload = new URL(await ticket());
      const { hostname, port } = new URL(url);
      const socket = request({ host: hostname, port: Number(port) });
      socket.write(head(upload.pathname, `Content-Length: ${10 * MiB}\r\n`) + filePart(2.5 * MiB));
      await vi.waitFor(() => expect(stored().chunks).toBe(2));
      socket.destroy();
      await vi.waitFor(() => expect(stored()).toEqual({ chunks: 0, receipts: 0 }));
      // No file part named "file": a 400 from the mock, and nothing kept of the part it had.
      const form = new FormData();
      form.set('other', new File(['x'.repeat(2 * MiB)], 'other.txt'));
      form.set('file', 'not a file');
      const refused = await fetch(upload, { method: 'POST', body: form });
      expect(refused.status).toBe(400);
      expect(stored()).toEqual({ chunks: 0, receipts: 0 });
      // Bytes left by a server that died mid-upload are removed when the next upload starts.
      const dead = 2 ** 22 + 12345;
      mock.db
        .prepare(`INSERT INTO upload_receipts (id, attachment_id, pid, started_at) VALUES (999, 1, ?, '')`)
        .run(dead);
      mock.db.prepare(`INSERT INTO attachment_chunks (receipt, seq, data) VALUES (999, 0, x'00')`).run();
      const ok = new FormData();
      ok.set('file', new File(['hello'], 'notes.txt'));
      expect((await fetch(upload, { method: 'POST', body: ok })).status).toBe(201);
      expect(stored()).toEqual({ chunks: 1, receipts: 0 });
    });
  });

  it('counts against the shared budget only what a streamed upload holds at once', async () => {
    // Budget max(8 × 64 KiB, 2 × 4 MiB) = 8 MiB; a streamed upload reserves its 1 MiB chunk, 64 KiB
    // of fields and 256 KiB of buffers: six at once fit, the seventh waits its turn.
    await withMock(
      async ({ url, ticket }) => {
        const { hostname, port } = new URL(url);
        const sockets = [];
        for (let i = 0; i < 6; i++) {
          const socket = request({ host: hostname, port: Number(port) });
          socket.write(head(new URL(await ticket()).pathname, `Content-Length: ${3 * MiB}\r\n`) + filePart(1000));
          sockets.push(socket);
        }
        await new Promise((r) => setTimeout(r, 100));
        const seventh = await answerBeforeBody(
          url,
          head(new URL(await ticket()).pathname, `Content-Length: ${3 * MiB}\r\n`),
        );
        expect(seventh).toMatch(/^HTTP\/1\.1 503/);
        for (const s of sockets) s.destroy();
      },
      { maxBodyBytes: 64 * 1024, maxUploadBytes: 4 * MiB },
    );
  });
});

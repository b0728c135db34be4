// The token goes only to the base URL's origin, over real loopback sockets: a second server that
// a Link header, a redirect or an absolute URL points at records what it receives.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/client/client.js';
import { uploadFile } from '../../src/client/upload.js';
import { FailureError, UsageError } from '../../src/errors.js';
import { httpTransport } from '../../src/transport/http.js';
import type { ApiRequest, ApiResponse, Transport } from '../../src/transport/types.js';
import { session } from '../helpers/run-lms.js';
import { collect } from '../helpers/mock-client.js';

const TOKEN = 'tok-origin-4242';

interface Seen {
  method: string;
  url: string;
  authorization?: string;
}

interface Recorder {
  base: string;
  origin: string;
  seen: Seen[];
}

const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** A node:http server on 127.0.0.1 (port 0) that records every request and answers through `answer`. */
async function server(
  answer: (req: IncomingMessage, res: ServerResponse) => void = (_q, res) => json(res, 200, [{ id: 99 }]),
): Promise<Recorder> {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { base, origin: base, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function real(base: string, extra: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: base,
    token: TOKEN,
    transport: httpTransport({ timeoutMs: 2000 }),
    plainHttp: 'refuse',
    ...extra,
  });
}

describe('next-page links', () => {
  it('refuses a Link to another origin: the second server never sees the token, nor any request', async () => {
    const other = await server();
    const api = await server((_req, res) =>
      json(res, 200, [{ id: 1 }], { link: `<${other.base}/api/v1/courses?page=2&per_page=100>; rel="next"` }),
    );
    const seen: number[] = [];
    const error = await (async () => {
      for await (const c of real(api.base).pages<{ id: number }>('/api/v1/courses?per_page=100')) seen.push(c.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1]);
    expect(error).toBeInstanceOf(FailureError);
    const e = error as FailureError;
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe(
      `the server's next-page link points to ${other.origin}, not ${api.origin}: refusing to follow it, so the ` +
        'token was not sent there',
    );
    expect(api.seen.map((s) => s.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(other.seen).toEqual([]);
  });

  it('follows a Link on the same origin, relative ones resolved against the page they came from', async () => {
    const api = await server((req, res) => {
      const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1';
      if (page === '1') return json(res, 200, [{ id: 1 }], { link: '<?page=2>; rel="next"' });
      if (page === '2') return json(res, 200, [{ id: 2 }], { link: `<${api.base}/api/v1/courses?page=3>; rel="next"` });
      return json(res, 200, [{ id: 3 }]);
    });
    const items = await collect(real(api.base).pages<{ id: number }>('/api/v1/courses'));
    expect(items.map((i) => i.id)).toEqual([1, 2, 3]);
    expect(api.seen.map((s) => [s.url, s.authorization])).toEqual([
      ['/api/v1/courses', `Bearer ${TOKEN}`],
      ['/api/v1/courses?page=2', `Bearer ${TOKEN}`],
      ['/api/v1/courses?page=3', `Bearer ${TOKEN}`],
    ]);
  });

  it.each([
    [
      'plain http to a remote host',
      'http://lms.example.edu/api/v1/courses?page=2',
      'http://lms.example.edu over plain http',
    ],
    ['https on another host', 'https://elsewhere.example.net/api/v1/courses?page=2', 'https://elsewhere.example.net'],
    ['the same host on another port', 'http://127.0.0.1:1/api/v1/courses?page=2', 'http://127.0.0.1:1'],
  ])('refuses a loopback base URL whose next link is %s, before anything is sent there', async (_what, link, named) => {
    const api = await server((_req, res) => json(res, 200, [{ id: 1 }], { link: `<${link}>; rel="next"` }));
    const sent: string[] = [];
    const inner = httpTransport({ timeoutMs: 2000 });
    const recording: Transport = (req) => {
      sent.push(req.url);
      return inner(req);
    };
    const error = await collect(real(api.base, { transport: recording }).pages('/api/v1/courses')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FailureError);
    expect((error as Error).message).toContain(`points to ${named}, not ${api.origin}`);
    expect((error as Error).message).toContain('the token was not sent there');
    expect(sent).toEqual([`${api.base}/api/v1/courses`]);
  });

  it('is refused by `lms api --paginate` with exit 1, the second server seeing nothing', async () => {
    const other = await server();
    const api = await server((_req, res) =>
      json(res, 200, [{ id: 1 }], { link: `<${other.base}/api/v1/courses?page=2>; rel="next"` }),
    );
    const r = await session().run('api GET /api/v1/courses --paginate -o json', {
      env: { LMS_MOCK: '', LMS_BASE_URL: api.base, LMS_TOKEN: TOKEN },
    });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({
      exit_code: 1,
      message:
        `the server's next-page link points to ${other.origin}, not ${api.origin}: refusing to follow it, so ` +
        'the token was not sent there',
    });
    expect(other.seen).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});

describe('absolute URLs', () => {
  it('refuses to send the token to another origin (exit 2), and sends nothing there', async () => {
    const other = await server();
    const api = await server();
    const error = await real(api.base)
      .send('GET', `${other.base}/api/v1/users/self`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      `refusing to send the token to ${other.origin}: it goes only to ${api.origin}, the base URL's origin; nothing ` +
        'was sent',
    );
    expect(other.seen).toEqual([]);
    expect(api.seen).toEqual([]);
  });

  it('refuses `lms api GET <another origin>` with exit 2', async () => {
    const other = await server();
    const api = await server();
    const r = await session().run(`api GET ${other.base}/api/v1/users/self -o json`, {
      env: { LMS_MOCK: '', LMS_BASE_URL: api.base, LMS_TOKEN: TOKEN },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`refusing to send the token to ${other.origin}`);
    expect(other.seen).toEqual([]);
  });

  it('sends the token to an absolute URL on the base origin (default port spelled out or not)', async () => {
    const api = await server((_q, res) => json(res, 200, { ok: true }));
    await real(api.base).send('GET', `${api.base}/api/v1/users/self`);
    expect(api.seen.map((s) => s.authorization)).toEqual([`Bearer ${TOKEN}`]);
    const seen: ApiRequest[] = [];
    const c = new ApiClient({
      baseUrl: 'https://LMS.example.edu',
      token: TOKEN,
      transport: async (req) => {
        seen.push(req);
        return { status: 200, headers: {}, body: '{}' };
      },
    });
    await c.send('GET', 'https://lms.example.edu:443/api/v1/x');
    expect(seen[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('sends an upload target, on another origin, its bytes without the token', async () => {
    const storage = await server((_q, res) => json(res, 201, { id: 9, display_name: 'a.txt' }));
    const api = await server();
    const attachment = await uploadFile(
      real(api.base),
      { upload_url: `${storage.base}/bucket/one-time`, upload_params: {} },
      { name: 'a.txt', data: new Uint8Array([104, 105]), contentType: 'text/plain' },
    );
    expect(attachment).toMatchObject({ id: 9 });
    expect(storage.seen).toEqual([{ method: 'POST', url: '/bucket/one-time', authorization: undefined }]);
  });
});

describe('redirects', () => {
  it('refuses a redirect of a read to the second server: nothing reaches it', async () => {
    const other = await server((_q, res) => json(res, 200, { moved: true }));
    const api = await server((_q, res) => {
      res.writeHead(302, { location: `${other.base}/files/1` });
      res.end();
    });
    await expect(real(api.base).send('GET', '/api/v1/files/1/download')).rejects.toThrow(
      `a read follows redirects only on its own origin, so nothing was sent there`,
    );
    expect(api.seen.map((s) => s.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(other.seen).toEqual([]);
  });

  it('refuses an https → http downgrade of the same host', async () => {
    const seen: ApiRequest[] = [];
    const transport: Transport = async (req): Promise<ApiResponse> => {
      seen.push({ ...req, headers: { ...req.headers } });
      return seen.length === 1
        ? { status: 301, headers: { location: 'http://lms.example.edu/api/v1/x' }, body: '' }
        : { status: 200, headers: {}, body: '{}' };
    };
    await expect(
      new ApiClient({ baseUrl: 'https://lms.example.edu', token: TOKEN, transport, plainHttp: 'refuse' }).send(
        'GET',
        '/api/v1/x',
      ),
    ).rejects.toThrow(
      'the instance redirected it (301) to http://lms.example.edu/[REDACTED], another origin than ' +
        'https://lms.example.edu',
    );
    expect(seen.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['https://lms.example.edu/api/v1/x', `Bearer ${TOKEN}`],
    ]);
  });
});

describe('plain http', () => {
  const ok: Transport = async () => ({ status: 200, headers: {}, body: '[]' });

  it('refuses a remote plain-http base URL before anything is sent', () => {
    let sent = 0;
    const make = () =>
      new ApiClient({
        baseUrl: 'http://lms.example.edu',
        token: TOKEN,
        plainHttp: 'refuse',
        transport: async () => {
          sent++;
          return { status: 200, headers: {}, body: '' };
        },
      });
    expect(make).toThrow(UsageError);
    expect(make).toThrow('refusing to send the token over plain http to lms.example.edu');
    expect(sent).toBe(0);
  });

  it('with consent, warns once however many requests carry the token', async () => {
    const warnings: string[] = [];
    const c = new ApiClient({
      baseUrl: 'http://lms.example.edu',
      token: TOKEN,
      plainHttp: 'warn',
      warn: (m) => warnings.push(m),
      transport: ok,
    });
    await c.send('GET', '/api/v1/a');
    await c.send('GET', '/api/v1/b');
    await collect(c.pages('/api/v1/c'));
    expect(warnings).toEqual(['sending the token over plain http to lms.example.edu (--insecure)']);
  });

  it.each(['http://127.0.0.1:9', 'http://localhost:9', 'http://[::1]:9'])(
    'lets loopback %s through without a word',
    async (base) => {
      const warnings: string[] = [];
      await new ApiClient({
        baseUrl: base,
        token: TOKEN,
        plainHttp: 'refuse',
        warn: (m) => warnings.push(m),
        transport: ok,
      }).send('GET', '/x');
      expect(warnings).toEqual([]);
    },
  );

  it('sends a tokenless request (an upload target) over plain http without asking', async () => {
    const seen: ApiRequest[] = [];
    const c = new ApiClient({
      baseUrl: 'https://lms.example.edu',
      token: TOKEN,
      plainHttp: 'refuse',
      transport: async (req) => {
        seen.push(req);
        return { status: 200, headers: {}, body: '{}' };
      },
    });
    await c.send('POST', 'http://storage.example.net/up', { auth: false });
    expect(seen[0].headers.authorization).toBeUndefined();
  });
});

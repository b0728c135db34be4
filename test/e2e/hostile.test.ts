// End to end: hostile requests against a spawned `lms mock serve`. Every route of hostile-routes.ts
// gets every payload below (prototype pollution in each encoding, deep nesting, oversized bodies by
// Content-Length and by chunked stream, an over-long field, C1 controls and DEL in a name or in free
// text, an upper-case multipart boundary, bad percent-encoding, hostile Host headers and request
// targets). Each must get its 4xx in the API's error shape — never a 5xx, never a hang — and
// afterwards the server is up, a student's token is still the student (nothing leaked into
// masquerading), and absolute URLs name the canonical origin.
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { hostileRoutes, type HostileRoute } from './hostile-routes.js';

const SAM = '7~mock-sam';
const UPLOAD_LIMIT = 4 * 1024 * 1024;
const { dir, env } = e2eWorkspace('hostile');

interface SendOptions {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** A body, or that many bytes streamed in 64 KiB chunks (with a Content-Length, or chunked). */
  body?: string | Uint8Array | { bytes: number; chunked: boolean };
  /** Send no User-Agent (every other request carries one, as every real client does). */
  noUserAgent?: boolean;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection; fails after 10 s rather than hang. */
function send(base: string, o: SendOptions): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let answered = false;
    // A User-Agent, as every real client sends (the mock refuses a request without one, as real instances do).
    const req = request({
      host: hostname,
      port,
      method: o.method,
      path: o.path,
      headers: { ...(o.noUserAgent ? {} : { 'user-agent': 'hostile-test/1.0' }), ...o.headers },
      agent: false,
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer in 10 s to ${o.method} ${o.path.slice(0, 80)}`)),
      10_000,
    );
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (e) => reject(e));
    });
    // Once the server has answered, it may stop reading what is still being sent: not a failure.
    req.on('error', (e) => {
      if (!answered) {
        clearTimeout(timer);
        reject(e);
      }
    });
    const body = o.body;
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      // An explicit length: node sends a GET's body with neither a length nor chunking otherwise.
      if (body !== undefined) req.setHeader('content-length', Buffer.byteLength(body));
      req.end(body);
      return;
    }
    req.setHeader(body.chunked ? 'transfer-encoding' : 'content-length', body.chunked ? 'chunked' : body.bytes);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < body.bytes) {
        if (req.destroyed || answered) return;
        sent += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Services the mock names on purpose, as real instances do (avatar images); never from a request. */
const THIRD_PARTY = ['https://secure.gravatar.com/'];

/** Every absolute URL in a Link or Location header, or a JSON body, that names the mock itself. */
function absoluteUrls(a: Answer, where: 'link' | 'all' = 'all'): string[] {
  const text =
    where === 'link' ? String(a.headers.link ?? '') : `${a.headers.link ?? ''} ${a.headers.location ?? ''} ${a.body}`;
  return (text.match(/https?:\/\/[^\s"<>,]+/g) ?? []).filter((u) => !THIRD_PARTY.some((p) => u.startsWith(p)));
}

function multipart(fields: [string, string][], boundary = 'LMS-Hostile-Boundary-ABC'): { body: string; type: string } {
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

const deep = (n: number) => `a${'[b]'.repeat(n - 1)}`;
const form = 'application/x-www-form-urlencoded';
const POLLUTING = [
  ['__proto__[as_user_id]', '1'],
  ['constructor[prototype][as_user_id]', '1'],
  ['user[__proto__][name]', 'Polluted'],
] as [string, string][];

interface Payload {
  name: string;
  build(route: HostileRoute, origin: string): SendOptions;
  /** The status expected, for a route the mock knows (an unknown route answers 404 to all but size and encoding). */
  status?: number | ((route: HostileRoute) => number);
  check?(a: Answer, route: HostileRoute, origin: string): void;
}

/**
 * Decoding happens once a route matched and the caller is known; an unknown route is a 404 first,
 * and so is an upload URL that is not pending, whose body is never read.
 */
const decodes = (route: HostileRoute) => route.id !== 'unknown' && route.id !== 'files.upload';
const decodeError = (route: HostileRoute) => (decodes(route) ? 400 : 404);
/** A body too large is a 413 before it is read, but an upload URL that is not pending is a 404 first. */
const tooLarge = (route: HostileRoute) => (route.id === 'files.upload' ? 404 : 413);

/** U+0085 (next line), U+009B (a one-byte terminal escape introducer) and DEL. */
const C1_AND_DEL = [
  ['NEL', '\u0085'],
  ['CSI', '\u009b'],
  ['DEL', '\u007f'],
] as const;

const payloads: Payload[] = [
  {
    name: 'pollution in the query',
    build: (r) => ({
      method: r.method,
      path: `${r.path}?${POLLUTING.map(([k, v]) => `${k}=${v}`).join('&')}`,
      headers: auth(ADMIN),
    }),
  },
  {
    name: 'pollution in a form body, with no token',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { 'content-type': form },
      body: POLLUTING.map(([k, v]) => `${k}=${v}`).join('&'),
    }),
  },
  {
    name: 'pollution in a form body',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': form },
      body: POLLUTING.map(([k, v]) => `${k}=${v}`).join('&'),
    }),
  },
  {
    name: 'pollution in a JSON body',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': 'application/json' },
      body:
        '{"__proto__":{"as_user_id":"1"},"constructor":{"prototype":{"as_user_id":"1"}},' +
        '"user":{"__proto__":{"name":"Polluted"}}}',
    }),
  },
  {
    name: 'pollution in a multipart body',
    build: (r) => {
      const m = multipart(POLLUTING);
      return { method: r.method, path: r.path, headers: { ...auth(ADMIN), 'content-type': m.type }, body: m.body };
    },
  },
  {
    name: 'a name 5,000 levels deep',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': form },
      body: `${deep(5000)}=1`,
    }),
    status: decodeError,
    check: (a, r) => decodes(r) && expect(a.body).toContain('nested more than 100 levels deep'),
  },
  {
    name: 'a list of lists 5,000 levels deep',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': form },
      body: `${'[][x]'.repeat(5000)}=1`,
    }),
    status: decodeError,
  },
  {
    name: 'a query 300 levels deep',
    build: (r) => ({ method: r.method, path: `${r.path}?${deep(300)}=1`, headers: auth(ADMIN) }),
    status: decodeError,
  },
  {
    name: 'JSON 100,000 levels deep',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': 'application/json' },
      body: `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    }),
    status: decodeError,
  },
  {
    name: 'a body over the limit, by Content-Length',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: auth(ADMIN),
      body: { bytes: UPLOAD_LIMIT + 2 * 1024 * 1024, chunked: false },
    }),
    status: tooLarge,
    check: (a, r) =>
      expect(a.body).toMatch(
        r.id === 'files.upload' ? /unknown or used upload URL/ : /larger than the limit of (1|4) MiB/,
      ),
  },
  {
    name: 'a body over the limit, chunked',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: auth(ADMIN),
      body: { bytes: UPLOAD_LIMIT + 2 * 1024 * 1024, chunked: true },
    }),
    status: tooLarge,
  },
  {
    name: 'an over-long field',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': form },
      body: `user[name]=${'x'.repeat(600 * 1024)}`,
    }),
    status: decodeError,
    check: (a, r) => decodes(r) && expect(a.body).toContain('the parameter user[name] is longer than 524288 bytes'),
  },
  {
    name: 'an upper-case multipart boundary',
    build: (r) => {
      const m = multipart([['note[text]', 'upper']], 'XYZ-UPPER-Boundary');
      return {
        method: r.method,
        path: r.path,
        headers: { ...auth(ADMIN), 'content-type': m.type.replace('multipart/form-data', 'Multipart/Form-Data') },
        body: m.body,
      };
    },
    check: (a) => expect(a.body).not.toContain('could not be read'),
  },
  {
    name: 'bad percent-encoding in the path',
    build: (r) => ({ method: r.method, path: `${r.path}%zz`, headers: auth(ADMIN) }),
    status: 400,
    check: (a) => expect(a.body).toContain('malformed percent-encoding'),
  },
  {
    name: 'bad percent-encoding in the query',
    build: (r) => ({ method: r.method, path: `${r.path}?name=%E0%A4%A&x=%zz`, headers: auth(ADMIN) }),
    status: decodeError,
  },
  // C1 controls and DEL are refused like C0, in a name and in free text, in every encoding.
  ...C1_AND_DEL.flatMap<Payload>(([label, character]) => [
    {
      name: `${label} in a name, in a form body`,
      build: (r) => ({
        method: r.method,
        path: r.path,
        headers: { ...auth(ADMIN), 'content-type': form },
        body: `user[name]=Eve${encodeURIComponent(character)}`,
      }),
      status: decodeError,
      check: (a, r) => decodes(r) && expect(a.body).toContain('user[name] must not contain control characters'),
    },
    {
      name: `${label} in free text, in a JSON body`,
      build: (r) => ({
        method: r.method,
        path: r.path,
        headers: { ...auth(ADMIN), 'content-type': 'application/json' },
        body: JSON.stringify({ message: `Hi${character}` }),
      }),
      status: decodeError,
      check: (a, r) => decodes(r) && expect(a.body).toContain('message must not contain control characters'),
    },
    {
      name: `${label} in free text, in the query`,
      build: (r) => ({
        method: r.method,
        path: `${r.path}?search_term=lab${encodeURIComponent(character)}`,
        headers: auth(ADMIN),
      }),
      status: decodeError,
      check: (a, r) => decodes(r) && expect(a.body).toContain('search_term must not contain control characters'),
    },
  ]),
  ...['evil.example', 'evil/api/v1/x', 'a@b', 'x:1/..', `localhost:1`].map<Payload>((host) => ({
    name: `the Host header ${host}`,
    build: (r) => ({ method: r.method, path: `${r.path}?per_page=1`, headers: { ...auth(ADMIN), host } }),
    check: (a, _r, origin) => {
      for (const u of absoluteUrls(a)) expect(u.startsWith(`${origin}/`), u).toBe(true);
    },
  })),
  {
    // Real instances' rule since 2026-01-17, before any other: only a request to an upload URL that
    // is not pending is turned away sooner (its body is never read).
    name: 'no User-Agent header',
    build: (r) => ({
      method: r.method,
      path: r.path,
      headers: { ...auth(ADMIN), 'content-type': form },
      body: 'user[name]=Nia',
      noUserAgent: true,
    }),
    status: (r) => (r.id === 'files.upload' ? 404 : 403),
    check: (a, r) => r.id !== 'files.upload' && expect(a.body).toMatch(/User-Agent header is required/),
  },
  {
    name: 'an absolute-form request target naming another host',
    build: (r) => ({ method: r.method, path: `http://evil.example${r.path}?per_page=1`, headers: auth(ADMIN) }),
    check: (a, _r, origin) => {
      for (const u of absoluteUrls(a)) expect(u.startsWith(`${origin}/`), u).toBe(true);
    },
  },
];

let server: Served;

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'hostile.db') }, [
    '--max-upload-size',
    String(UPLOAD_LIMIT),
  ]);
});

afterAll(async () => {
  await server?.stop();
});

async function stillSam(): Promise<void> {
  const me = await send(server.url, { method: 'GET', path: '/api/v1/users/self', headers: auth(SAM) });
  expect(me.status).toBe(200);
  expect(JSON.parse(me.body)).toMatchObject({ id: 7, name: 'Sam Student' });
}

describe.each(hostileRoutes)('$method $path ($id)', (route) => {
  it.each(payloads)('$name', async (payload) => {
    const answer = await send(server.url, payload.build(route, server.url));
    const expected = typeof payload.status === 'function' ? payload.status(route) : payload.status;
    if (expected !== undefined) expect(answer.status, answer.body.slice(0, 300)).toBe(expected);
    expect(answer.status, answer.body.slice(0, 300)).toBeLessThan(500);
    if (answer.status >= 400) {
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      // `{"errors":[{"message":…}]}`, a model validation's `{"errors":{"user":{…}}}`, or the
      // `{"message":…}` real instances answer from enrollments and sections, or the bare
      // `[{"attribute":…,"message":…}]` of conversations, or OAuth2's `{"error":…,"error_description":…}`
      // (RFC 6749 §5.2) from /login/oauth2.
      const body = JSON.parse(answer.body) as {
        errors?: { message: string }[] | Record<string, unknown>;
        message?: unknown;
        error?: unknown;
        error_description?: unknown;
      };
      if (Array.isArray(body)) expect(typeof (body as { message?: unknown }[])[0]?.message).toBe('string');
      else if (body.errors === undefined && route.id.startsWith('oauth.') && body.message === undefined) {
        expect(typeof body.error).toBe('string');
        expect(typeof body.error_description).toBe('string');
      } else if (body.errors === undefined) expect(typeof body.message).toBe('string');
      else if (Array.isArray(body.errors)) expect(typeof body.errors[0].message).toBe('string');
      else expect(Object.keys(body.errors).length).toBeGreaterThan(0);
    }
    payload.check?.(answer, route, server.url);
    await stillSam();
  });
});

describe('after the hostile requests', () => {
  it('pages with Links on the canonical origin, or on localhost when the client used it', async () => {
    const port = new URL(server.url).port;
    for (const [host, origin] of [
      [undefined, server.url],
      ['evil.example', server.url],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`127.0.0.1:${port}`, server.url],
      [`localhost:${Number(port) + 1}`, server.url],
    ] as const) {
      const a = await send(server.url, {
        method: 'GET',
        path: '/api/v1/accounts/1/users?per_page=2',
        headers: { ...auth(ADMIN), ...(host ? { host } : {}) },
      });
      expect(a.status).toBe(200);
      const links = absoluteUrls(a, 'link');
      expect(links.length).toBeGreaterThanOrEqual(3);
      for (const u of absoluteUrls(a)) expect(u.startsWith(`${origin}/`), `${host}: ${u}`).toBe(true);
      for (const u of links) expect(u.startsWith(`${origin}/api/v1/accounts/1/users?`), `${host}: ${u}`).toBe(true);
    }
  });

  it('hands out upload URLs on the canonical origin whatever the Host', async () => {
    const a = await send(server.url, {
      method: 'POST',
      path: '/api/v1/users/self/files',
      headers: { ...auth(SAM), host: 'evil.example', 'content-type': form },
      body: 'name=notes.txt&size=3',
    });
    expect(a.status).toBe(200);
    expect((JSON.parse(a.body) as { upload_url: string }).upload_url).toMatch(
      new RegExp(`^${server.url}/files_api/uploads/\\w+$`),
    );
    await stillSam();
  });

  it('never logged a token or an upload id, even one sent percent-encoded', async () => {
    await send(server.url, {
      method: 'POST',
      path: '/files%5Fapi/uploads/feedfacefeedface',
      headers: { 'content-type': form },
      body: 'a=1',
    });
    // The server logs a request once it has answered it: the line may reach us after the answer.
    await vi.waitFor(() => expect(server.log()).toMatch(/POST \/files_api\/uploads\/\[REDACTED\] 404/), {
      timeout: 5_000,
    });
    const log = server.log();
    for (const secret of [ADMIN, SAM, '0123456789abcdef', 'feedfacefeedface']) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/ 5\d\d \d+ms/);
  });

  it('says a busy port is in use (exit 2), with no stack trace', async () => {
    const port = new URL(server.url).port;
    const r = await spawnLms(['mock', 'serve', '--port', port], { ...env, LMS_MOCK_DB: join(dir, 'busy.db') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`port ${port} is in use; pick another with --port`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the origin of absolute URLs', () => {
  async function linksVia(served: Served, host?: string): Promise<string[]> {
    const a = await send(served.url, {
      method: 'GET',
      path: '/api/v1/accounts/1/users?per_page=2',
      headers: { ...auth(ADMIN), ...(host ? { host } : {}) },
    });
    expect(a.status).toBe(200);
    return absoluteUrls(a, 'link');
  }

  it('on every interface: the address the client connected to, said so at start-up', async () => {
    const served = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'wildcard.db') }, ['--host', '0.0.0.0']);
    try {
      expect(served.log()).toContain(
        'Listening on every interface: links and upload URLs name the address each client connected to',
      );
      for (const host of [undefined, 'evil.example', 'a@b']) {
        for (const u of await linksVia(served, host)) expect(u.startsWith(`${served.url}/`), u).toBe(true);
      }
    } finally {
      await served.stop();
    }
  });

  it('with --public-url: that origin, whatever the Host', async () => {
    const served = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'public.db') }, [
      '--public-url',
      'https://mock.example.org',
    ]);
    try {
      expect(served.log()).toContain('Links and upload URLs name https://mock.example.org');
      const port = new URL(served.url).port;
      for (const host of [undefined, 'evil.example', `localhost:${port}`]) {
        const links = await linksVia(served, host);
        expect(links.length).toBeGreaterThanOrEqual(3);
        for (const u of links) expect(u.startsWith('https://mock.example.org/api/v1/accounts/1/users?'), u).toBe(true);
      }
    } finally {
      await served.stop();
    }
  });

  it.each([
    [['--public-url', 'http://x/y'], '--public-url must be an http(s) origin'],
    [
      ['--max-body-size', 'lots'],
      '--max-body-size must be a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m, not "lots"',
    ],
    [
      ['--max-upload-size', '0'],
      '--max-upload-size must be a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m, not "0"',
    ],
  ])('mock serve %j is a usage error', async (flags, message) => {
    const r = await spawnLms(['mock', 'serve', '--port', '0', ...flags], {
      ...env,
      LMS_MOCK_DB: join(dir, 'flags.db'),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

/** The peak resident memory of a process (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

describe('memory under concurrent oversized bodies', () => {
  it('stays bounded: four 50 MB bodies with no token are refused, not buffered', { timeout: 20_000 }, async () => {
    const served = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'memory.db') });
    try {
      const pid = served.child.pid!;
      await send(served.url, { method: 'GET', path: '/api/v1/users/self', headers: auth(SAM) });
      const before = peakRss(pid);
      const answers = await Promise.all(
        [false, true, false, true].map((chunked) =>
          send(served.url, {
            method: 'POST',
            path: '/api/v1/accounts/1/users',
            body: { bytes: 50 * 1024 * 1024, chunked },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([413, 413, 413, 413]);
      expect(JSON.parse(answers[0].body)).toEqual({
        errors: [{ message: 'the request body is larger than the limit of 1 MiB' }],
      });
      const me = await send(served.url, { method: 'GET', path: '/api/v1/users/self', headers: auth(SAM) });
      expect(me.status).toBe(200);
      expect(peakRss(pid) - before).toBeLessThan(150 * 1024 * 1024);
    } finally {
      await served.stop();
    }
  });
});

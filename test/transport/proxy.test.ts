import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, LmsError, NetworkError, UsageError } from '../../src/errors.js';
import { selfSignedCertificate, type TlsIdentity } from '../../src/mock/tls.js';
import { httpTransport } from '../../src/transport/http.js';
import {
  maskProxyUrl,
  noProxyMatch,
  parseNoProxy,
  parseProxyUrl,
  readProxySettings,
  routeFor,
} from '../../src/transport/proxy.js';
import { bodyText } from '../../src/transport/types.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

describe('proxy variables', () => {
  const cases: [string, Record<string, string>, string, string][] = [
    // [what, env, target, expected route]
    [
      'https target reads HTTPS_PROXY',
      { HTTPS_PROXY: 'http://p:3128' },
      'https://lms.example.edu',
      'http://p:3128 HTTPS_PROXY',
    ],
    [
      'lower case wins over upper',
      { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' },
      'https://lms.example.edu',
      'http://lower:2 https_proxy',
    ],
    [
      'http target reads http_proxy, not HTTPS_PROXY',
      { HTTPS_PROXY: 'http://s:1', http_proxy: 'http://h:2' },
      'http://lms.example.edu',
      'http://h:2 http_proxy',
    ],
    [
      'HTTP_PROXY is read as gh reads it',
      { HTTP_PROXY: 'http://h:2' },
      'http://lms.example.edu',
      'http://h:2 HTTP_PROXY',
    ],
    [
      'but not in a CGI environment (httpoxy)',
      { HTTP_PROXY: 'http://h:2', REQUEST_METHOD: 'GET' },
      'http://lms.example.edu',
      'direct',
    ],
    ['an https target ignores http_proxy', { http_proxy: 'http://h:2' }, 'https://lms.example.edu', 'direct'],
    [
      'all_proxy is the fallback for both',
      { ALL_PROXY: 'http://a:9' },
      'https://lms.example.edu',
      'http://a:9 ALL_PROXY',
    ],
    [
      'an empty variable is not set',
      { https_proxy: '', HTTPS_PROXY: 'http://u:1' },
      'https://lms.example.edu',
      'http://u:1 HTTPS_PROXY',
    ],
    [
      'no scheme is http, no port is 1080 (curl)',
      { HTTPS_PROXY: 'proxy.school.example' },
      'https://lms.example.edu',
      'http://proxy.school.example:1080 HTTPS_PROXY',
    ],
    [
      'credentials are masked',
      { HTTPS_PROXY: 'http://ann:s%40cret@p:3128' },
      'https://lms.example.edu',
      'http://[REDACTED]@p:3128 HTTPS_PROXY',
    ],
    [
      'NO_PROXY bypasses',
      { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 'example.edu' },
      'https://lms.example.edu',
      'bypass NO_PROXY example.edu',
    ],
    [
      'no_proxy wins over NO_PROXY',
      { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 'example.edu', no_proxy: 'other.org' },
      'https://lms.example.edu',
      'http://p:3128 HTTPS_PROXY',
    ],
    [
      'loopback is proxied unless NO_PROXY names it (curl)',
      { HTTPS_PROXY: 'http://p:3128' },
      'https://127.0.0.1:4010',
      'http://p:3128 HTTPS_PROXY',
    ],
  ];
  it.each(cases)('%s', (_what, env, target, expected) => {
    const route = routeFor(readProxySettings(env), new URL(target));
    const got =
      route.kind === 'proxy'
        ? `${route.proxy.shown} ${route.proxy.variable}`
        : route.reason === 'no_proxy'
          ? `bypass ${route.variable} ${route.entry}`
          : 'direct';
    expect(got).toBe(expected);
  });

  it.each([
    [
      'a malformed http_proxy, for an https instance',
      { http_proxy: 'socks5://127.0.0.1:9050', HTTPS_PROXY: 'http://p:3128' },
      'https://lms.example.edu',
      'http://p:3128 HTTPS_PROXY',
    ],
    [
      'a malformed HTTPS_PROXY, for an http instance',
      { HTTPS_PROXY: 'socks5://127.0.0.1:9050' },
      'http://lms.example.edu',
      'direct',
    ],
  ])('reads only the scheme it is asked for: %s', (_what, env, target, expected) => {
    const scheme = new URL(target).protocol === 'https:' ? 'https' : 'http';
    const route = routeFor(readProxySettings(env, [scheme]), new URL(target));
    expect(route.kind === 'proxy' ? `${route.proxy.shown} ${route.proxy.variable}` : 'direct').toBe(expected);
  });

  it.each(['pa/ss', 'pa?ss', 'pa#ss'])(
    'a password with an unencoded character (%s) is refused, and never quoted',
    (password) => {
      let error: unknown;
      try {
        readProxySettings({ HTTPS_PROXY: `http://bob:${password}@proxy:3128` });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(password);
    },
  );

  it('percent-decodes the credentials into Proxy-Authorization', () => {
    const proxy = parseProxyUrl('HTTPS_PROXY', 'http://ann%20b:s%40cret%3A1@p:3128');
    expect(proxy.authorization).toBe(`Basic ${Buffer.from('ann b:s@cret:1').toString('base64')}`);
    expect(JSON.stringify(proxy.shown)).not.toMatch(/ann|cret/);
  });

  const malformed: [string, Record<string, string>, RegExp][] = [
    [
      'socks5 is not supported',
      { HTTPS_PROXY: 'socks5://user:pw@p:1080' },
      /^HTTPS_PROXY names a socks5:\/\/ proxy \(socks5:\/\/\[REDACTED\]@p:1080\), which lms does not support$/,
    ],
    ['https:// proxies are not supported', { https_proxy: 'https://p:443' }, /^https_proxy names a https:\/\/ proxy/],
    ['not a URL', { HTTP_PROXY: 'http://exa mple:80' }, /^HTTP_PROXY is not a proxy URL: "http:\/\/exa mple:80"$/],
    ['a bad port', { HTTPS_PROXY: 'http://p:99999' }, /^HTTPS_PROXY is not a proxy URL/],
    [
      'a bad escape in the password',
      { HTTPS_PROXY: 'http://u:%zz@p:1' },
      /^HTTPS_PROXY has a malformed percent-escape/,
    ],
    [
      'a NO_PROXY entry that is no host',
      { HTTPS_PROXY: 'http://p:1', no_proxy: 'good.org,bad/host' },
      /^no_proxy has an entry that is neither a host name nor an address: "bad\/host"$/,
    ],
  ];
  it.each([['<local>'], ['bad/host,*.local']])(
    'NO_PROXY=%j with no proxy set stops nothing: every request goes direct',
    (value) => {
      const settings = readProxySettings({ NO_PROXY: value, no_proxy: value });
      expect(settings).toEqual({});
      expect(routeFor(settings, new URL('https://lms.example.edu/'))).toEqual({ kind: 'direct', reason: 'none' });
    },
  );

  it.each(malformed)('%s: a usage error naming the variable, credentials masked', (_what, env, message) => {
    let error: unknown;
    try {
      readProxySettings(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect(JSON.stringify(error)).not.toContain('pw');
  });

  it('masks whatever precedes the host, parsable or not', () => {
    expect(maskProxyUrl('http://u:p@host:1')).toBe('http://[REDACTED]@host:1');
    expect(maskProxyUrl('u:p@host:1')).toBe('[REDACTED]@host:1');
    expect(maskProxyUrl('http://u:p@w@host:1')).toBe('http://[REDACTED]@host:1');
    // A password with an unencoded /, ? or # is masked whole, parsable or not.
    for (const password of ['pa/ss', 'pa?ss', 'pa#ss', '12/ss'])
      expect(maskProxyUrl(`http://bob:${password}@proxy:3128`)).toBe('http://[REDACTED]@proxy:3128');
    expect(maskProxyUrl('http://host:1')).toBe('http://host:1');
  });
});

describe('NO_PROXY matching', () => {
  const cases: [string, string, number, string | undefined][] = [
    // [NO_PROXY, host, port, the entry that matches]
    ['example.edu', 'example.edu', 443, 'example.edu'],
    ['example.edu', 'lms.example.edu', 443, 'example.edu'],
    ['example.edu', 'notexample.edu', 443, undefined],
    ['.example.edu', 'example.edu', 443, '.example.edu'],
    ['.example.edu', 'a.b.example.edu', 443, '.example.edu'],
    ['*.example.edu', 'lms.example.edu', 443, '*.example.edu'],
    ['EXAMPLE.edu.', 'Lms.Example.EDU', 443, 'EXAMPLE.edu.'],
    ['lms.example.edu', 'example.edu', 443, undefined],
    ['example.edu:8443', 'lms.example.edu', 8443, 'example.edu:8443'],
    ['example.edu:8443', 'lms.example.edu', 443, undefined],
    ['*', 'anything.org', 80, '*'],
    ['a.org, b.org  c.org', 'c.org', 80, 'c.org'],
    ['localhost', '127.0.0.1', 80, undefined],
    ['127.0.0.1', '127.0.0.1', 4010, '127.0.0.1'],
    ['127.0.0.1:4010', '127.0.0.1', 4010, '127.0.0.1:4010'],
    ['127.0.0.1:4010', '127.0.0.1', 4011, undefined],
    ['10.0.0.0/8', '10.20.30.40', 443, '10.0.0.0/8'],
    ['10.0.0.0/8', '11.0.0.1', 443, undefined],
    ['::1', '[::1]', 443, '::1'],
    ['[::1]:4010', '[::1]', 4010, '[::1]:4010'],
    ['fd00::/8', '[fd12::5]', 443, 'fd00::/8'],
    ['127.0.0.1', '[::1]', 443, undefined],
    ['', 'example.edu', 443, undefined],
  ];
  it.each(cases)('NO_PROXY=%j, %s:%i', (value, host, port, expected) => {
    expect(noProxyMatch(parseNoProxy(value), host, port)?.text).toBe(expected);
  });

  // curl's own table (tests/unit/unit1614.c, Curl_check_noproxy), each host as a URL's hostname.
  const curl: [string, string, boolean][] = [
    // [host, NO_PROXY, whether curl goes directly]
    ['www.example.com', 'localhost,.example.com,.example.de', true],
    ['www.example.com.', 'localhost,.example.com,.example.de', true],
    ['example.com', 'localhost,.example.com,.example.de', true],
    ['example.com.', 'localhost,.example.com,.example.de', true],
    ['www.example.com', 'localhost,.example.com.,.example.de', true],
    ['www.example.com', 'localhost,www.example.com.,.example.de', true],
    ['example.com', 'localhost,example.com,.example.de', true],
    ['example.com.', 'localhost,example.com,.example.de', true],
    ['www.example.com', 'localhost,example.com,.example.de', true],
    ['127.0.0.1', '127.0.0.1,localhost', true],
    ['127.0.0.1', '127.0.0.1,localhost,', true],
    ['127.0.0.1', '127.0.0.1/8,localhost,', true],
    ['127.0.0.1', '127.0.0.1/28,localhost,', true],
    ['127.0.0.1', '127.0.0.1/31,localhost,', true],
    ['127.0.0.1', 'localhost,127.0.0.1', true],
    ['127.0.0.1', `localhost,${'127.0.0.1.'.repeat(12)}127.0.0.`, false],
    ['localhost', 'localhost,127.0.0.1', true],
    ['localhost', '127.0.0.1,localhost', true],
    ['foobar', 'barfoo', false],
    ['foobar', 'foobar', true],
    ['192.168.0.1', 'foobar', false],
    ['192.168.0.1', '192.168.0.0/16', true],
    ['192.168.0.1', '192.168.0.0/16 ', true],
    ['192.168.0.1', '192.168.0.0/24', true],
    ['192.168.0.1', '192.168.0.0/32', false],
    ['192.168.0.1', '192.168.0.1/32', true],
    ['192.168.0.1', '192.168.0.0', false],
    ['192.168.1.1', '192.168.0.0/24', false],
    ['192.168.1.1', 'foo, bar, 192.168.0.0/24', false],
    ['192.168.1.1', 'foo, bar, 192.168.0.0/16', true],
    ['[::1]', 'foo, bar, 192.168.0.0/16', false],
    ['[::1]', 'foo, bar, ::1/64', true],
    ['[::1]', '::1/96', true],
    ['[::1]', '::1/127 ', true],
    ['[2001:db8:8000::1]', '2001:db8::/65', false],
    ['[2001:db8::1]', '2001:db8::/65', true],
    ['bar', 'foo, bar, ::1/64', true],
    ['BAr', 'foo, bar, ::1/64', true],
    ['BAr', 'foo,,,,,              bar, ::1/64', true],
    ['www.example.com', 'foo, .example.com', true],
    ['www.example.com', 'www2.example.com, .example.net', false],
    ['example.com', '.example.com, .example.net', true],
    ['nonexample.com', '.example.com, .example.net', false],
    // A name's tail never matches an address, nor a `*` among other entries every host.
    ['127.0.0.1', '.0.0.1', false],
    ['127.0.0.1', '0.0.1', false],
    ['10.1.2.3', '.2.3,.3', false],
    ['[::1]', '1', false],
    ['anything.org', '*', true],
    ['anything.org', ' * ', true],
    ['anything.org', 'localhost,*', false],
    // A prefix of 0 is the address alone, as curl reads it.
    ['10.1.2.3', '0.0.0.0/0', false],
    ['0.0.0.0', '0.0.0.0/0', true],
  ];
  it.each(curl)('%s with NO_PROXY=%j: direct %s, as in curl', (host, value, direct) => {
    expect(noProxyMatch(parseNoProxy(value), host, 443) !== undefined).toBe(direct);
  });

  // Entries curl skips silently are refused, naming them: a typo in a bypass list otherwise sends
  // the request where the user said it must not go.
  it.each(['192.168.0.0/33', '::1/129', '192.168.0.0/16a', '192.168.0.0/ 16', '::1/a127'])(
    'NO_PROXY=%j is refused',
    (value) => {
      expect(() => parseNoProxy(value)).toThrow(UsageError);
    },
  );
});

// The transport itself, through a real proxy on loopback.
const servers: Server[] = [];
const proxies: TestProxy[] = [];
let identity: TlsIdentity;
let scratch: string;
let caPath: string;

beforeAll(async () => {
  identity = await selfSignedCertificate();
  scratch = mkdtempSync(join(tmpdir(), 'lms-proxy-'));
  caPath = join(scratch, 'ca.pem');
  writeFileSync(caPath, identity.cert);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, tls = false): Promise<string> {
  const server = tls ? createTlsServer({ cert: identity.cert, key: identity.key }, handler) : createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function proxy(options: Parameters<typeof startProxy>[0] = {}): Promise<TestProxy> {
  const p = await startProxy(options);
  proxies.push(p);
  return p;
}

const echo = (req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      path: req.url,
      host: req.headers.host,
      auth: req.headers.authorization,
      proxyAuth: req.headers['proxy-authorization'] ?? null,
    }),
  );
};

async function failure(promise: Promise<unknown>): Promise<NetworkError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NetworkError);
  return error as NetworkError;
}

describe('httpTransport through a proxy', () => {
  it(
    'sends an https request through one CONNECT tunnel, kept alive for the next, with the credentials only to the ' +
      'proxy',
    async () => {
      const base = await listen(echo, true);
      const p = await proxy({ credentials: 'ann:s@cret' });
      const trace: string[] = [];
      const env = { HTTPS_PROXY: `http://ann:s%40cret@127.0.0.1:${p.port}` };
      // The self-signed certificate is trusted through a CA file, as a school's would be.
      const trusting = httpTransport({
        timeoutMs: 5000,
        env,
        caFile: { path: caPath, source: 'test' },
        trace: (l) => trace.push(l),
      });
      for (const path of ['/a', '/b']) {
        const res = await trusting({ method: 'GET', url: `${base}${path}`, headers: { authorization: 'Bearer t' } });
        expect(JSON.parse(bodyText(res.body))).toEqual({
          path,
          host: new URL(base).host,
          auth: 'Bearer t',
          proxyAuth: null,
        });
      }
      expect(p.seen).toEqual([`CONNECT ${new URL(base).host}`]);
      expect(p.authorizations).toEqual([`Basic ${Buffer.from('ann:s@cret').toString('base64')}`]);
      expect(trace).toEqual([
        `TLS: trusting the CA file ${caPath} (from test) besides Node's own roots`,
        `${new URL(base).host}: through the proxy http://[REDACTED]@127.0.0.1:${p.port} (from HTTPS_PROXY)`,
      ]);
      // Without the CA the tunnel opens, and the certificate is refused: exit 7, naming the fix.
      const refused = await failure(
        httpTransport({ timeoutMs: 5000, env })({ method: 'GET', url: `${base}/a`, headers: {} }),
      );
      expect(refused.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(refused.hint).toMatch(/LMS_CA_FILE/);
    },
  );

  it('sends a plain http request in absolute form, Proxy-Authorization to the proxy alone', async () => {
    const base = await listen(echo);
    const p = await proxy({ credentials: 'ann:pw' });
    const transport = httpTransport({ timeoutMs: 5000, env: { http_proxy: `http://ann:pw@127.0.0.1:${p.port}` } });
    const res = await transport({ method: 'GET', url: `${base}/api/v1/users/self?x=1`, headers: {} });
    expect(JSON.parse(bodyText(res.body))).toEqual({
      path: '/api/v1/users/self?x=1',
      host: new URL(base).host,
      proxyAuth: null,
    });
    expect(p.seen).toEqual([`GET ${base}/api/v1/users/self?x=1`]);
    expect(p.authorizations).toEqual([`Basic ${Buffer.from('ann:pw').toString('base64')}`]);
  });

  it('decides per host: a second host (an upload target) that NO_PROXY names goes directly', async () => {
    const api = await listen(echo);
    const storage = await listen(echo);
    const p = await proxy();
    const transport = httpTransport({ timeoutMs: 5000, env: { HTTP_PROXY: p.url, NO_PROXY: new URL(storage).host } });
    await transport({ method: 'GET', url: `${api}/x`, headers: {} });
    await transport({ method: 'POST', url: `${storage}/upload`, headers: {}, body: 'data' });
    expect(p.seen).toEqual([`GET ${api}/x`]);
  });

  const refusals: [string, { credentials?: string; refuseConnect?: number }, string, RegExp, string][] = [
    [
      'asks for credentials',
      { credentials: 'a:b' },
      '',
      /^the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTPS_PROXY\) asks for credentials \(407\)$/,
      'ERR_PROXY_AUTH',
    ],
    [
      'rejects the credentials',
      { credentials: 'a:b' },
      'a:wrong@',
      /^the proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+ \(from HTTPS_PROXY\) did not accept the credentials in HTTPS_PROXY \(407\)$/,
      'ERR_PROXY_AUTH',
    ],
    [
      'refuses the tunnel',
      { refuseConnect: 403 },
      '',
      /^the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTPS_PROXY\) refused to connect to 127\.0\.0\.1:\d+ \(403\)$/,
      'ERR_PROXY_FORBIDDEN',
    ],
    [
      'cannot reach the instance',
      { refuseConnect: 502 },
      '',
      /^the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTPS_PROXY\) could not connect to 127\.0\.0\.1:\d+ \(502\)$/,
      'ERR_PROXY_CONNECT',
    ],
  ];
  it.each(refusals)(
    'a proxy that %s: a network error naming it, never its credentials',
    async (_what, options, userinfo, message, code) => {
      const base = await listen(echo, true);
      const p = await proxy(options);
      const transport = httpTransport({
        timeoutMs: 5000,
        env: { HTTPS_PROXY: `http://${userinfo}127.0.0.1:${p.port}` },
      });
      const error = await failure(transport({ method: 'GET', url: `${base}/a`, headers: {} }));
      expect(error.message).toMatch(message);
      expect(error.code).toBe(code);
      expect(error.exitCode).toBe(ExitCode.network);
      expect(error.neverSent).toBe(true);
      expect(`${error.message} ${error.hint}`).not.toContain('wrong');
    },
  );

  it('a 407 to a plain http request is the proxy asking, not the instance', async () => {
    const base = await listen(echo);
    const p = await proxy({ credentials: 'a:b' });
    const transport = httpTransport({ timeoutMs: 5000, env: { http_proxy: p.url } });
    const error = await failure(transport({ method: 'GET', url: `${base}/a`, headers: {} }));
    expect(error.message).toBe(`the proxy http://127.0.0.1:${p.port} (from http_proxy) asks for credentials (407)`);
    expect(error.hint).toBe(
      `put them in the proxy URL: http_proxy=http://USER:PASSWORD@127.0.0.1:${p.port} (special characters ` +
        'percent-encoded)',
    );
  });

  // A plain http request goes to the proxy as it is (no CONNECT): its own refusal, which it marks as
  // its own, is told apart from the instance's answer carried back.
  it.each<[string, Parameters<typeof startProxy>[0], string, string, boolean]>([
    [
      'refuses the request (Proxy-Status)',
      { refuseRequests: 403 },
      'refused to connect to',
      'ERR_PROXY_FORBIDDEN',
      true,
    ],
    [
      'refuses the request (Squid)',
      { refuseRequests: 403, marks: 'squid' },
      'refused to connect to',
      'ERR_PROXY_FORBIDDEN',
      true,
    ],
    [
      'cannot reach the instance (Proxy-Status)',
      { refuseRequests: 502 },
      'could not connect to',
      'ERR_PROXY_CONNECT',
      true,
    ],
    [
      'answers 503 itself (Squid)',
      { refuseRequests: 503, marks: 'squid' },
      'could not connect to',
      'ERR_PROXY_CONNECT',
      true,
    ],
  ])(
    'a proxy that %s on a plain http request: a network error naming it and the status',
    async (_what, options, words, code, neverSent) => {
      const base = await listen(echo);
      const p = await proxy(options);
      const transport = httpTransport({ timeoutMs: 5000, env: { http_proxy: p.url } });
      const error = await failure(transport({ method: 'GET', url: `${base}/a`, headers: {} }));
      expect(error.message).toBe(
        `the proxy http://127.0.0.1:${p.port} (from http_proxy) ${words} ${new URL(base).host} ` +
          `(${options!.refuseRequests})`,
      );
      expect(error.code).toBe(code);
      expect(error.exitCode).toBe(ExitCode.network);
      expect(error.neverSent).toBe(neverSent);
    },
  );

  it(
    'a 502 the proxy sends when the instance cannot be ' + "reached is its own; an unmarked 403 is the instance's",
    async () => {
      const p = await proxy();
      const transport = httpTransport({ timeoutMs: 5000, env: { http_proxy: p.url } });
      const port = p.port;
      const closed = await listen(echo);
      const gone = new URL(closed).port;
      await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
      const error = await failure(transport({ method: 'GET', url: `http://127.0.0.1:${gone}/a`, headers: {} }));
      expect(error.message).toBe(
        `the proxy http://127.0.0.1:${port} (from http_proxy) could not connect to 127.0.0.1:${gone} (502)`,
      );
      const plain = await proxy({ refuseRequests: 403, marks: 'none' });
      const answered = await httpTransport({ timeoutMs: 5000, env: { http_proxy: plain.url } })({
        method: 'GET',
        url: `http://127.0.0.1:${gone}/a`,
        headers: {},
      });
      expect(answered.status).toBe(403);
    },
  );

  it.each(['https', 'http'])('a proxy that refuses the connection (%s target): named, never sent', async (scheme) => {
    const p = await proxy();
    const port = p.port;
    await p.close();
    proxies.splice(0);
    const transport = httpTransport({
      timeoutMs: 5000,
      env: { [`${scheme}_proxy`]: `http://u:secret@127.0.0.1:${port}` },
    });
    const error = await failure(transport({ method: 'GET', url: `${scheme}://lms.example.edu/a`, headers: {} }));
    expect(error.message).toBe(
      `the proxy http://[REDACTED]@127.0.0.1:${port} (from ${scheme}_proxy) refused the connection`,
    );
    expect(error.neverSent).toBe(true);
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('a malformed variable is a usage error from the first request, nothing sent', async () => {
    const transport = httpTransport({ timeoutMs: 5000, env: { HTTPS_PROXY: 'socks5://p:1080' } });
    const error = await transport({ method: 'GET', url: 'https://lms.example.edu/a', headers: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LmsError);
    expect((error as LmsError).exitCode).toBe(ExitCode.usage);
  });
});

// End to end: `lms mock serve --tls-self-signed` serving HTTPS, and the client trusting its
// certificate as it would a school's private CA — from LMS_CA_FILE, a profile's --ca-file, or
// NODE_EXTRA_CA_CERTS — or refusing it with the fix. Then the main journeys (a listing, a bulk
// grade, an apply, an OAuth login) over HTTPS through a forwarding proxy that wants credentials.
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/mock/tls.js';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { developerKey, SAM } from '../helpers/e2e-login.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

const { dir, env } = e2eWorkspace('e2e-https');
const ca = join(dir, 'mock-ca.pem');
let served: Served;
let proxy: TestProxy;

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], env);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  served = await serveMock(env, ['--quiet', '--tls-self-signed', ca]);
  proxy = await startProxy({ credentials: 'ann:s@cret' });
});

afterAll(async () => {
  await proxy?.close();
  await served?.stop();
});

const remote = (extra: Record<string, string> = {}) => ({
  ...env,
  LMS_CACHE_DIR: join(dir, 'cache'),
  LMS_BASE_URL: served.url,
  LMS_TOKEN: ADMIN,
  ...extra,
});
const proxied = (extra: Record<string, string> = {}) =>
  remote({ HTTPS_PROXY: `http://ann:s%40cret@127.0.0.1:${proxy.port}`, LMS_CA_FILE: ca, ...extra });
const errorOf = (stderr: string) => JSON.parse(stderr) as { message: string; hint?: string };
const listUsers = (e: Record<string, string>, flags: string[] = []) =>
  spawnLms(['users', 'list', '--account', '1', '-o', 'json', ...flags], e);

describe('lms mock serve over HTTPS', () => {
  it('serves HTTPS with a certificate for loopback, written where --tls-self-signed says', () => {
    expect(served.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cert = new X509Certificate(readFileSync(ca));
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it("serves HTTPS with a certificate and key of the user's own (--tls-cert, --tls-key)", async () => {
    const own = await selfSignedCertificate();
    const [cert, key] = [join(dir, 'own-cert.pem'), join(dir, 'own-key.pem')];
    writeFileSync(cert, own.cert);
    writeFileSync(key, own.key, { mode: 0o600 });
    const second = await serveMock(env, ['--quiet', '--tls-cert', cert, '--tls-key', key]);
    try {
      expect(second.url).toMatch(/^https:/);
      const r = await listUsers(remote({ LMS_BASE_URL: second.url, LMS_CA_FILE: cert }));
      expect(r.exitCode, r.stderr).toBe(0);
      // The other server's certificate is another one: this CA does not vouch for it.
      expect((await listUsers(remote({ LMS_CA_FILE: cert }))).exitCode).toBe(7);
    } finally {
      await second.stop();
    }
  });

  it.each([
    [['--tls-cert', 'x.pem'], '--tls-cert and --tls-key go together: the certificate and its private key (PEM files)'],
    [
      ['--tls-self-signed', 'out.pem', '--tls-key', 'k.pem'],
      '--tls-self-signed makes its own certificate: give it, or --tls-cert and --tls-key, not both',
    ],
    [['--tls-cert', 'missing.pem', '--tls-key', 'missing.pem'], '--tls-cert missing.pem: cannot read it (ENOENT)'],
    [
      ['--tls-self-signed', 'no-such-dir/ca.pem'],
      '--tls-self-signed no-such-dir/ca.pem: cannot write the certificate there (ENOENT)',
    ],
  ])('mock serve %j: exit 2, naming the flag', async (flags, message) => {
    const r = await spawnLms(['mock', 'serve', '--port', '0', '-o', 'json', ...flags], env);
    expect(r.exitCode).toBe(2);
    expect(errorOf(r.stderr).message).toBe(message);
  });

  it.each([
    ['LMS_CA_FILE', () => ({ LMS_CA_FILE: ca })],
    ['NODE_EXTRA_CA_CERTS', () => ({ NODE_EXTRA_CA_CERTS: ca })],
  ])('lists users, trusting the certificate from %s', async (_name, extra) => {
    const r = await listUsers(remote(extra()));
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it("trusts the CA of a profile's --ca-file, checked when the profile is added", async () => {
    const e = { ...env, LMS_CACHE_DIR: join(dir, 'cache') };
    const added = await spawnLms(
      ['profile', 'add', 'school', '--url', served.url, '--token-stdin', '--ca-file', ca, '--insecure-storage'],
      e,
      ADMIN,
    );
    expect(added.exitCode, added.stderr).toBe(0);
    const shown = await spawnLms(['profile', 'show', 'school', '-o', 'json'], e);
    expect(JSON.parse(shown.stdout)).toMatchObject({ ca_file: ca });
    const r = await listUsers(e, ['-p', 'school', '-v']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`TLS: trusting the CA file ${ca} (from profile "school") besides Node's own roots`);
    // LMS_CA_FILE wins over the profile's.
    const overridden = await listUsers({ ...e, LMS_CA_FILE: join(dir, 'missing.pem') }, ['-p', 'school']);
    expect(overridden.exitCode).toBe(2);
    expect(errorOf(overridden.stderr).message).toBe(
      `cannot read the CA file ${join(dir, 'missing.pem')} (from LMS_CA_FILE): no such file`,
    );
  });

  it('adds the CA file to the roots Node trusts, not in their place', async () => {
    // A CA file naming some other authority: the mock's certificate is still trusted through NODE_EXTRA_CA_CERTS.
    const other = join(dir, 'other-ca.pem');
    writeFileSync(other, rootCertificates[0]);
    const r = await listUsers(remote({ LMS_CA_FILE: other, NODE_EXTRA_CA_CERTS: ca }));
    expect(r.exitCode, r.stderr).toBe(0);
    const without = await listUsers(remote({ LMS_CA_FILE: other }));
    expect(without.exitCode).toBe(7);
    expect(errorOf(without.stderr).hint).toBe(
      `the CA file ${other} (from LMS_CA_FILE) does not vouch for it: is it the authority that issued the ` +
        `instance's certificate?`,
    );
  });

  it('refuses a certificate it cannot verify: exit 7, naming the fixes', async () => {
    const r = await listUsers(remote());
    expect(r.exitCode).toBe(7);
    const error = errorOf(r.stderr);
    // Node 24 adds a suggestion of its own to the reason.
    expect(
      error.message.startsWith(
        `cannot verify the TLS certificate of ${new URL(served.url).host} (DEPTH_ZERO_SELF_SIGNED_CERT): ` +
          'self-signed certificate',
      ),
    ).toBe(true);
    expect(error.hint).toMatch(
      /LMS_CA_FILE=FILE, `lms profile add NAME --url URL --ca-file FILE`, or NODE_EXTRA_CA_CERTS=FILE/,
    );
  });

  it('lms doctor: reachable over HTTPS through the CA file, or failed with the fixes without it', async () => {
    const host = new URL(served.url).host;
    const reachable = async (extra: Record<string, string>) =>
      (
        JSON.parse((await spawnLms(['doctor', '-o', 'json'], remote(extra))).stdout) as {
          check: string;
          status: string;
          detail: string;
          fix?: string;
        }[]
      ).find((c) => c.check === 'reachable')!;
    expect(await reachable({ LMS_CA_FILE: ca })).toEqual({
      check: 'reachable',
      status: 'ok',
      detail:
        `${host} answered over HTTPS, with a certificate this machine trusts through the CA file ${ca} (from ` +
        'LMS_CA_FILE)',
    });
    const untrusted = await reachable({});
    expect(untrusted.status).toBe('fail');
    expect(untrusted.detail).toMatch(
      /^cannot verify the TLS certificate of 127\.0\.0\.1:\d+ \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    expect(untrusted.fix).toMatch(
      /LMS_CA_FILE=FILE, `lms profile add NAME --url URL --ca-file FILE`, or NODE_EXTRA_CA_CERTS=FILE/,
    );
  });

  it('an unreadable or non-PEM CA file: exit 2 naming it, nothing sent', async () => {
    const text = join(dir, 'not-a-cert.pem');
    writeFileSync(text, 'hello\n');
    const r = await listUsers(remote({ LMS_CA_FILE: text }));
    expect(r.exitCode).toBe(2);
    expect(errorOf(r.stderr).message).toBe(`the CA file ${text} (from LMS_CA_FILE) holds no PEM certificate`);
    const add = await spawnLms(
      ['profile', 'add', 'bad', '--url', served.url, '--token-stdin', '--ca-file', dir],
      env,
      ADMIN,
    );
    expect(add.exitCode).toBe(2);
    expect(add.stderr).toContain(`cannot read the CA file ${dir} (from --ca-file): it is a directory, not a file`);
  });
});

describe("curl's CA variables: CURL_CA_BUNDLE, then SSL_CERT_FILE, after LMS_CA_FILE and the profile's", () => {
  const missing = () => join(dir, 'no-such-bundle.pem');
  const other = () => {
    const path = join(dir, 'other-authority.pem');
    writeFileSync(path, rootCertificates[0]);
    return path;
  };
  const self = (e: Record<string, string>, flags: string[] = []) =>
    spawnLms(['-p', 'curlish', 'users', 'get', 'self', '--fields', 'id', '-o', 'json', ...flags], e);
  const e = { ...env, LMS_CACHE_DIR: join(dir, 'cache'), LMS_CONFIG_DIR: join(dir, 'config-curl') };

  beforeAll(async () => {
    // A profile with no CA file of its own, added without asking the instance.
    const added = await spawnLms(
      ['profile', 'add', 'curlish', '--url', served.url, '--token-stdin', '--no-verify', '--insecure-storage'],
      e,
      ADMIN,
    );
    expect(added.exitCode, added.stderr).toBe(0);
  });

  it.each(['SSL_CERT_FILE', 'CURL_CA_BUNDLE'])(
    '%s naming the certificate: users get self succeeds, -v saying what is trusted',
    async (variable) => {
      const r = await self({ ...e, [variable]: ca }, ['-v']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ id: 1 });
      expect(r.stderr).toContain(`TLS: trusting the CA bundle ${ca} (from ${variable}) besides Node's own roots`);
    },
  );

  it('CURL_CA_BUNDLE comes before SSL_CERT_FILE, which is then not read', async () => {
    expect((await self({ ...e, CURL_CA_BUNDLE: ca, SSL_CERT_FILE: missing() })).exitCode).toBe(0);
    // The bundle curl reads names another authority: the certificate SSL_CERT_FILE would vouch for is refused.
    const refused = await self({ ...e, CURL_CA_BUNDLE: other(), SSL_CERT_FILE: ca });
    expect(refused.exitCode).toBe(7);
    expect(errorOf(refused.stderr).hint).toBe(
      `neither Node's own roots nor the CA bundle ${other()} (from CURL_CA_BUNDLE) vouch for it: is the authority ` +
        `that issued the instance's certificate in that bundle? LMS_CA_FILE=FILE trusts one besides`,
    );
  });

  it("LMS_CA_FILE comes before both, and the profile's --ca-file too", async () => {
    expect((await self({ ...e, LMS_CA_FILE: ca, CURL_CA_BUNDLE: missing(), SSL_CERT_FILE: missing() })).exitCode).toBe(
      0,
    );
    const withCa = { ...env, LMS_CACHE_DIR: join(dir, 'cache'), LMS_CONFIG_DIR: join(dir, 'config-curl-ca') };
    const added = await spawnLms(
      [
        'profile',
        'add',
        'curlish',
        '--url',
        served.url,
        '--token-stdin',
        '--no-verify',
        '--insecure-storage',
        '--ca-file',
        ca,
      ],
      withCa,
      ADMIN,
    );
    expect(added.exitCode, added.stderr).toBe(0);
    expect((await self({ ...withCa, CURL_CA_BUNDLE: other(), SSL_CERT_FILE: missing() })).exitCode).toBe(0);
  });

  it('a bundle adds to the roots Node trusts, NODE_EXTRA_CA_CERTS among them, as LMS_CA_FILE does', async () => {
    const r = await self({ ...e, SSL_CERT_FILE: other(), NODE_EXTRA_CA_CERTS: ca });
    expect(r.exitCode, r.stderr).toBe(0);
    // The same bundle in both: Node trusts it all already.
    const same = await self({ ...e, SSL_CERT_FILE: ca, NODE_EXTRA_CA_CERTS: ca }, ['-v']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).toContain(
      `TLS: trusting the CA bundle ${ca} (from SSL_CERT_FILE) besides Node's own roots (it holds no authority they ` +
        'lack)',
    );
  });

  it.each([
    [
      'no such file',
      () => missing(),
      (path: string) => `cannot read the CA bundle ${path} (from SSL_CERT_FILE): no such file`,
    ],
    [
      'a device',
      () => '/dev/zero',
      (path: string) => `cannot read the CA bundle ${path} (from SSL_CERT_FILE): it is a device, not a file`,
    ],
    [
      'a directory',
      () => dir,
      (path: string) => `cannot read the CA bundle ${path} (from SSL_CERT_FILE): it is a directory, not a file`,
    ],
    [
      'no PEM in it',
      () => {
        const path = join(dir, 'not-pem.txt');
        writeFileSync(path, 'hello\n');
        return path;
      },
      (path: string) => `the CA bundle ${path} (from SSL_CERT_FILE) holds no PEM certificate`,
    ],
  ])('SSL_CERT_FILE naming %s: exit 2, naming the variable and how to leave it out', async (_what, path, message) => {
    const r = await self({ ...e, SSL_CERT_FILE: path() });
    expect(r.exitCode).toBe(2);
    expect(errorOf(r.stderr)).toMatchObject({
      message: message(path()),
      hint:
        'point SSL_CERT_FILE at a PEM bundle of certificate authorities (as curl reads it), or unset it for lms ' +
        '(env -u SSL_CERT_FILE lms …)',
    });
  });

  it('is not read for a plain http instance', async () => {
    const plain = await serveMock(env, ['--quiet']);
    try {
      const r = await spawnLms(['users', 'get', 'self', '--fields', 'id', '-o', 'json'], {
        ...e,
        LMS_BASE_URL: plain.url,
        LMS_TOKEN: ADMIN,
        SSL_CERT_FILE: missing(),
      });
      expect(r.exitCode, r.stderr).toBe(0);
    } finally {
      await plain.stop();
    }
  });

  it('lms doctor says where the trust comes from, and what is not read', async () => {
    const trust = async (extra: Record<string, string>) =>
      (
        JSON.parse((await spawnLms(['-p', 'curlish', 'doctor', '-o', 'json'], { ...e, ...extra })).stdout) as {
          check: string;
          status: string;
          detail: string;
          fix?: string;
        }[]
      ).find((c) => c.check === 'trust')!;
    const host = new URL(served.url).host;
    expect(await trust({ CURL_CA_BUNDLE: ca, SSL_CERT_FILE: missing() })).toEqual({
      check: 'trust',
      status: 'ok',
      detail:
        `${host}'s certificate is verified against the CA bundle ${ca} (from CURL_CA_BUNDLE), one ` +
        `certificate, besides Node's own roots; not read: SSL_CERT_FILE (CURL_CA_BUNDLE comes first)`,
    });
    expect(await trust({ NODE_EXTRA_CA_CERTS: ca })).toEqual({
      check: 'trust',
      status: 'ok',
      detail: `${host}'s certificate is verified against Node's own roots and NODE_EXTRA_CA_CERTS (${ca})`,
    });
    expect(await trust({ SSL_CERT_FILE: missing() })).toEqual({
      check: 'trust',
      status: 'fail',
      detail: `cannot read the CA bundle ${missing()} (from SSL_CERT_FILE): no such file`,
      fix:
        'point SSL_CERT_FILE at a PEM bundle of certificate authorities (as curl reads it), or unset it for lms ' +
        '(env -u SSL_CERT_FILE lms …)',
    });
  });
});

// Node's own roots made to hold a test authority: with --use-openssl-ca, Node trusts OpenSSL's
// default store, which SSL_CERT_FILE names, in place of its bundle. The CA file names another
// authority, so only the roots can vouch for the instance. (NODE_EXTRA_CA_CERTS goes the same way:
// see "adds the CA file to the roots Node trusts" above.)
describe("an instance Node's roots vouch for, the CA file naming another authority", () => {
  let instance: { url: string; requests: string[]; connections: () => number; close: () => Promise<void> };
  let rootsFile: string;

  beforeAll(async () => {
    const identity = await selfSignedCertificate();
    rootsFile = join(dir, 'roots.pem');
    writeFileSync(rootsFile, identity.cert);
    const requests: string[] = [];
    let connections = 0;
    // Two pages of things, and every request recorded with its body.
    const server = createHttpsServer({ cert: identity.cert, key: identity.key }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        requests.push(`${req.method} ${req.url} ${body}`.trim());
        const next = req.url?.includes('page=2')
          ? {}
          : { link: `<https://${req.headers.host}/api/v1/things?page=2>; rel="next"` };
        res.writeHead(200, { 'content-type': 'application/json', ...next });
        res.end(JSON.stringify([{ id: requests.length }]));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    instance = {
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests,
      connections: () => connections,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  });

  afterAll(async () => {
    await instance?.close();
  });

  beforeEach(() => {
    instance.requests.length = 0;
  });

  // `ca` is the mock's certificate: an authority that has nothing to do with this instance.
  const roots = (file: () => string, extra: Record<string, string> = {}) =>
    remote({
      LMS_BASE_URL: instance.url,
      LMS_CA_FILE: ca,
      NODE_OPTIONS: '--use-openssl-ca',
      SSL_CERT_FILE: file(),
      ...extra,
    });
  const api = (args: string[], e: Record<string, string>) => spawnLms(['api', ...args, '-o', 'json'], e);

  it(
    'is trusted: refused by the CA file alone, asked again with the roots, which then serve the rest of the ' +
      'command',
    async () => {
      const before = instance.connections();
      const r = await api(
        ['GET', '/api/v1/things', '--paginate'],
        roots(() => rootsFile),
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }, { id: 2 }]);
      expect(instance.requests).toEqual(['GET /api/v1/things?per_page=100', 'GET /api/v1/things?page=2']);
      // One connection refused, one kept alive for both pages: the second page did not try the CA file's context again.
      expect(instance.connections() - before).toBe(2);
    },
  );

  it('a POST refused by the CA file alone reaches the instance once', async () => {
    const before = instance.connections();
    const r = await api(
      ['POST', '/api/v1/things', '-f', 'name=once'],
      roots(() => rootsFile),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(instance.requests).toEqual(['POST /api/v1/things name=once']);
    expect(instance.connections() - before).toBe(2);
  });

  it('is trusted through a proxy too, each attempt in a tunnel of its own', async () => {
    const seen = proxy.seen.length;
    const r = await api(
      ['POST', '/api/v1/things', '-f', 'name=tunnelled'],
      roots(() => rootsFile, { HTTPS_PROXY: `http://ann:s%40cret@127.0.0.1:${proxy.port}` }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(instance.requests).toEqual(['POST /api/v1/things name=tunnelled']);
    expect(proxy.seen.slice(seen)).toEqual([
      `CONNECT ${new URL(instance.url).host}`,
      `CONNECT ${new URL(instance.url).host}`,
    ]);
  });

  it('trusted by neither the roots nor the CA file: exit 7, the CA file named, nothing sent', async () => {
    // The roots hold the mock's authority, as the CA file does: neither vouches for this instance.
    const r = await api(
      ['POST', '/api/v1/things', '-f', 'name=never'],
      roots(() => ca),
    );
    expect(r.exitCode).toBe(7);
    const error = errorOf(r.stderr);
    expect(
      error.message.startsWith(
        `cannot verify the TLS certificate of ${new URL(instance.url).host} (DEPTH_ZERO_SELF_SIGNED_CERT): ` +
          'self-signed certificate',
      ),
    ).toBe(true);
    expect(error.hint).toBe(
      `the CA file ${ca} (from LMS_CA_FILE) does not vouch for it: is it the authority that issued the instance's ` +
        'certificate?',
    );
    expect(instance.requests).toEqual([]);
  });
});

describe('the main journeys over HTTPS through a proxy', () => {
  const tunnel = () => `CONNECT ${new URL(served.url).host}`;

  it('a listing', async () => {
    const before = proxy.seen.length;
    const r = await listUsers(proxied(), ['-v', '--all', '--per-page', '4']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`through the proxy http://[REDACTED]@127.0.0.1:${proxy.port} (from HTTPS_PROXY)`);
    expect(r.stderr).not.toMatch(/ann|s@cret|s%40cret/);
    // Every page through one kept-alive tunnel.
    expect(proxy.seen.slice(before)).toEqual([tunnel()]);
  });

  it('a file upload: step 2 goes to the upload URL the instance names, through the proxy too', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'uploaded over TLS through a proxy\n');
    const before = proxy.seen.length;
    const r = await spawnLms(['users', 'upload', file, '-o', 'json', '-v'], proxied());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ display_name: 'notes.txt', size: 34 });
    expect(r.stderr).toMatch(/→ POST https:\/\/127\.0\.0\.1:\d+\/\[REDACTED\]/);
    expect(proxy.seen.slice(before)).toEqual([tunnel()]);
  });

  it('a bulk grade from a CSV file', async () => {
    const file = join(dir, 'grades.csv');
    writeFileSync(file, 'user,grade,comment\nsis_login_id:ravi,15,\nsis_login_id:mina,18,well done\n');
    const before = proxy.seen.length;
    const r = await spawnLms(
      ['grade', '--course', '1', '--assignment', '1', '--csv', file, '-o', 'json'],
      proxied({ LMS_STATE_DIR: join(dir, 'state-grade') }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.seen.slice(before)).toContain(tunnel());
    const back = await spawnLms(
      ['submissions', 'list', '--course', '1', '--assignment', '1', '--all', '-o', 'json'],
      proxied(),
    );
    const scores = Object.fromEntries(
      (JSON.parse(back.stdout) as { user_id: number; score: number | null }[]).map((s) => [s.user_id, s.score]),
    );
    expect([scores[9], scores[10]]).toEqual([15, 18]);
  });

  it('an apply', async () => {
    const file = join(dir, 'course.yaml');
    writeFileSync(
      file,
      'courses:\n  - sis_course_id: TLS-1\n    name: Over TLS\n    course_code: TLS-1\n    account: ' +
        'sis_account_id:MSU\n    assignments:\n      - { key: a1, name: Lab 1, points_possible: 10 }\n',
    );
    const before = proxy.seen.length;
    const r = await spawnLms(
      ['apply', '-f', file, '--yes', '-o', 'json'],
      proxied({ LMS_STATE_DIR: join(dir, 'state-apply') }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ create: 2 });
    expect(proxy.seen.slice(before)).toContain(tunnel());
    const again = await spawnLms(
      ['apply', '-f', file, '--yes', '-o', 'json'],
      proxied({ LMS_STATE_DIR: join(dir, 'state-apply') }),
    );
    expect(JSON.parse(again.stdout).summary).toMatchObject({ create: 0, update: 0 });
  });

  it('an OAuth login (the consent form posted by the test)', { timeout: 30_000 }, async () => {
    const key = await developerKey(env);
    const before = proxy.seen.length;
    const { exitCode, stderr } = await loginOverTls(
      ['--url', served.url, '--client-id', key.client_id, '--client-secret-stdin', '--insecure-storage'],
      { ...proxied(), LMS_BASE_URL: '', LMS_TOKEN: '' },
      key.client_secret,
    );
    expect(exitCode, stderr).toBe(0);
    expect(stderr).toMatch(/Logged in to 127\.0\.0\.1:\d+ as /);
    // The token exchange and the check of the new token went through the tunnel.
    expect(proxy.seen.slice(before)).toContain(tunnel());
    expect(stderr).not.toContain(key.client_secret);
  });
});

describe("a login's own certificate authority (auth login --ca-file)", () => {
  it('is trusted for the login, kept in the profile, and trusted again for commands and logout (a public key)', {
    timeout: 30_000,
  }, async () => {
    const key = await developerKey(env, 'public');
    const e = { ...env, LMS_CACHE_DIR: join(dir, 'cache'), LMS_CONFIG_DIR: join(dir, 'config-ca-login') };
    const login = await loginOverTls(
      ['-p', 'tls', '--url', served.url, '--client-id', key.client_id, '--insecure-storage', '--ca-file', ca],
      e,
    );
    expect(login.exitCode, login.stderr).toBe(0);
    const shown = await spawnLms(['profile', 'show', 'tls', '-o', 'json'], e);
    expect(JSON.parse(shown.stdout)).toMatchObject({ ca_file: ca });
    const self = await spawnLms(['-p', 'tls', 'users', 'get', 'self', '--fields', 'id', '-o', 'json'], e);
    expect(self.exitCode, self.stderr).toBe(0);
    // Logged in again without --ca-file: the profile's CA stays, for the same URL.
    const again = await loginOverTls(['-p', 'tls', '--insecure-storage'], e);
    expect(again.exitCode, again.stderr).toBe(0);
    const out = await spawnLms(['-p', 'tls', 'auth', 'logout'], e);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stderr).toContain('the token was revoked');
  });

  it('an unreadable --ca-file is exit 2 before any browser', async () => {
    const r = await spawnLms(
      [
        'auth',
        'login',
        '-p',
        'x',
        '--url',
        served.url,
        '--client-id',
        '1',
        '--no-browser',
        '--ca-file',
        join(dir, 'missing.pem'),
      ],
      { ...env, LMS_CONFIG_DIR: join(dir, 'config-missing') },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('missing.pem');
    expect(r.stderr).not.toContain('/login/oauth2/auth');
  });
});

/**
 * `lms auth login ARGS --no-browser`, the test acting as the browser: it reads the URL, posts the consent as Sam, and
 * follows the redirect.
 */
async function loginOverTls(
  args: string[],
  e: Record<string, string>,
  secret?: string | null,
): Promise<{ exitCode: number | null; stderr: string }> {
  const { spawn } = await import('node:child_process');
  const { bin } = await import('../helpers/e2e.js');
  const child = spawn(process.execPath, [bin, 'auth', 'login', '--no-browser', ...args], {
    env: { ...process.env, ...e },
  });
  child.stdin.end(secret ?? undefined);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const address = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /^ {2}(https\S+)$/m.exec(stderr);
      if (m) resolve(m[1]);
    });
    void exited.then((code) =>
      reject(new Error(`lms auth login ended before printing the URL (exit ${code}): ${stderr}`)),
    );
  });
  // The test is the browser: it trusts the mock's certificate itself.
  const consent = await httpsSend('GET', address);
  expect(consent.status).toBe(200);
  const action = /<form method="post" action="([^"]+)">/.exec(consent.body)?.[1];
  const unescapeHtml = (v: string) =>
    v.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  const fields = Object.fromEntries(
    [...consent.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      unescapeHtml(m[2]),
    ]),
  );
  const approved = await httpsSend(
    'POST',
    new URL(action!, served.url).href,
    new URLSearchParams({ ...fields, approve: '1' }).toString(),
    { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${SAM}` },
  );
  expect(approved.status).toBe(302);
  expect((await fetch(approved.location!)).status).toBe(200);
  return { exitCode: await exited, stderr };
}

/** One request to the mock with its certificate trusted, as a browser that had imported it would. */
function httpsSend(
  method: string,
  url: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { 'user-agent': 'test-browser', ...headers }, ca: readFileSync(ca) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, location: res.headers.location }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

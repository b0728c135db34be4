// End to end: the built binary against `lms mock serve` through a forwarding proxy on loopback
// (test/helpers/proxy.ts), as at a school or in a CI network whose traffic must go through one.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/commands/doctor/checks.js';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

const { dir, env } = e2eWorkspace('e2e-proxy');
let served: Served;
const proxies: TestProxy[] = [];

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], env);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  served = await serveMock(env, ['--quiet']);
});

afterAll(async () => {
  for (const p of proxies) await p.close();
  await served?.stop();
});

async function proxy(options: Parameters<typeof startProxy>[0] = {}): Promise<TestProxy> {
  const p = await startProxy(options);
  proxies.push(p);
  return p;
}

const instance = () => ({ ...env, LMS_CACHE_DIR: join(dir, 'cache'), LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN });
// The mock is served over plain http, so its token through a proxy needs --insecure: without it the
// request is refused before it is sent (test/e2e/hostile-answers.test.ts), loopback or not.
const users = (extra: Record<string, string>, flags: string[] = []) =>
  spawnLms(['users', 'list', '--account', '1', '--all', '--per-page', '3', '-o', 'json', '--insecure', ...flags], {
    ...instance(),
    ...extra,
  });

describe('lms through a proxy', () => {
  it(
    'sends every request of a listing through the proxy, on one kept-alive connection, its credentials to the ' +
      'proxy alone and in no output',
    async () => {
      const p = await proxy({ credentials: 'ann_p:s@cret:1' });
      const r = await users({ HTTP_PROXY: `http://ann_p:s%40cret%3A1@127.0.0.1:${p.port}` }, ['-v']);
      expect(r.exitCode, r.stderr).toBe(0);
      const listed = JSON.parse(r.stdout) as unknown[];
      expect(listed.length).toBeGreaterThan(3);
      const pages = Math.ceil(listed.length / 3);
      expect(p.seen).toHaveLength(pages);
      expect(p.seen.every((line) => line.startsWith(`GET ${served.url}/api/v1/accounts/1/users?`))).toBe(true);
      expect(new Set(p.authorizations)).toEqual(new Set([`Basic ${Buffer.from('ann_p:s@cret:1').toString('base64')}`]));
      expect(p.connections()).toBe(1);
      expect(r.stderr).toContain(
        `${new URL(served.url).host}: through the proxy http://[REDACTED]@127.0.0.1:${p.port} (from HTTP_PROXY)`,
      );
      for (const secret of ['ann_p', 's@cret', 's%40cret', Buffer.from('ann_p:s@cret:1').toString('base64')])
        expect(r.stdout + r.stderr).not.toContain(secret);
    },
  );

  it('goes directly to a host NO_PROXY names', async () => {
    const p = await proxy();
    const r = await users({ HTTP_PROXY: p.url, NO_PROXY: `localhost,127.0.0.1:${new URL(served.url).port}` }, ['-v']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(p.seen).toEqual([]);
    expect(r.stderr).toContain(`directly: bypassed by NO_PROXY ("127.0.0.1:${new URL(served.url).port}")`);
  });

  it('a proxy that asks for credentials: exit 7, naming the proxy and what to do', async () => {
    const p = await proxy({ credentials: 'ann_p:pw_p' });
    const r = await users({ http_proxy: p.url });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(`the proxy http://127.0.0.1:${p.port} (from http_proxy) asks for credentials (407)`);
    expect(r.stderr).toContain(`http_proxy=http://USER:PASSWORD@127.0.0.1:${p.port}`);
    // Not retried: it would ask again.
    expect(p.seen).toHaveLength(1);
  });

  // A remote instance over plain http (--insecure) is asked through the proxy without a tunnel: the
  // proxy's own answer is not the instance's 403 (exit 3) or 502 (retried, exit 6).
  it.each([
    [
      'refuses the request',
      { refuseRequests: 403 } as { refuseRequests?: number },
      'refused to connect to lms.example.edu (403)',
    ],
    ['cannot reach the instance', {}, 'could not connect to lms.example.edu (502)'],
  ])(
    'a proxy that %s for a plain http instance (--insecure): exit 7, naming the proxy and its status',
    async (_what, options, words) => {
      const p = await proxy(options);
      const r = await spawnLms(['users', 'list', '--account', '1', '--insecure', '-o', 'json'], {
        ...instance(),
        LMS_BASE_URL: 'http://lms.example.edu',
        HTTP_PROXY: p.url,
      });
      expect(r.exitCode, r.stderr).toBe(7);
      // After --insecure's warning, the error as JSON.
      const { message } = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { message: string };
      // A refusal is said as it is; an instance out of reach, with the tries it was given.
      expect(message.replace(/ \(\d+ tries over \d+(\.\d)? s within --timeout 30\)$/, '')).toBe(
        `the proxy http://127.0.0.1:${p.port} (from HTTP_PROXY) ${words}`,
      );
      // A refusal is not asked again; an instance out of reach is, as any network error of a read.
      expect(new Set(p.seen)).toEqual(new Set(['GET http://lms.example.edu/api/v1/accounts/1/users?per_page=100']));
      if (options.refuseRequests === 403) expect(p.seen).toHaveLength(1);
    },
  );

  it('a proxy that refuses the connection: exit 7, naming the proxy with its credentials masked', {
    timeout: 30_000,
  }, async () => {
    const p = await proxy();
    await p.close();
    const r = await users({ HTTP_PROXY: `http://ann_p:pw_p@127.0.0.1:${p.port}` });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(
      `the proxy http://[REDACTED]@127.0.0.1:${p.port} (from HTTP_PROXY) refused the connection`,
    );
    expect(r.stderr).not.toMatch(/ann_p|pw_p@/);
  });

  it.each([
    [
      'HTTP_PROXY',
      'socks5://ann_p:pw_p@127.0.0.1:1080',
      /HTTP_PROXY names a socks5:\/\/ proxy \(socks5:\/\/\[REDACTED\]@127\.0\.0\.1:1080\), which lms does not support/,
    ],
    ['http_proxy', 'http://[::1', /^http_proxy is not a proxy URL: "http:\/\/\[::1"$/],
  ])('a malformed %s: exit 2 naming it, nothing sent', async (variable, value, message) => {
    const r = await users({ [variable]: value });
    expect(r.exitCode).toBe(2);
    expect((JSON.parse(r.stderr) as { message: string }).message).toMatch(message);
    expect(r.stderr).not.toContain('pw_p');
  });

  it(
    'a malformed variable of the other scheme stops nothing (ALL_PROXY=socks5://… set for ssh or Tor, HTTPS_PROXY ' +
      "for this http instance's neighbours)",
    async () => {
      const r = await users({ HTTPS_PROXY: 'socks5://127.0.0.1:9050' });
      expect(r.exitCode, r.stderr).toBe(0);
    },
  );

  it('lms doctor shows the proxy in use, and fails reachable with the fix when it refuses', async () => {
    const checksOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as Check[]).map((c) => [c.check, c]));
    const host = new URL(served.url).host;
    const open = await proxy();
    const ok = await spawnLms(['doctor', '-o', 'json', '--insecure'], {
      ...instance(),
      HTTP_PROXY: `http://ann_p:pw_p@127.0.0.1:${open.port}`,
    });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(checksOf(ok.stdout).proxy).toEqual({
      check: 'proxy',
      status: 'ok',
      detail: `${host} is reached through http://[REDACTED]@127.0.0.1:${open.port} (from HTTP_PROXY)`,
    });
    expect(open.seen.length).toBeGreaterThan(0);
    expect(ok.stdout + ok.stderr).not.toContain('pw_p');

    const bypassed = await spawnLms(['doctor', '-o', 'json', '--insecure'], {
      ...instance(),
      HTTP_PROXY: open.url,
      no_proxy: '127.0.0.1',
    });
    expect(checksOf(bypassed.stdout).proxy.detail).toBe(
      `bypassed by no_proxy ("127.0.0.1"): ${host} is reached directly`,
    );
    const none = await spawnLms(['doctor', '-o', 'json'], instance());
    expect(checksOf(none.stdout).proxy.detail).toBe(`none: ${host} is reached directly`);

    const asking = await proxy({ credentials: 'ann_p:right' });
    const failed = await spawnLms(['doctor', '-o', 'json', '--insecure'], {
      ...instance(),
      HTTP_PROXY: `http://ann_p:wrong@127.0.0.1:${asking.port}`,
    });
    expect(failed.exitCode).toBe(1);
    const checks = checksOf(failed.stdout);
    expect(checks.reachable).toMatchObject({
      status: 'fail',
      detail:
        `not reachable: the proxy http://[REDACTED]@127.0.0.1:${asking.port} (from HTTP_PROXY) did not accept ` +
        'the credentials in HTTP_PROXY (407)',
    });
    expect(checks.reachable.fix).toMatch(/check the user and password in HTTP_PROXY/);
    expect(failed.stdout + failed.stderr).not.toContain('wrong');

    const malformed = await spawnLms(['doctor', '-o', 'json', '--insecure'], {
      ...instance(),
      HTTP_PROXY: 'socks5://p:1080',
    });
    expect(checksOf(malformed.stdout).proxy).toMatchObject({
      status: 'fail',
      detail: 'HTTP_PROXY names a socks5:// proxy (socks5://p:1080), which lms does not support',
    });
  });
});

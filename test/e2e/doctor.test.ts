// End to end: the built binary's `lms doctor` against `lms mock serve`, healthy and with the faults
// it exists to find: a throttled token, a server whose clock is off, a bad token, a stopped server.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/commands/doctor/checks.js';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-doctor');
const servers: Served[] = [];
const proxies: Server[] = [];

async function serve(name: string, flags: string[] = []): Promise<Served> {
  const served = await serveMock({ ...env, LMS_MOCK_DB: join(dir, `${name}.db`) }, flags);
  servers.push(served);
  return served;
}

function doctor(url: string, args: string[] = [], token = ADMIN) {
  return spawnLms(['doctor', '-o', 'json', ...args], {
    ...env,
    LMS_CACHE_DIR: join(dir, 'cache'),
    LMS_BASE_URL: url,
    LMS_TOKEN: token,
  });
}

/** The checks of a `-o json` run, by name. */
function checksOf(stdout: string): Record<string, Check> {
  return Object.fromEntries((JSON.parse(stdout) as Check[]).map((c) => [c.check, c]));
}

const hostOf = (url: string) => new URL(url).host;

/**
 * Sends `GET /api/v1/users/self` as the admin until the mock's throttle answers `until` (or `times` have been sent).
 */
async function spend(server: Served, { times, until }: { times: number; until?: number }): Promise<number> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${server.url}/api/v1/users/self`, { headers: { authorization: `Bearer ${ADMIN}` } });
    await res.arrayBuffer();
    if (res.status === until) return i + 1;
  }
  return times;
}

/** A proxy in front of `target` whose answers carry a `Date` `offsetMs` off the real one. */
async function skewedProxy(target: string, offsetMs: number): Promise<string> {
  const upstream = new URL(target);
  const proxy = createServer((req, res) => {
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          date: new Date(Date.now() + offsetMs).toUTCString(),
        });
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeAll(ensureBuilt);

afterAll(async () => {
  for (const p of proxies) p.close();
  await Promise.all(servers.map((s) => s.stop()));
});

describe('lms doctor against lms mock serve', () => {
  let plain: Served;
  beforeAll(async () => {
    plain = await serve('plain');
  });

  it(
    'passes, exit 0, every check in the JSON; the rate-limit ' +
      'bucket measured from the headers every answer carries',
    async () => {
      const r = await doctor(plain.url);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const checks = checksOf(r.stdout);
      expect(Object.keys(checks)).toEqual([
        'node',
        'sqlite',
        'instance',
        'config',
        'token',
        'proxy',
        'trust',
        'reachable',
        'auth',
        'clock',
        'rate limit',
        'masquerade',
        'code cache',
        'state',
      ]);
      const host = hostOf(plain.url);
      expect(checks.instance).toMatchObject({
        status: 'ok',
        detail: `${plain.url}, from LMS_BASE_URL in the environment`,
      });
      expect(checks.trust).toEqual({ check: 'trust', status: 'ok', detail: `not used: ${host} is plain HTTP` });
      expect(checks.reachable).toEqual({
        check: 'reachable',
        status: 'ok',
        detail: `${host} answered over plain HTTP`,
      });
      expect(checks.auth).toEqual({
        check: 'auth',
        status: 'ok',
        detail: `accepted by ${host}: Ada Admin (user 1, admin)`,
      });
      expect(checks.clock).toEqual({
        check: 'clock',
        status: 'ok',
        detail: "this machine's clock is in step with the instance's",
      });
      expect(checks['rate limit']).toEqual({
        check: 'rate limit',
        status: 'ok',
        // The mock's cost is the time the answer took, so it varies from run to run.
        detail: expect.stringMatching(
          /^700 left in the rate-limit bucket \(X-Rate-Limit-Remaining; this check cost [\d.]+\): room for about \d+ requests at once$/,
        ),
      });
      expect(checks.masquerade).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(
          /^allowed: Ada Admin \(user 1\) may act as other users with --as-user \(tried as .+ \(user \d+\)\)$/,
        ),
      });
      expect(Object.values(checks).filter((c) => c.status === 'fail')).toEqual([]);
      expect(r.stdout + r.stderr).not.toContain(ADMIN);
    },
  );

  it('fails, exit 1, on a token the server does not accept: the auth line, with the fix', async () => {
    const r = await doctor(plain.url, [], '1~not-a-token');
    expect(r.exitCode).toBe(1);
    const checks = checksOf(r.stdout);
    const host = hostOf(plain.url);
    expect(checks.token).toMatchObject({ status: 'ok', detail: 'present, from LMS_TOKEN (never shown)' });
    expect(checks.reachable).toMatchObject({ status: 'ok', detail: `${host} answered (401) over plain HTTP` });
    expect(checks.auth).toEqual({
      check: 'auth',
      status: 'fail',
      detail: `${host} did not accept the token (401)`,
      fix: 'LMS_TOKEN was refused: set it to a valid token, or unset it to use a profile',
    });
    expect(checks.masquerade).toMatchObject({ status: 'warn', detail: 'not checked: no user to start from' });
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: auth', exit_code: 1 });
    expect(r.stdout + r.stderr).not.toContain('not-a-token');
  });

  it('fails, exit 1, when --as-user names someone the token may not act as', async () => {
    const r = await doctor(plain.url, ['--as-user', '7'], '2~mock-helpdesk');
    expect(r.exitCode).toBe(1);
    const checks = checksOf(r.stdout);
    expect(checks.auth.detail).toBe(`accepted by ${hostOf(plain.url)}: Hal Helpdesk (user 2, helpdesk)`);
    expect(checks.masquerade).toMatchObject({
      status: 'fail',
      detail:
        `not allowed: ${hostOf(plain.url)} refused to let Hal Helpdesk (user 2) act as user 7 (401), so every ` +
        'command with --as-user 7 fails',
    });
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: masquerade' });
  });

  it("warns of a server whose Date is five minutes behind this machine's, and still exits 0", async () => {
    const proxy = await skewedProxy(plain.url, -300_000);
    const r = await doctor(proxy);
    expect(r.exitCode, r.stderr).toBe(0);
    const checks = checksOf(r.stdout);
    expect(checks.auth.status).toBe('ok');
    expect(checks.clock).toEqual({
      check: 'clock',
      status: 'warn',
      detail:
        "this machine's clock is 5 min ahead of the instance's: relative times and dates lms works out will be off",
      fix: expect.stringContaining('network time'),
    });
  });

  // The client retries a refused connection with jittered backoff (about 4 s in all) before giving up.
  it('fails, exit 1, on a stopped server: not reachable, with the fix', { timeout: 30_000 }, async () => {
    const gone = await serve('stopped');
    await gone.stop();
    const r = await doctor(gone.url);
    expect(r.exitCode).toBe(1);
    const checks = checksOf(r.stdout);
    expect(checks.reachable).toEqual({
      check: 'reachable',
      status: 'fail',
      detail: expect.stringMatching(
        new RegExp(
          `^not reachable: ${hostOf(gone.url).replace(/\./g, '\\.')} refused the connection \\(2 tries over ` +
            `\\d+(\\.\\d)? s within --timeout 30\\)$`,
        ),
      ),
      fix: 'is the base URL right, and is the server up?',
    });
    // One cause, one failure: what needed an answer is not checked rather than failed again.
    expect(['auth', 'rate limit', 'masquerade'].map((name) => checks[name].status)).toEqual(['warn', 'warn', 'warn']);
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: reachable', exit_code: 1 });
  });
});

describe('lms doctor against a throttling lms mock serve', () => {
  it('reports the headroom of a healthy bucket, exit 0', async () => {
    const server = await serve('roomy', ['--throttle']);
    const r = await doctor(server.url);
    expect(r.exitCode, r.stderr).toBe(0);
    // A bucket of 700, and this check's own cost of 10.
    expect(checksOf(r.stdout)['rate limit']).toEqual({
      check: 'rate limit',
      status: 'ok',
      detail:
        '690 left in the rate-limit bucket (X-Rate-Limit-Remaining; this check cost 10): room for about 13 requests ' +
        'at once',
    });
  });

  // A bucket that does not drain, so what is left is exactly what was spent.
  it('fails, exit 1, when little is left, with the figure and the fix', async () => {
    const server = await serve('low', ['--throttle', '--throttle-rate', '0']);
    await spend(server, { times: 55 });
    const r = await doctor(server.url);
    expect(r.exitCode).toBe(1);
    const checks = checksOf(r.stdout);
    expect(checks['rate limit']).toEqual({
      check: 'rate limit',
      status: 'fail',
      detail:
        "only 140 left in the rate-limit bucket (X-Rate-Limit-Remaining; this check cost 10): under 200, what lms's " +
        '4 requests at once are charged up front, so commands now are slowed to one request at a time or ' +
        'throttled',
      fix: expect.stringMatching(/wait a minute for the bucket to refill.*--concurrency.*--per-page/),
    });
    expect(checks.auth.status).toBe('ok');
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: rate limit' });
  });

  // Every try is throttled: the client backs off four times (about 4 s in all) before giving up.
  it('fails, exit 1, when the server is throttling the token now, and does not blame the token', {
    timeout: 30_000,
  }, async () => {
    const server = await serve('full', ['--throttle', '--throttle-rate', '0']);
    const sent = await spend(server, { times: 100, until: 403 });
    expect(sent).toBeLessThan(100);
    const r = await doctor(server.url);
    expect(r.exitCode).toBe(1);
    const checks = checksOf(r.stdout);
    expect(checks['rate limit']).toEqual({
      check: 'rate limit',
      status: 'fail',
      detail: `${hostOf(server.url)} is throttling this token now: it answered 403 (Rate Limit Exceeded) to every try`,
      fix: expect.stringContaining('wait a minute'),
    });
    expect(checks.auth).toEqual({
      check: 'auth',
      status: 'warn',
      detail: `not checked: ${hostOf(server.url)} throttled the request`,
    });
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: rate limit' });
  });
});

import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/entry.js';
import { NetworkError, UsageError } from '../../src/errors.js';
import {
  DEFAULT_THROTTLE,
  DroppedConnection,
  describeFaults,
  inProcess,
  parseFaultsEnv,
  withFaults,
  type ThrottleOptions,
} from '../../src/mock/faults.js';
import type { MockHandler } from '../../src/mock/handler.js';
import { openMock } from '../../src/mock/runtime.js';
import { serveMock } from '../../src/mock/serve.js';
import type { ApiRequest, ApiResponse } from '../../src/transport/types.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshMock, seedSchool, TOKENS } from '../helpers/mock-client.js';

const get = (path: string, token: string | undefined = TOKENS.admin): ApiRequest => ({
  method: 'GET',
  url: `http://lms.mock${path}`,
  headers: token ? { authorization: `Bearer ${token}` } : {},
});

/** A handler that counts its calls and answers 200, optionally after a while. */
function counting(delayMs = 0): MockHandler & { calls: number } {
  const h = Object.assign(
    async (): Promise<ApiResponse> => {
      h.calls++;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    },
    { calls: 0 },
  );
  return h;
}

function clock(start = 0) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const throttle = (o: Partial<ThrottleOptions>): ThrottleOptions => ({ ...DEFAULT_THROTTLE, ...o });

describe('throttle: a leaky bucket per token', () => {
  it('rejects when full, without calling the handler, and recovers after leaking', async () => {
    const inner = counting();
    const c = clock();
    const h = withFaults(
      inner,
      { throttle: throttle({ capacity: 100, penalty: 50, cost: 30, leakPerSecond: 10 }) },
      c.now,
    );
    expect((await h(get('/api/v1/users/self'))).headers['x-rate-limit-remaining']).toBe('70.00');
    expect((await h(get('/api/v1/users/self'))).headers['x-rate-limit-remaining']).toBe('40.00');
    // 60 used + 50 in flight > 100.
    const refused = await h(get('/api/v1/users/self'));
    expect(refused.status).toBe(403);
    expect(refused.body).toBe('403 Forbidden (Rate Limit Exceeded)');
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.headers['x-request-cost']).toBe('0');
    expect(refused.headers['x-rate-limit-remaining']).toBe('40.00');
    expect(inner.calls).toBe(2);
    expect(h.stats).toMatchObject({ requests: 3, throttled: 1 });

    c.advance(500); // 60 → 55: still too full
    expect((await h(get('/api/v1/users/self'))).status).toBe(403);
    c.advance(500); // → 50: 50 + 50 fits
    const ok = await h(get('/api/v1/users/self'));
    expect(ok.status).toBe(200);
    expect(ok.headers['x-rate-limit-remaining']).toBe('20.00');
    expect(inner.calls).toBe(3);
  });

  it('refunds the in-flight penalty: alone, a request leaves capacity - cost', async () => {
    const h = withFaults(freshMock().handler, { throttle: DEFAULT_THROTTLE }, clock().now);
    const res = await h(get('/api/v1/users/self'));
    expect(res.status).toBe(200);
    expect(res.headers['x-request-cost']).toBe('10');
    expect(res.headers['x-rate-limit-remaining']).toBe('690.00');
  });

  it('charges the penalty while requests are in flight, so concurrency is what gets throttled', async () => {
    const inner = counting(30);
    const h = withFaults(inner, { throttle: throttle({ capacity: 120, penalty: 50, cost: 0 }) }, clock().now);
    const answers = await Promise.all([h(get('/x')), h(get('/x')), h(get('/x'))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 403]);
    expect(inner.calls).toBe(2);
    // Both refunded: the bucket is empty again.
    expect((await h(get('/x'))).headers['x-rate-limit-remaining']).toBe('120.00');
  });

  it('keeps one bucket per token; requests without one share a bucket', async () => {
    const h = withFaults(
      counting(),
      { throttle: throttle({ capacity: 60, penalty: 50, cost: 20, leakPerSecond: 0 }) },
      clock().now,
    );
    expect((await h(get('/x', 'a'))).status).toBe(200);
    expect((await h(get('/x', 'a'))).status).toBe(403);
    expect((await h(get('/x', 'b'))).status).toBe(200);
    expect((await h(get('/x', undefined))).status).toBe(200);
    expect((await h(get('/x', undefined))).status).toBe(403);
  });

  it('puts the rate headers on every answer: success, API errors and injected failures', async () => {
    const h = withFaults(freshMock().handler, { throttle: DEFAULT_THROTTLE }, clock().now);
    const answers = [
      await h(get('/api/v1/users/self')),
      await h(get('/api/v1/users/987654')),
      await h(get('/api/v1/users/self', 'bad-token')),
      await h(get('/api/v1/nope')),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 401, 404]);
    for (const a of answers) {
      expect(a.headers['x-request-cost']).toBe('10');
      expect(Number(a.headers['x-rate-limit-remaining'])).toBeGreaterThan(0);
    }
    const failing = withFaults(counting(), { throttle: DEFAULT_THROTTLE, failRate: 1, seed: 1 }, clock().now);
    const failed = await failing(get('/x'));
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.headers['x-rate-limit-remaining']).toBe('690.00');
  });

  it('answers 429 Too Many Requests when told to', async () => {
    const h = withFaults(
      counting(),
      { throttle: throttle({ capacity: 50, penalty: 50, cost: 10, leakPerSecond: 0, status: 429 }) },
      clock().now,
    );
    expect((await h(get('/x'))).status).toBe(200);
    const refused = await h(get('/x'));
    expect(refused.status).toBe(429);
    expect(refused.body).toBe('429 Too Many Requests (Rate Limit Exceeded)');
    expect(refused.headers).toMatchObject({ 'x-request-cost': '0', 'x-rate-limit-remaining': '40.00' });
  });
});

describe('failures and drops', () => {
  it('fail-rate 1 answers 500, 502 or 503 in the API error shape and never calls the handler', async () => {
    const inner = counting();
    const h = withFaults(inner, { failRate: 1, seed: 42 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => h(get('/x'))));
    expect(inner.calls).toBe(0);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([500, 502, 503]));
    for (const a of answers) {
      const body = JSON.parse(String(a.body)) as { errors: { message: string }[] };
      expect(body.errors[0].message).toMatch(/fault injected by the mock/);
    }
    expect(h.stats).toMatchObject({ requests: 40, failed: 40, dropped: 0 });
  });

  it('picks from the given statuses', async () => {
    const h = withFaults(counting(), { failRate: 1, failStatuses: [503], seed: 1 });
    expect((await Promise.all([h(get('/x')), h(get('/x')), h(get('/x'))])).map((a) => a.status)).toEqual([
      503, 503, 503,
    ]);
  });

  it('drop-rate 1 drops some before and some after the change; the applied ones really happened', async () => {
    const mock = freshMock();
    const h = withFaults(mock.handler, { dropRate: 1, seed: 5 });
    const results: { login: string; applied: boolean }[] = [];
    for (let i = 0; i < 20; i++) {
      const login = `dropped-${i}`;
      const error = await h({
        method: 'POST',
        url: 'http://lms.mock/api/v1/accounts/self/users',
        headers: { authorization: `Bearer ${TOKENS.admin}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'user[name]': `Dropped ${i}`, 'pseudonym[unique_id]': login }).toString(),
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DroppedConnection);
      results.push({ login, applied: (error as DroppedConnection).applied });
    }
    const applied = results.filter((r) => r.applied).map((r) => r.login);
    expect(applied.length).toBeGreaterThan(0);
    expect(applied.length).toBeLessThan(results.length);
    const inDb = (
      mock.db.prepare(`SELECT unique_id FROM pseudonyms WHERE unique_id LIKE 'dropped-%'`).all() as {
        unique_id: string;
      }[]
    ).map((r) => r.unique_id);
    expect(inDb.sort()).toEqual(applied.sort());
    expect(h.stats).toMatchObject({
      requests: 20,
      dropped: 20,
      droppedAfter: applied.length,
      droppedBefore: 20 - applied.length,
    });
  });

  it('the same seed gives the same sequence; another seed another one', async () => {
    const fates = async (seed: number) => {
      const h = withFaults(counting(), { failRate: 0.3, dropRate: 0.3, seed });
      const out: string[] = [];
      for (let i = 0; i < 40; i++) {
        out.push(
          await h(get('/x')).then(
            (r) => String(r.status),
            (e: DroppedConnection) => (e.applied ? 'drop-after' : 'drop-before'),
          ),
        );
      }
      return out;
    };
    const first = await fates(7);
    expect(await fates(7)).toEqual(first);
    expect(await fates(8)).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set(['200', '500', '502', '503', 'drop-before', 'drop-after']));
  });

  it('waits latencyMs before answering', async () => {
    const h = withFaults(counting(), { latencyMs: 40 });
    const started = performance.now();
    await h(get('/x'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  it('rejects unusable options', () => {
    expect(() => withFaults(counting(), { failRate: 1.5 })).toThrow(/failRate/);
    expect(() => withFaults(counting(), { throttle: throttle({ capacity: 10, penalty: 50 }) })).toThrow(/penalty/);
  });

  it('describes the active faults in one line', () => {
    expect(describeFaults({})).toBe('no faults');
    expect(describeFaults({ throttle: DEFAULT_THROTTLE, failRate: 0.3, dropRate: 0.05, latencyMs: 20, seed: 7 })).toBe(
      'throttle 403 (capacity 700, penalty 50, cost 10, leak 100/s), fail 30% (500/502/503), drop 5%, latency 20 ' +
        'ms, seed 7',
    );
  });
});

describe('in process', () => {
  it('a dropped connection looks like a reset one', async () => {
    const h = inProcess(withFaults(counting(), { dropRate: 1, seed: 3 }));
    const error = await h(get('/x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'ECONNRESET', neverSent: false, message: 'connection reset by the mock' });
    expect(h.stats.dropped).toBe(1);
  });

  it('LMS_MOCK_FAULTS faults the --mock handler', async () => {
    const mock = openMock(
      ':memory:',
      { LMS_MOCK_FAULTS: '{"throttle":{"capacity":300},"failRate":0.5,"seed":1}' },
      seedSchool,
    );
    expect(mock.faults).toEqual({ throttle: { ...DEFAULT_THROTTLE, capacity: 300 }, failRate: 0.5, seed: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const res = await mock.handler(get('/api/v1/users/self'));
      statuses.add(res.status);
      expect(res.headers['x-rate-limit-remaining']).toBeDefined();
    }
    expect(statuses.has(200)).toBe(true);
    expect([...statuses].some((s) => s >= 500)).toBe(true);
    // The runtime keeps the clean handler for `mock serve`: its bucket never drains.
    expect((await mock.base!(get('/api/v1/users/self'))).headers['x-rate-limit-remaining']).toBe('700.0');
  });

  it('a dropped POST in --mock mode exits 7 and says the outcome is unknown', async () => {
    const mock = openMock(':memory:', { LMS_MOCK_FAULTS: '{"dropRate":1,"seed":2}' }, seedSchool);
    const io = fakeIO();
    const code = await run(['users', 'create', '--login-id', 'maybe', '--name', 'May Be'], {
      io,
      env: { LMS_MOCK: '1' },
      mock,
    });
    expect(code).toBe(7);
    expect(io.stderrText()).toContain('may or may not have been applied');
  });

  it('explains a bad LMS_MOCK_FAULTS', () => {
    expect(() => parseFaultsEnv('{failRate: 0.2}')).toThrow(UsageError);
    expect(() => parseFaultsEnv('{failRate: 0.2}')).toThrow(/LMS_MOCK_FAULTS is not valid JSON/);
    expect(() => parseFaultsEnv('[1]')).toThrow(/must be a JSON object/);
    expect(() => parseFaultsEnv('{"failrate":0.2}')).toThrow(/unknown key failrate/);
    expect(() => parseFaultsEnv('{"dropRate":2}')).toThrow(/dropRate must be a probability/);
    expect(() => parseFaultsEnv('{"throttle":{"status":418}}')).toThrow(/throttle.status must be 403 or 429/);
    expect(parseFaultsEnv('{"throttle":true,"latencyMs":5}')).toEqual({ throttle: DEFAULT_THROTTLE, latencyMs: 5 });
    expect(() => openMock(':memory:', { LMS_MOCK_FAULTS: 'nope' }, seedSchool)).toThrow(UsageError);
  });
});

describe('over HTTP', () => {
  it('destroys the socket without an answer and logs "drop"', async () => {
    const mock = freshMock();
    const lines: string[] = [];
    const { server, url } = await serveMock({
      handler: withFaults(mock.handler, { dropRate: 1, seed: 1 }),
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
    });
    try {
      const error = await fetch(`${url}/api/v1/users/self`, {
        headers: { authorization: `Bearer ${TOKENS.admin}` },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError); // fetch failed: the other side closed
      expect(lines).toEqual([expect.stringMatching(/^GET \/api\/v1\/users\/self drop \d+ms$/)]);
    } finally {
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
    }
  });
});

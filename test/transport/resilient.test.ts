import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/errors.js';
import { RateLimiter } from '../../src/transport/limiter.js';
import { OutcomeUnknownError, resilient } from '../../src/transport/resilient.js';
import type { ApiRequest, ApiResponse, HttpMethod } from '../../src/transport/types.js';

type Step = number | [number, string, Record<string, string>?] | NetworkError;

/** A transport that answers from a script, one step per call. */
function scripted(steps: Step[]) {
  const calls: ApiRequest[] = [];
  const transport = async (req: ApiRequest): Promise<ApiResponse> => {
    calls.push(req);
    const step = steps[Math.min(calls.length - 1, steps.length - 1)];
    if (step instanceof NetworkError) throw step;
    const [status, body, headers] = typeof step === 'number' ? [step, '{}', {}] : step;
    return { status, body, headers: headers ?? {} };
  };
  return { transport, calls };
}

function harness(steps: Step[], maxAttempts = 4) {
  const { transport, calls } = scripted(steps);
  const waits: number[] = [];
  const trace: string[] = [];
  let now = 0;
  const limiter = new RateLimiter({ maxConcurrency: 2, now: () => now });
  const sleep = async (ms: number) => {
    waits.push(ms);
    now += ms;
  };
  const wrapped = resilient(transport, {
    limiter,
    maxAttempts,
    random: () => 1,
    sleep,
    trace: (l) => trace.push(l),
    baseDelayMs: 100,
  });
  const send = (method: HttpMethod) =>
    wrapped({ method, url: 'https://lms.example/api/v1/x?access_token=sekrit', headers: {} });
  return { send, calls, waits, trace, limiter };
}

const reset = () => new NetworkError('socket hang up', { code: 'ECONNRESET' });
const refused = () => new NetworkError('refused', { code: 'ECONNREFUSED', neverSent: true });
const THROTTLED_403: Step = [403, '403 Forbidden (Rate Limit Exceeded)'];

describe('resilient transport', () => {
  it.each([
    ['GET after a 503', 'GET', [503, 200], 200, 2],
    ['PUT after a 502', 'PUT', [502, 504, 200], 200, 3],
    ['DELETE after a 500', 'DELETE', [500, 200], 200, 2],
    ['POST after a throttling 403 (refused, so never applied)', 'POST', [THROTTLED_403, 201], 201, 2],
    ['POST after a 429', 'POST', [429, 201], 201, 2],
    ['no POST after a 503 (it may have been applied)', 'POST', [503, 201], 503, 1],
    ['no retry of a permission 403', 'GET', [[403, '{"errors":[{"message":"forbidden"}]}'], 200], 403, 1],
    ['no retry of a 404', 'DELETE', [404, 200], 404, 1],
    ['gives up after the last try, returning the last answer', 'GET', [503, 503, 503, 503, 200], 503, 4],
  ] as const)('%s', async (_what, method, steps, status, calls) => {
    const h = harness(steps as unknown as Step[]);
    const res = await h.send(method);
    expect(res.status).toBe(status);
    expect(h.calls).toHaveLength(calls);
  });

  it('backs off exponentially with jitter, and honours Retry-After', async () => {
    const h = harness([503, 503, [429, '', { 'retry-after': '3' }], 200]);
    await h.send('GET');
    expect(h.waits).toEqual([100, 200, 3000]);
    expect(h.limiter.stats).toMatchObject({ retries: 3, throttled: 1 });
  });

  it('retries a dropped GET, and a POST only when the connection was refused', async () => {
    expect((await harness([reset(), 200]).send('GET')).status).toBe(200);
    expect((await harness([refused(), 201]).send('POST')).status).toBe(201);
  });

  it.each([
    'ENOTFOUND',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  ])('does not try again what the next try would fail alike: %s', async (code) => {
    const h = harness([new NetworkError(code, { code, neverSent: true }), 200]);
    await expect(h.send('GET')).rejects.toMatchObject({ code });
    expect(h.calls).toHaveLength(1);
    expect(h.waits).toEqual([]);
  });

  it('reports a POST whose outcome is unknown instead of resending it', async () => {
    const h = harness([reset(), 201]);
    const error = await h.send('POST').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).exitCode).toBe(7);
    expect((error as Error).message).toContain('may or may not have been applied');
    expect(h.calls).toHaveLength(1);
  });

  it('treats a PUT that says it is not idempotent like a POST: not resent after a drop or a 503', async () => {
    for (const steps of [
      [reset(), 200],
      [503, 200],
    ] as Step[][]) {
      const { transport, calls } = scripted(steps);
      const wrapped = resilient(transport, {
        limiter: new RateLimiter({ maxConcurrency: 1 }),
        maxAttempts: 4,
        random: () => 0,
        sleep: async () => {},
      });
      const outcome = await wrapped({
        method: 'PUT',
        url: 'https://lms.example/api/v1/x',
        headers: {},
        idempotent: false,
      }).then(
        (r) => r.status,
        (e: unknown) => e,
      );
      expect(calls).toHaveLength(1);
      if (steps[0] === 503) expect(outcome).toBe(503);
      else expect(outcome).toBeInstanceOf(OutcomeUnknownError);
    }
    // and an ordinary PUT still is resent
    expect((await harness([reset(), 200]).send('PUT')).status).toBe(200);
  });

  it('throws the network error once the tries run out', async () => {
    const h = harness([reset()], 3);
    await expect(h.send('GET')).rejects.toMatchObject({ code: 'ECONNRESET', exitCode: 7 });
    expect(h.calls).toHaveLength(3);
  });

  it('traces each retry with its reason and no token', async () => {
    const h = harness([THROTTLED_403, 200]);
    await h.send('GET');
    expect(h.trace).toEqual([
      '↻ retry 2/4 of GET https://lms.example/api/v1/x?access_token=[REDACTED] in 100 ms: throttled',
    ]);
  });
});

describe('one deadline a call (callDeadlineMs)', () => {
  /** A transport from a script whose every try takes `tryMs` of a fake clock; `deadlineMs` for each call. */
  function timed(steps: Step[], deadlineMs: number | undefined, tryMs = 0) {
    let now = 1_000_000;
    const calls: ApiRequest[] = [];
    const waits: number[] = [];
    const transport = async (req: ApiRequest): Promise<ApiResponse> => {
      calls.push(req);
      now += tryMs;
      const step = steps[Math.min(calls.length - 1, steps.length - 1)];
      if (step instanceof NetworkError) throw step;
      const [status, body, headers] = typeof step === 'number' ? [step, '{}', {}] : step;
      return { status, body, headers: headers ?? {} };
    };
    const limiter = new RateLimiter({ maxConcurrency: 2, now: () => now });
    const sleep = async (ms: number) => {
      waits.push(ms);
      now += ms;
    };
    const wrapped = resilient(transport, {
      limiter,
      random: () => 1,
      sleep,
      baseDelayMs: 100,
      now: () => now,
      callDeadlineMs: () => deadlineMs,
    });
    const started = now;
    const send = (method: HttpMethod = 'GET') =>
      wrapped({ method, url: 'https://lms.example.edu/api/v1/x', headers: {} });
    return { send, calls, waits, started, elapsed: () => now - started };
  }
  const silent = () =>
    new NetworkError('GET lms.example.edu: no answer within 2 s', {
      code: 'ETIMEDOUT',
      hint: 'raise --timeout, or check the instance',
    });

  it('hands each try what is left of the deadline', async () => {
    const t = timed([503, 200], 2000, 50);
    await t.send();
    expect(t.calls.map((c) => c.deadline)).toEqual([t.started + 2000, t.started + 2000]);
  });

  it('passes on what the URL shows in traces unread: a request that goes through masks nothing', async () => {
    const t = timed([200], 2000);
    let read = 0;
    const req = Object.defineProperty(
      { method: 'GET', url: 'https://lms.example.edu/api/v1/x', headers: {} },
      'traceUrl',
      {
        get: () => {
          read++;
          return 'https://lms.example.edu/[REDACTED]';
        },
        enumerable: true,
      },
    ) as ApiRequest;
    const wrapped = resilient(
      async (r: ApiRequest) => {
        t.calls.push(r);
        return { status: 200, body: '{}', headers: {} };
      },
      { limiter: new RateLimiter({ maxConcurrency: 1 }), callDeadlineMs: () => 2000 },
    );
    await wrapped(req);
    expect(read).toBe(0);
    expect(t.calls[0]!.deadline).toBeGreaterThan(0);
    expect(t.calls[0]!.traceUrl).toBe('https://lms.example.edu/[REDACTED]');
  });

  it('a silent instance is tried once: its try ends at the deadline, and the error says what was tried', async () => {
    const t = timed([silent(), 200], 2000, 2000);
    const error = (await t.send().catch((e: unknown) => e)) as NetworkError;
    expect(t.calls).toHaveLength(1);
    expect(error).toMatchObject({
      code: 'ETIMEDOUT',
      message: 'GET lms.example.edu: no answer within 2 s (one try over 2 s within --timeout 2)',
      hint: '--timeout is the most one request may take, its retries included: raise it, or check the instance',
    });
  });

  it('5xx and throttles keep their pacing, and stop where the next wait would pass the deadline', async () => {
    // Waits of 100, 200, 400 ms: a fourth try would begin past 600 ms, so the third's answer is the call's.
    const t = timed([503, 503, [429, ''], 503, 200], 600, 10);
    expect((await t.send()).status).toBe(429);
    expect(t.waits).toEqual([100, 200]);
    expect(t.calls).toHaveLength(3);
    expect(t.elapsed()).toBeLessThan(600);
  });

  it('a Retry-After past the deadline ends the call with the answer it has', async () => {
    const t = timed([[429, '', { 'retry-after': '10' }], 200], 5000);
    expect((await t.send()).status).toBe(429);
    expect(t.waits).toEqual([]);
  });

  it('a refused connection is tried twice, the error counting both', async () => {
    const t = timed(
      [new NetworkError('127.0.0.1:9 refused the connection', { code: 'ECONNREFUSED', neverSent: true })],
      30_000,
    );
    const error = (await t.send().catch((e: unknown) => e)) as NetworkError;
    expect(t.calls).toHaveLength(2);
    expect(error.message).toBe('127.0.0.1:9 refused the connection (2 tries over 0.1 s within --timeout 30)');
  });

  it('without a deadline (a bulk job), each try has its own timeout and the tries their full count', async () => {
    const t = timed([reset(), reset(), reset(), 200], undefined, 5000);
    expect((await t.send()).status).toBe(200);
    expect(t.calls.map((c) => c.deadline)).toEqual([undefined, undefined, undefined, undefined]);
    const out = timed([silent()], undefined, 2000);
    const error = (await out.send().catch((e: unknown) => e)) as NetworkError;
    expect(out.calls).toHaveLength(2);
    expect(error.message).toBe('GET lms.example.edu: no answer within 2 s (2 tries over 4.1 s)');
  });
});

describe('rate limiter', () => {
  it('runs fewer requests at once as the remaining quota falls', () => {
    const limiter = new RateLimiter({ maxConcurrency: 4 });
    expect(limiter.concurrency()).toBe(4);
    for (const [remaining, expected] of [
      [700, 4],
      [500, 4],
      [300, 2],
      [100, 1],
    ] as const) {
      limiter.release({ 'x-rate-limit-remaining': String(remaining) });
      expect(limiter.concurrency(), `remaining ${remaining}`).toBe(expected);
    }
  });

  it('holds requests back while the bucket is nearly empty', async () => {
    let now = 0;
    const limiter = new RateLimiter({ maxConcurrency: 2, maxSpacingMs: 1000, now: () => now });
    limiter.release({ 'x-rate-limit-remaining': '700' });
    limiter.release({ 'x-rate-limit-remaining': '0' });
    let acquired = false;
    const pending = limiter.acquire().then(() => (acquired = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(acquired).toBe(false);
    now = 1000;
    limiter.release();
    await pending;
    expect(acquired).toBe(true);
  });

  it('wakes a waiter whose pause ends while it is being queued (a loaded machine, a slow clock read)', async () => {
    // Every reading of the clock moves it on by a millisecond: the pause is still on when the
    // waiter decides to wait, and over by the time it would set its timer.
    let now = 0;
    const limiter = new RateLimiter({ maxConcurrency: 2, now: () => now++ });
    limiter.backOff(2);
    const acquired = limiter.acquire().then(() => 'acquired');
    const stuck = new Promise((r) => setTimeout(() => r('stuck'), 500));
    expect(await Promise.race([acquired, stuck])).toBe('acquired');
  });

  it('never lets more than the allowed number run at once', async () => {
    const limiter = new RateLimiter({ maxConcurrency: 3 });
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        await limiter.acquire();
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        limiter.release();
      }),
    );
    expect(peak).toBe(3);
  });
});

describe('an instance out of reach', () => {
  const timedOut = () => new NetworkError('no answer within 2 s', { code: 'ETIMEDOUT' });
  const unreachable = () => new NetworkError('unreachable', { code: 'EHOSTUNREACH', neverSent: true });
  it.each([
    ['no answer within --timeout', timedOut],
    ['a refused connection', refused],
    ['a host out of reach', unreachable],
  ])('%s: tried once more, not five times', async (_what, failure) => {
    const h = harness([failure()], 5);
    await expect(h.send('GET')).rejects.toThrow(NetworkError);
    expect(h.calls).toHaveLength(2);
  });

  it('a dropped connection keeps the full pacing', async () => {
    const h = harness([reset()], 5);
    await expect(h.send('GET')).rejects.toThrow(NetworkError);
    expect(h.calls).toHaveLength(5);
  });

  it('an answer on the second try is the answer', async () => {
    const h = harness([timedOut(), 200], 5);
    expect((await h.send('GET')).status).toBe(200);
  });
});

// Fault injection around the mock handler, because real instances misbehave: a leaky-bucket
// throttle per token (403 or 429 "Rate Limit Exceeded", with X-Request-Cost and
// X-Rate-Limit-Remaining on every answer), random 5xx answers, dropped connections (before the
// change, or after it was applied and only the answer was lost) and latency. Seeded, so a run can be
// reproduced. `lms mock serve` turns a DroppedConnection into a destroyed socket; in-process callers
// go through `inProcess`, which turns it into the NetworkError a reset connection would give.
import { NetworkError, UsageError } from '../errors.js';
import type { ApiRequest, ApiResponse } from '../transport/types.js';
import { headerOf } from './decode.js';
import type { MockHandler } from './file-bytes.js';

export interface ThrottleOptions {
  /** Size of the bucket. */
  capacity: number;
  /** Charged up front while a request is in flight, refunded when it completes. */
  penalty: number;
  /** Charged for each completed request. */
  cost: number;
  /** How fast the bucket drains, units per second. */
  leakPerSecond: number;
  status: 403 | 429;
}

export interface FaultOptions {
  throttle?: ThrottleOptions;
  /** Probability of a 5xx answer before the handler runs (nothing applied). */
  failRate?: number;
  /** The statuses a failure picks from, at random; 500, 502 and 503 by default. */
  failStatuses?: number[];
  /** Probability of a dropped connection: half before the handler ran, half after. */
  dropRate?: number;
  /** Delay before every answer, milliseconds. */
  latencyMs?: number;
  /** Seed for the fault sequence; Math.random without one. */
  seed?: number;
}

/** What real instances use: a bucket of 700, 50 in flight, about 10 per request, draining 100/s. */
export const DEFAULT_THROTTLE: ThrottleOptions = {
  capacity: 700,
  penalty: 50,
  cost: 10,
  leakPerSecond: 100,
  status: 403,
};

/** The connection went away without an answer. `applied`: the handler ran, so the change happened. */
export class DroppedConnection extends Error {
  readonly applied: boolean;

  constructor(applied: boolean) {
    super(
      applied
        ? 'connection dropped by the mock after the request was applied'
        : 'connection dropped by the mock before the request was applied',
    );
    this.name = 'DroppedConnection';
    this.applied = applied;
  }
}

interface FaultStats {
  /** Every request that arrived. */
  requests: number;
  throttled: number;
  failed: number;
  dropped: number;
  droppedBefore: number;
  droppedAfter: number;
}

export type FaultyHandler = MockHandler & { readonly stats: FaultStats; readonly options: FaultOptions };

const DEFAULT_FAIL_STATUSES: readonly number[] = [500, 502, 503];
const FAIL_MESSAGES: Record<number, string> = {
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};
const THROTTLE_TEXT = {
  403: '403 Forbidden (Rate Limit Exceeded)',
  429: '429 Too Many Requests (Rate Limit Exceeded)',
} as const;

/** Small, fast, good enough for fault sequences. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hasFaults(options: FaultOptions): boolean {
  return Boolean(options.throttle || options.failRate || options.dropRate || options.latencyMs);
}

/**
 * Wraps a handler with the given faults. `now` (milliseconds) drives the bucket's leak; tests pass
 * a fake clock. A request's fate (fail, drop before, drop after) is drawn on arrival, before the
 * throttle looks at it, so the same seed gives the same fates for the same sequence of requests
 * however the timing (and so the throttling) turns out.
 */
export function withFaults(handler: MockHandler, options: FaultOptions, now: () => number = Date.now): FaultyHandler {
  const problems = validateFaults(options);
  if (problems.length) throw new RangeError(`invalid fault options: ${problems.join('; ')}`);
  const random = options.seed === undefined ? Math.random : mulberry32(options.seed);
  const failRate = options.failRate ?? 0;
  const dropRate = options.dropRate ?? 0;
  const failStatuses = options.failStatuses?.length ? options.failStatuses : DEFAULT_FAIL_STATUSES;
  const latencyMs = options.latencyMs ?? 0;
  const throttle = options.throttle;
  const stats: FaultStats = { requests: 0, throttled: 0, failed: 0, dropped: 0, droppedBefore: 0, droppedAfter: 0 };
  const buckets = new Map<string, { level: number; at: number }>();

  /** The bucket of this caller, drained by the time since it was last touched. */
  const bucketOf = (key: string) => {
    const t = now();
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { level: 0, at: t };
      buckets.set(key, bucket);
    }
    if (throttle && t > bucket.at)
      bucket.level = Math.max(0, bucket.level - ((t - bucket.at) / 1000) * throttle.leakPerSecond);
    bucket.at = Math.max(bucket.at, t);
    return bucket;
  };

  const faulty = async (req: ApiRequest): Promise<ApiResponse> => {
    stats.requests++;
    // Drawn only for the faults that are on, so adding a fault type does not reshuffle the others'
    // sequence when it is off.
    const fail = failRate > 0 && random() < failRate;
    const failStatus = fail
      ? failStatuses[Math.min(failStatuses.length - 1, Math.floor(random() * failStatuses.length))]
      : 0;
    const drop = !fail && dropRate > 0 && random() < dropRate;
    const dropAfter = drop && random() < 0.5;

    if (!throttle) {
      await pause(latencyMs);
      return attempt(req, fail, failStatus, drop, dropAfter);
    }

    const key = headerOf(req, 'authorization') ?? '';
    const bucket = bucketOf(key);
    if (bucket.level + throttle.penalty > throttle.capacity) {
      stats.throttled++;
      await pause(latencyMs);
      return {
        status: throttle.status,
        headers: { 'content-type': 'text/plain; charset=utf-8', ...rateHeaders(0, throttle.capacity - bucket.level) },
        body: THROTTLE_TEXT[throttle.status],
      };
    }
    bucket.level += throttle.penalty;
    const settle = () => {
      const b = bucketOf(key);
      b.level = Math.max(0, b.level - throttle.penalty) + throttle.cost;
      return rateHeaders(throttle.cost, throttle.capacity - b.level);
    };
    let res: ApiResponse;
    try {
      await pause(latencyMs);
      res = await attempt(req, fail, failStatus, drop, dropAfter);
    } catch (err) {
      settle();
      throw err;
    }
    // Not a copy of the answer: the mock's JSON answers keep their text in a getter a spread would drop.
    res.headers = { ...res.headers, ...settle() };
    return res;
  };

  async function attempt(
    req: ApiRequest,
    fail: boolean,
    failStatus: number,
    drop: boolean,
    dropAfter: boolean,
  ): Promise<ApiResponse> {
    if (fail) {
      stats.failed++;
      return {
        status: failStatus,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          errors: [{ message: `${FAIL_MESSAGES[failStatus] ?? 'Server error'} (fault injected by the mock)` }],
        }),
      };
    }
    if (drop && !dropAfter) {
      stats.dropped++;
      stats.droppedBefore++;
      throw new DroppedConnection(false);
    }
    const res = await handler(req);
    if (drop) {
      stats.dropped++;
      stats.droppedAfter++;
      throw new DroppedConnection(true);
    }
    return res;
  }

  return Object.assign(faulty, { stats, options });
}

/**
 * For in-process callers (`--mock`, tests): a dropped connection looks like a reset one, as it would
 * over the network — a NetworkError that may have reached the server.
 */
export function inProcess<H extends MockHandler>(handler: H): H {
  const wrapped = async (req: ApiRequest): Promise<ApiResponse> => {
    try {
      return await handler(req);
    } catch (err) {
      if (err instanceof DroppedConnection)
        throw new NetworkError('connection reset by the mock', { code: 'ECONNRESET', neverSent: false, cause: err });
      throw err;
    }
  };
  return Object.assign(wrapped, handler);
}

function rateHeaders(cost: number, remaining: number): Record<string, string> {
  return { 'x-request-cost': String(cost), 'x-rate-limit-remaining': remaining.toFixed(2) };
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Problems with a set of fault options, named by their JSON keys; empty when they are usable. */
function validateFaults(options: FaultOptions): string[] {
  const problems: string[] = [];
  const probability = (name: string, v: unknown) => {
    if (v !== undefined && !(typeof v === 'number' && v >= 0 && v <= 1))
      problems.push(`${name} must be a probability between 0 and 1, not ${JSON.stringify(v)}`);
  };
  const nonNegative = (name: string, v: unknown) => {
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0))
      problems.push(`${name} must be a non-negative number, not ${JSON.stringify(v)}`);
  };
  probability('failRate', options.failRate);
  probability('dropRate', options.dropRate);
  if (options.failStatuses !== undefined) {
    const ok =
      Array.isArray(options.failStatuses) &&
      options.failStatuses.every((s) => Number.isInteger(s) && s >= 500 && s <= 599);
    if (!ok) problems.push(`failStatuses must be a list of 5xx statuses, not ${JSON.stringify(options.failStatuses)}`);
  }
  nonNegative('latencyMs', options.latencyMs);
  if (options.seed !== undefined && !(Number.isInteger(options.seed) && options.seed >= 0))
    problems.push(`seed must be a non-negative integer, not ${JSON.stringify(options.seed)}`);
  const t = options.throttle;
  if (t) {
    nonNegative('throttle.capacity', t.capacity);
    nonNegative('throttle.penalty', t.penalty);
    nonNegative('throttle.cost', t.cost);
    nonNegative('throttle.leakPerSecond', t.leakPerSecond);
    if (t.status !== 403 && t.status !== 429)
      problems.push(`throttle.status must be 403 or 429, not ${JSON.stringify(t.status)}`);
    if (t.penalty > t.capacity)
      problems.push(
        `throttle.penalty (${t.penalty}) must not exceed throttle.capacity (${t.capacity}), or every request is ` +
          'throttled',
      );
  }
  return problems;
}

/**
 * LMS_MOCK_FAULTS: JSON of FaultOptions. `throttle` may be `true` (the defaults) or a partial
 * object over the defaults. Anything unusable is a UsageError naming the variable.
 */
export function parseFaultsEnv(text: string): FaultOptions {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`LMS_MOCK_FAULTS is not valid JSON: ${(err as Error).message}`, {
      hint: `set it to a JSON object, e.g. LMS_MOCK_FAULTS='{"failRate":0.2,"seed":1}'`,
    });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UsageError('LMS_MOCK_FAULTS must be a JSON object', {
      hint: `e.g. LMS_MOCK_FAULTS='{"failRate":0.2,"seed":1}'`,
    });
  }
  const known = new Set(['throttle', 'failRate', 'failStatuses', 'dropRate', 'latencyMs', 'seed']);
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  if (unknown.length)
    throw new UsageError(
      `LMS_MOCK_FAULTS: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ` +
        `${[...known].join(', ')})`,
    );
  const { throttle, ...rest } = raw as Record<string, unknown>;
  const options = { ...rest } as FaultOptions;
  if (throttle === true) options.throttle = { ...DEFAULT_THROTTLE };
  else if (typeof throttle === 'object' && throttle !== null && !Array.isArray(throttle)) {
    const knownT = new Set(Object.keys(DEFAULT_THROTTLE));
    const unknownT = Object.keys(throttle).filter((k) => !knownT.has(k));
    if (unknownT.length)
      throw new UsageError(
        `LMS_MOCK_FAULTS: unknown throttle key${unknownT.length > 1 ? 's' : ''} ${unknownT.join(', ')} (known: ` +
          `${[...knownT].join(', ')})`,
      );
    options.throttle = { ...DEFAULT_THROTTLE, ...(throttle as Partial<ThrottleOptions>) };
  } else if (throttle !== undefined && throttle !== false && throttle !== null) {
    throw new UsageError(
      'LMS_MOCK_FAULTS: throttle must be true, false or an object like {"capacity":200,"status":429}',
    );
  }
  const problems = validateFaults(options);
  if (problems.length) throw new UsageError(`LMS_MOCK_FAULTS: ${problems.join('; ')}`);
  return options;
}

/** One line for logs: `throttle 403 (capacity 700, …), fail 30%, drop 5%, latency 20 ms, seed 7`. */
export function describeFaults(options: FaultOptions): string {
  const parts: string[] = [];
  const t = options.throttle;
  if (t)
    parts.push(
      `throttle ${t.status} (capacity ${t.capacity}, penalty ${t.penalty}, cost ${t.cost}, leak ${t.leakPerSecond}/s)`,
    );
  const pct = (p: number) => `${Math.round(p * 1000) / 10}%`;
  if (options.failRate)
    parts.push(
      `fail ${pct(options.failRate)} ` +
        `(${(options.failStatuses?.length ? options.failStatuses : DEFAULT_FAIL_STATUSES).join('/')})`,
    );
  if (options.dropRate) parts.push(`drop ${pct(options.dropRate)}`);
  if (options.latencyMs) parts.push(`latency ${options.latencyMs} ms`);
  if (!parts.length) return 'no faults';
  if (options.seed !== undefined) parts.push(`seed ${options.seed}`);
  return parts.join(', ');
}

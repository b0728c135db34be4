// Retries what is safe to retry and paces everything through one RateLimiter.
//  - Throttling (429, or a 403 saying "Rate Limit Exceeded"): the server refused before doing
//    anything, so any method is retried after a backoff.
//  - 500/502/503/504 and dropped connections: GET, PUT and DELETE are retried; a POST only when it
//    provably never reached the server (connection refused), since it may have been applied.
//  - A POST whose outcome is unknown is reported as such, never resent.
//
// A call may have one deadline (callDeadlineMs, --timeout for a one-shot command): every try and
// every wait between tries within it, each try handed what is left (ApiRequest.deadline), and no
// retry begun that its wait would carry past it; what was tried is then said in the error. Without
// one (a bulk job's requests), each try has the transport's own timeout and retries keep their
// full count: a job of thousands of rows under throttling needs the patience a single lookup does
// not, and no one waits on its one request.
import { NetworkError } from '../errors.js';
import { CERTIFICATE_ERROR } from '../net.js';
import { redactText, redactUrl } from '../redact.js';
import type { ApiRequest, ApiResponse, Transport } from './types.js';
import { bodyText, isThrottled, secondsOf } from './types.js';
import type { RateLimiter } from './limiter.js';

/** A proxy that refused the tunnel or the credentials (see ./proxy.ts) will refuse the next try too. */
const PROXY_REFUSED = new Set(['ERR_PROXY_AUTH', 'ERR_PROXY_FORBIDDEN']);

export interface ResilienceOptions {
  limiter: RateLimiter;
  /** Tries in all, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  trace?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /**
   * The deadline of each call, read as the call starts, milliseconds; undefined: none, each try has its own timeout.
   */
  callDeadlineMs?: () => number | undefined;
  now?: () => number;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);
/**
 * An instance that refused the connection, could not be reached or gave no answer within
 * --timeout is tried once more, not five times: it seldom answers a second later, and five tries
 * of a 30 s timeout held one command for minutes. Dropped connections, 5xx and throttles keep
 * their full pacing.
 */
const OUT_OF_REACH = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);
const OUT_OF_REACH_ATTEMPTS = 2;
const UNAVAILABLE = new Set([500, 502, 503, 504]);

export class OutcomeUnknownError extends NetworkError {}

export function resilient(inner: Transport, options: ResilienceOptions): Transport {
  const { limiter } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 20_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  // Full jitter: a random wait up to an exponentially growing ceiling.
  const backoff = (attempt: number) => Math.round(random() * Math.min(cap, base * 2 ** (attempt - 1)));
  const now = options.now ?? Date.now;

  return async (given: ApiRequest): Promise<ApiResponse> => {
    const callMs = options.callDeadlineMs?.();
    // From the first try: a wait for a turn at the limiter is this process's pacing, not the
    // instance's silence. Set once that turn comes.
    let started = 0;
    let deadline: number | undefined;
    let req = given;
    // Whether a wait, and a try after it, may still begin: not once the deadline would pass first.
    const inTime = (wait: number) => deadline === undefined || now() + wait < deadline;
    // What traces and messages show: never the token, a secret parameter or a one-time URL. Read
    // only for a retry or a failure, so a request that goes through masks nothing.
    const shown = () => req.traceUrl ?? redactUrl(req.url);
    const scrub = (message: string) =>
      redactText(message, [req.headers.authorization?.replace(/^Bearer\s+/i, ''), req.url]);
    const idempotent = req.idempotent ?? IDEMPOTENT.has(req.method);
    // The error a call gives up on, saying what was tried: how many tries, over how long (the host is in its message).
    const gaveUp = (err: NetworkError, tries: number) => {
      const tried = `${tries === 1 ? 'one try' : `${tries} tries`} over ${secondsOf(now() - started)} s`;
      const within = deadline === undefined ? '' : ` within --timeout ${secondsOf(callMs!)}`;
      const hint =
        deadline !== undefined && err.code === 'ETIMEDOUT' && !err.neverSent
          ? '--timeout is the most one request may take, its retries included: raise it, or check the instance'
          : err.hint;
      return new NetworkError(`${err.message} (${tried}${within})`, {
        code: err.code,
        neverSent: err.neverSent,
        cause: err,
        ...(hint ? { hint } : {}),
      });
    };
    for (let attempt = 1; ; attempt++) {
      await limiter.acquire();
      if (attempt === 1) {
        started = now();
        deadline = callMs === undefined ? undefined : Math.min(started + callMs, given.deadline ?? Infinity);
        // Copied with its accessors: a spread would work out the lazy traceUrl of every request.
        if (deadline !== undefined) {
          req = Object.defineProperties({}, Object.getOwnPropertyDescriptors(given)) as ApiRequest;
          req.deadline = deadline;
        }
      }
      let res: ApiResponse;
      try {
        res = await inner(req);
      } catch (err) {
        limiter.release();
        if (!(err instanceof NetworkError)) throw err;
        // A name that does not resolve will not resolve on the next try either, nor will a certificate
        // that is not valid (expired, for another host, not trusted) become valid, nor a proxy that
        // refused let the same request through.
        if (
          err.code === 'ENOTFOUND' ||
          (err.code !== undefined && (CERTIFICATE_ERROR.test(err.code) || PROXY_REFUSED.has(err.code)))
        )
          throw err;
        const safe = err.neverSent || idempotent;
        if (!safe) {
          throw new OutcomeUnknownError(
            `${req.method} ${shown()}: ${scrub(err.message)}; the request may or may not have been applied, so it ` +
              'was not resent',
            {
              code: err.code,
              cause: err,
            },
          );
        }
        if (
          attempt >=
          (err.code !== undefined && OUT_OF_REACH.has(err.code)
            ? Math.min(maxAttempts, OUT_OF_REACH_ATTEMPTS)
            : maxAttempts)
        )
          throw gaveUp(err, attempt);
        const wait = backoff(attempt);
        if (!inTime(wait)) throw gaveUp(err, attempt);
        limiter.stats.retries++;
        options.trace?.(
          `↻ retry ${attempt + 1}/${maxAttempts} of ${req.method} ${shown()} in ${wait} ms: ` +
            `${err.code ?? scrub(err.message)}`,
        );
        await sleep(wait);
        continue;
      }
      limiter.release(res.headers);
      const throttled = isThrottled(res.status, res.status === 403 ? bodyText(res.body) : '');
      const retryable = throttled || (UNAVAILABLE.has(res.status) && idempotent);
      if (!retryable || attempt >= maxAttempts) return res;
      const retryAfter = Number(res.headers['retry-after']);
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(cap, retryAfter * 1000) : backoff(attempt);
      // The whole process slows down for a throttle, whether or not this call tries again.
      if (throttled) limiter.backOff(wait);
      // The last answer is the call's when the next try could not end within its deadline.
      if (!inTime(wait)) {
        options.trace?.(
          `↻ no retry of ${req.method} ${shown()}: ${throttled ? 'throttled' : res.status}, and a wait of ${wait} ` +
            'ms would pass the deadline',
        );
        return res;
      }
      limiter.stats.retries++;
      options.trace?.(
        `↻ retry ${attempt + 1}/${maxAttempts} of ${req.method} ${shown()} in ${wait} ms: ` +
          `${throttled ? 'throttled' : res.status}`,
      );
      await sleep(wait);
    }
  };
}

// Reading something until it is done, as a careful client of a real instance does: a short first
// pause, doubling up to a second, so quick work is seen at once and slow work is not hammered.
import type { Id } from '../spec/types/common.js';
import type { Progress } from '../spec/types/progress.js';

export interface PollOptions<T> {
  /** Called with every value read, the first and the last included. */
  onUpdate?(value: T): void;
  /** First pause between reads; it doubles up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  signal?: AbortSignal;
  /** How long to keep reading; past it, `onTimeout` gives the error thrown, with the last value read. */
  timeoutMs?: number;
  onTimeout?(last: T): Error;
}

/** Reads until `done` holds for what was read, and returns that last read. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions<T> = {},
): Promise<T> {
  const max = options.maxIntervalMs ?? 1000;
  let pause = options.intervalMs ?? 100;
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const value = await read();
    options.onUpdate?.(value);
    if (done(value)) return value;
    if (Date.now() >= deadline)
      throw options.onTimeout?.(value) ?? new Error(`still not done after ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    pause = Math.min(max, pause * 2);
  }
}

const PROGRESS_DONE: ReadonlySet<string> = new Set(['completed', 'failed']);

/** Reads a Progress until it is completed or failed, and returns the last read. */
export function waitForProgress(
  get: (id: Id) => Promise<Progress>,
  id: Id,
  options: PollOptions<Progress> = {},
): Promise<Progress> {
  return pollUntil(
    () => get(id),
    (p) => PROGRESS_DONE.has(p.workflow_state),
    options,
  );
}

// Background jobs' progress, and the wait for one to end.
import { op } from '../operation.js';
import type { Id } from '../types/common.js';
import type { Progress } from '../types/progress.js';

export const progress = {
  get: op('progress.get').as<{ id: Id }, Progress>(),
};

export const PROGRESS_DONE: ReadonlySet<string> = new Set(['completed', 'failed']);

export interface WaitOptions {
  /** Called with every Progress read, the first and the last included. */
  onUpdate?(p: Progress): void;
  /** First pause between reads; it doubles up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  signal?: AbortSignal;
}

/** Reads a Progress until it is completed or failed, and returns the last read. */
export async function waitForProgress(get: (id: Id) => Promise<Progress>, id: Id, options: WaitOptions = {}): Promise<Progress> {
  const max = options.maxIntervalMs ?? 1000;
  let pause = options.intervalMs ?? 100;
  for (;;) {
    options.signal?.throwIfAborted();
    const p = await get(id);
    options.onUpdate?.(p);
    if (PROGRESS_DONE.has(p.workflow_state)) return p;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(max, pause * 2);
  }
}

// Background jobs' progress, and the wait for one to end.
import { op } from '../operation.js';
import { pollUntil, type PollOptions } from '../poll.js';
import type { Id } from '../../spec/types/common.js';
import type { Progress } from '../../spec/types/progress.js';

export const progress = {
  get: op('progress.get').as<{ id: Id }, Progress>(),
};

export const PROGRESS_DONE: ReadonlySet<string> = new Set(['completed', 'failed']);

/** Reads a Progress until it is completed or failed, and returns the last read. */
export function waitForProgress(get: (id: Id) => Promise<Progress>, id: Id, options: PollOptions<Progress> = {}): Promise<Progress> {
  return pollUntil(() => get(id), (p) => PROGRESS_DONE.has(p.workflow_state), options);
}

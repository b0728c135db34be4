import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createProgress, updateProgress } from '../../jobs.js';

/** One finished job, so that a school's history has a Progress to read before anything runs. */
export function seedProgress(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const id = createProgress(db, {
    contextType: 'User',
    contextId: 1,
    userId: 1,
    tag: 'conversation_batch_update',
    now,
  });
  updateProgress(db, id, { state: 'completed', completion: 100, now, message: '0 items processed' });
}

import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createBatch, updateBatch, upsertTerm } from './repo.js';

/**
 * The school's current term (Fall 2026, `sis_term_id:2026-FA`) and one finished import, so that
 * the imports' history has a record to read before anything runs.
 */
export function seedSis(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  upsertTerm(db, { root: 1, sis: '2026-FA', name: 'Fall 2026', state: 'active', startAt: null, endAt: null, now });
  const id = createBatch(db, {
    account: 1,
    user: 1,
    options: { batch_mode: false, batch_mode_term_id: null, override_sis_stickiness: false, change_threshold: null },
    supplied: ['term'],
    errors: [],
    warnings: [],
    rows: { rows: { term: { '2026-FA': { term_id: '2026-FA', name: 'Fall 2026', status: 'active' } } }, sizes: {} },
    dataSet: null,
    diffedAgainst: null,
    thresholdExceeded: false,
    now,
  });
  updateBatch(db, id, { state: 'imported', progress: 100, counts: { terms: 1 }, now, ended: true });
}

// A small, realistic school with known tokens: what `lms mock seed` creates and a fresh mock
// database starts from. Each area seeds its part through its own repository, in area order, so the
// seed obeys the same rules as the handlers. Ids are stable, so docs and tests can name them.
import { areas } from './areas/index.js';
import type { Db } from './db/open.js';
import { setMetaValue } from './db/meta.js';

export { seedToken, seedUsers } from './areas/users/seed.js';

export const SEED_EPOCH = '2026-08-24T08:00:00.000Z';

/** The whole school, or with `minimal` only the root account and its admin (what `lms mock reset` leaves). */
export function seed(db: Db, options: { minimal?: boolean; clock?: string } = {}): void {
  const now = SEED_EPOCH;
  const clock = options.clock ?? new Date().toISOString();
  setMetaValue(db, 'seeded_at', now);
  // Every seed and reset is a new instance: bulk journals written against the old one no longer apply.
  setMetaValue(db, 'instance_id', process.getBuiltinModule('node:crypto').randomUUID());
  for (const area of areas) area.seed?.(db, { minimal: options.minimal ?? false, now, clock });
}

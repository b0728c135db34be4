// A small, realistic school with known tokens: what `lms mock seed` creates and a fresh mock
// database starts from. Each area seeds its part through its own repository, in area order, so the
// seed obeys the same rules as the handlers. Ids are stable, so docs and tests can name them.
import { areas } from './areas/index.js';
import type { Db } from './db/open.js';
import { setMetaValue } from './db/meta.js';
import { crypto } from './kit.js';

export { seedToken, seedUsers } from './areas/users/seed.js';

export const SEED_EPOCH = '2026-08-24T08:00:00.000Z';

export interface SchoolOptions {
  /** Only the root account and its admin (what `lms mock reset` leaves). */
  minimal?: boolean;
  /** The mock's clock when seeding (default: the real time). */
  clock?: string;
}

/** Writes the seeded school into a database, in one synchronous run (it goes inside a transaction). */
export type SeedSchool = (db: Db, options?: SchoolOptions) => void;

/** Every area's seed, loaded: what creating or reseeding a database runs. */
export async function loadSeed(): Promise<SeedSchool> {
  const seeders = await Promise.all(areas.map((area) => area.seed?.()));
  return (db, options = {}) => {
    const now = SEED_EPOCH;
    const clock = options.clock ?? new Date().toISOString();
    setMetaValue(db, 'seeded_at', now);
    // Every seed and reset is a new instance: bulk journals written against the old one no longer apply.
    setMetaValue(db, 'instance_id', crypto().randomUUID());
    for (const seeder of seeders) seeder?.(db, { minimal: options.minimal ?? false, now, clock });
  };
}

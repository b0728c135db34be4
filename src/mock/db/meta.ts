// The instance's own facts (the core `meta` table): when it was seeded, which instance it is, and
// how many removals it has seen since.
import type { Db } from './open.js';
import { insert, one } from './statements.js';

export type MetaKey = 'seeded_at' | 'instance_id' | 'removals';

export function metaValue(db: Db, key: MetaKey): string | undefined {
  return one<{ value: string }>(db, `SELECT value FROM meta WHERE key = ?`, key)?.value;
}

export function setMetaValue(db: Db, key: MetaKey, value: string): void {
  insert(db, `INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, key, value);
}

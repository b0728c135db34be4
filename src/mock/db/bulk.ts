// Loading many new rows at once (a generated school): the search indexes are filled once at the
// end instead of by a trigger per row. Run it inside the load's transaction.
import type { Db } from './open.js';
import { one, run } from './statements.js';

/**
 * A search index kept by triggers: a bulk load of new rows (`lms mock seed --users N`) drops the
 * triggers, then fills the index once for the rows each table gained (`fill` takes the table's
 * largest id before the load), and puts the triggers back.
 */
export interface BulkIndex {
  triggers: string;
  fills: { table: string; fill: string }[];
}

export function withIndexesDeferred<T>(db: Db, indexes: readonly BulkIndex[], load: () => T): T {
  const tables = [...new Set(indexes.flatMap((i) => i.fills.map((f) => f.table)))];
  const before = new Map(
    tables.map((t) => [t, one<{ id: number | null }>(db, `SELECT max(id) AS id FROM ${t}`)?.id ?? 0]),
  );
  for (const index of indexes)
    for (const [, name] of index.triggers.matchAll(/CREATE TRIGGER (\w+)/g)) db.exec(`DROP TRIGGER ${name}`);
  try {
    const result = load();
    for (const index of indexes) for (const f of index.fills) run(db, f.fill, before.get(f.table));
    return result;
  } finally {
    for (const index of indexes) db.exec(index.triggers);
  }
}

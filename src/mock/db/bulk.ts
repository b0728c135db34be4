// Loading many new rows at once (a generated school): the areas' search indexes are filled once at
// the end instead of by a trigger per row. Run it inside the load's transaction.
import { areas } from '../areas/index.js';
import type { Db } from './open.js';
import { one, run } from './statements.js';

export function withIndexesDeferred<T>(db: Db, load: () => T): T {
  const indexes = areas.flatMap((a) => a.bulkIndexes ?? []);
  const tables = [...new Set(indexes.flatMap((i) => i.fills.map((f) => f.table)))];
  const before = new Map(tables.map((t) => [t, one<{ id: number | null }>(db, `SELECT max(id) AS id FROM ${t}`)?.id ?? 0]));
  for (const index of indexes) for (const [, name] of index.triggers.matchAll(/CREATE TRIGGER (\w+)/g)) db.exec(`DROP TRIGGER ${name}`);
  try {
    const result = load();
    for (const index of indexes) for (const f of index.fills) run(db, f.fill, before.get(f.table));
    return result;
  } finally {
    for (const index of indexes) db.exec(index.triggers);
  }
}

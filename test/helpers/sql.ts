// Reading the mock's database straight from a test, whichever SQLite driver this Node uses.
import type { Db } from '../../src/mock/db/driver.js';

/** The first column of the first row (a count, one field). */
export function value(db: Db, sql: string, ...params: unknown[]): unknown {
  const row = db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
  return row === undefined ? undefined : Object.values(row)[0];
}

/** The first column of every row. */
export function values(db: Db, sql: string, ...params: unknown[]): unknown[] {
  return (db.prepare(sql).all(...params) as Record<string, unknown>[]).map((row) => Object.values(row)[0]);
}

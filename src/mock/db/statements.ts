// Every SQL string is prepared once per database and reused: repositories call `stmt(db, sql)`
// with constant SQL, so a list of a thousand rows prepares each lookup once, not a thousand times.
import type { Db, Statement } from './driver.js';

const cache = new WeakMap<Db, Map<string, Statement>>();

export function stmt(db: Db, sql: string): Statement {
  let byText = cache.get(db);
  if (!byText) {
    byText = new Map();
    cache.set(db, byText);
  }
  let prepared = byText.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    byText.set(sql, prepared);
  }
  return prepared;
}

export function one<T>(db: Db, sql: string, ...args: unknown[]): T | undefined {
  return stmt(db, sql).get(...args) as T | undefined;
}

export function all<T>(db: Db, sql: string, ...args: unknown[]): T[] {
  return stmt(db, sql).all(...args) as T[];
}

/** Runs a write and returns the new row's id. */
export function insert(db: Db, sql: string, ...args: unknown[]): number {
  return Number(stmt(db, sql).run(...args).lastInsertRowid);
}

export function run(db: Db, sql: string, ...args: unknown[]): number {
  return stmt(db, sql).run(...args).changes;
}

/** `?, ?, ?` for an IN list. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

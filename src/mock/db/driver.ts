// The one door to SQLite. The runtime's own `node:sqlite` where it has one (Node 22.13 and later:
// nothing to compile, nothing to install), and where it has none (Node 20) @photostructure/sqlite,
// the same API with SQLite built in and its binaries inside the npm package, loaded then and only
// then. Everything else in the mock talks to the `Db` below and never learns which
// driver it runs on.
import type { Connection, DriverName, OpenOptions, Statement } from './connection.js';
import { openNodeSqlite, sqliteModule } from './node-sqlite.js';

export type { DriverName, Statement } from './connection.js';

export interface Db {
  readonly driver: DriverName;
  prepare(sql: string): Statement;
  exec(sql: string): void;
  /** `PRAGMA <text>`: the first column of its first row (the value, for a pragma that has one). */
  pragma(text: string): unknown;
  /**
   * Runs `fn` in a transaction, committed when it returns and rolled back when it throws. Inside
   * another transaction it is a savepoint, so an inner failure undoes only the inner work.
   * `immediate` takes the write lock at the start (a writer never fails half way for a lock).
   */
  transaction<T>(fn: () => T, mode?: 'deferred' | 'immediate'): T;
  close(): void;
}

/** The driver this runtime uses. */
export function driverName(): DriverName {
  return sqliteModule().name;
}

/** Opens (creating unless `readonly`) the SQLite database at `path`, or `:memory:`. */
export function openSqlite(path: string, options: OpenOptions = {}): Db {
  return withTransactions(openNodeSqlite(path, options));
}

function withTransactions(connection: Connection): Db {
  // Prepared on first use: a database that is only read never prepares them.
  const statements = new Map<string, Statement>();
  const control = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    statement.run();
  };
  let depth = 0;
  return {
    driver: connection.driver,
    prepare: (sql) => connection.prepare(sql),
    exec: (sql) => connection.exec(sql),
    pragma: (text) => connection.pragma(text),
    close: () => connection.close(),
    transaction<T>(fn: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
      const nested = depth > 0;
      control(nested ? 'SAVEPOINT nested' : mode === 'immediate' ? 'BEGIN IMMEDIATE' : 'BEGIN');
      depth++;
      let result: T;
      try {
        result = fn();
      } catch (error) {
        depth--;
        try {
          if (nested) {
            control('ROLLBACK TO nested');
            control('RELEASE nested');
          } else {
            control('ROLLBACK');
          }
        } catch {
          // SQLite had already rolled the transaction back (it does on some errors, SQLITE_FULL among them).
        }
        throw error;
      }
      depth--;
      if (nested) {
        control('RELEASE nested');
      } else {
        try {
          control('COMMIT');
        } catch (error) {
          // A failed COMMIT (a busy or full disk) leaves the transaction open: close it, then say so.
          try {
            control('ROLLBACK');
          } catch {
            // Already rolled back.
          }
          throw error;
        }
      }
      return result;
    },
  };
}

const primaryCodes: Record<number, string> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
};

/**
 * An SQLite error's primary code as SQLite names it (`SQLITE_NOTADB`), whichever driver threw it:
 * a driver may give the name (`SQLITE_IOERR_WRITE`), node:sqlite gives the number (`errcode`).
 */
export function sqliteCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; errcode?: unknown };
  if (typeof e?.errcode === 'number') return primaryCodes[e.errcode & 0xff] ?? `SQLITE_${e.errcode & 0xff}`;
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_')) return e.code.split('_', 2).join('_');
  return undefined;
}

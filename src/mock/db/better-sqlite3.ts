// better-sqlite3, for the runtime without SQLite of its own (Node 20). An optional dependency: an
// install that could not build its addon still installs, and only this runtime's mock needs it.
import type BetterSqlite3 from 'better-sqlite3';
import type { Connection, OpenOptions } from './connection.js';

export function openBetterSqlite3(path: string, options: OpenOptions): Connection {
  let db: BetterSqlite3.Database;
  try {
    // require, not import: loaded (and, in the bundle, evaluated) only on the runtime that uses it.
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    // The package, or the addon it loads on first use.
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `the mock needs SQLite: Node ${process.version} has none built in, and the better-sqlite3 package that brings it did not install. ` +
        'Use Node 22.13 or newer, or reinstall lms where npm can build native addons (a C++ toolchain and Python).',
    );
  }
  return {
    driver: 'better-sqlite3',
    prepare: (sql) => db.prepare(sql),
    exec: (sql) => void db.exec(sql),
    pragma: (text) => db.pragma(text, { simple: true }),
    close: () => void db.close(),
  };
}

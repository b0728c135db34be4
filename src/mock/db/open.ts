// Opens (and on first use creates and seeds) the mock's SQLite database. WAL and a busy timeout let
// several `lms --mock` processes share one file; handlers run in short transactions.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../errors.js';
import { openSqlite, sqliteCode, type Db } from './driver.js';
import type { Schema } from './schema.js';

export type { Db };

export interface Opened {
  db: Db;
  /** This call created and seeded the database (there was nothing in it to lose). */
  created: boolean;
  /**
   * The database was of another lms's schema: its rows were carried into this one's, or, where they
   * did not fit it, the school was seeded again. Undefined when the schema was this lms's or new.
   */
  rebuilt?: 'carried' | 'reseeded';
}

/**
 * A new database is built and `initialise` fills it. One of another schema version (made by
 * another lms) is built anew with its rows carried over, column by column where both schemas name
 * the column; only when they do not fit (a column the new schema requires, a reference broken) is
 * it seeded again, and `rebuilt` says which, for the caller to tell the user.
 */
export function openDatabase(path: string, schema: Schema, initialise: (db: Db) => void): Opened {
  if (path !== ':memory:') prepareLocation(path);
  let db: Db | undefined;
  try {
    db = openSqlite(path);
    // One call for the connection's settings, which every `--mock` command makes, rather than a
    // statement prepared for each.
    db.exec(
      [
        'PRAGMA busy_timeout = 10000',
        ...(path === ':memory:' ? [] : ['PRAGMA journal_mode = WAL']),
        // The mock is a test instance: its writes reach the operating system before a command ends, so
        // no crash or kill of lms loses one, but nothing waits for the disk. Waiting (NORMAL) cost a
        // command four flushes, every one of them writing a page view: the log's header and its
        // directory when the first write starts the log, the log and the database when the last
        // connection folds the log in at exit. Only a power cut or an OS
        // crash can lose or damage the latest writes, as with any test database (README).
        'PRAGMA synchronous = OFF',
        // SQLite's own default page cache (2 MB) whatever the driver's:
        // a listing reads the table once, in key order, so a bigger cache only grows the process.
        'PRAGMA cache_size = -2000',
      ].join(';'),
    );
    // The common case, an existing database, needs no lock at all.
    if (db.pragma('user_version') === schema.version) {
      db.exec('PRAGMA foreign_keys = ON');
      if (path !== ':memory:') makePrivate(path);
      return { db, created: false };
    }
    // Creating and seeding is one immediate transaction, so two first-time processes cannot both seed.
    // Rebuilding drops tables whose rows others reference, so foreign keys are off until it is done
    // (they can only be switched outside a transaction).
    db.pragma('foreign_keys = OFF');
    const opened = db;
    const result = opened.transaction((): Omit<Opened, 'db'> => {
      const version = opened.pragma('user_version') as number;
      if (version === schema.version) return { created: false };
      if (!hasTables(opened)) {
        opened.exec(schema.text);
        opened.pragma(`user_version = ${schema.version}`);
        initialise(opened);
        return { created: true };
      }
      if (!isMockDatabase(opened)) {
        throw new UsageError(`${path} is an SQLite database, but not an lms mock database; it was left untouched`, {
          hint: 'point --mock-db (or LMS_MOCK_DB) at a new file, or at one lms created',
        });
      }
      const carried = rebuild(opened, schema);
      if (!carried) initialise(opened);
      return { created: false, rebuilt: carried ? 'carried' : 'reseeded' };
    }, 'immediate');
    opened.pragma('foreign_keys = ON');
    if (path !== ':memory:') makePrivate(path);
    return { db: opened, ...result };
  } catch (err) {
    db?.close();
    throw describeOpenError(err, path);
  }
}

/**
 * The directory exists (created level by level) and the path is not a directory; the file is this
 * user's alone: the mock's database holds tokens, so it is made 0600 before SQLite opens it, and
 * SQLite gives its -wal and -shm files the database file's own mode.
 */
function prepareLocation(path: string): void {
  const existing = statOrUndefined(path);
  if (existing?.isDirectory()) throw new UsageError(`the mock database ${path} is a directory; give a file path`);
  if (existing) return;
  // Not mkdirSync({ recursive: true }): on some file systems (/proc) it never returns.
  const missing: string[] = [];
  let dir = dirname(path);
  for (let stat = statOrUndefined(dir); !stat; stat = statOrUndefined(dir)) {
    missing.unshift(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const ancestor = statOrUndefined(dir);
  if (ancestor && !ancestor.isDirectory())
    throw new UsageError(`cannot create the mock database ${path}: ${dir} is not a directory`);
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (err) {
      throw new UsageError(`cannot create the directory ${level} for the mock database ${path}: ${reason(err)}`);
    }
  }
  try {
    // Empty, it is a new database to SQLite.
    closeSync(openSync(path, 'wx', 0o600));
  } catch {
    // Made by another process a moment ago (the same way), or not to be made here (a directory
    // this user may not write), which SQLite's own open then says.
  }
}

/**
 * A mock database found more open than 0600 (made by an older lms, copied) is narrowed, its -wal
 * and -shm with it, when it is this user's; anyone else's is left as it is. Only once it is known
 * to be a mock database: a file that is not one is left untouched, as its error says.
 */
function makePrivate(path: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const stat = statOrUndefined(file);
    if (!stat?.isFile() || stat.uid !== uid || (stat.mode & 0o077) === 0) continue;
    try {
      chmodSync(file, stat.mode & 0o700);
    } catch {
      // Gone since the look (the last connection's -wal at its close), or a file system without modes.
    }
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function describeOpenError(err: unknown, path: string): unknown {
  if (err instanceof UsageError) return err;
  const code = sqliteCode(err) ?? '';
  if (code === 'SQLITE_NOTADB')
    return new UsageError(
      `${path} is not an SQLite database, so it cannot be the mock database; it was left untouched`,
      { hint: 'point --mock-db (or LMS_MOCK_DB) at a new file, or at one lms created' },
    );
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM' || code === 'SQLITE_IOERR') {
    return new UsageError(`cannot open the mock database ${path}: ${reason(err)}`);
  }
  return err;
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code === 'EACCES' || e.code === 'EPERM'
    ? 'permission denied'
    : (e.message ?? String(err)).replace(/^\w+: /, '');
}

function hasTables(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1`).get() !== undefined;
}

function isMockDatabase(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get() !== undefined;
}

/** Empties the database and builds it again (`lms mock reset`). */
export function resetDatabase(db: Db, schema: Schema, initialise: (db: Db) => void): void {
  // Foreign keys can only be switched outside a transaction.
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    dropAll(db);
    db.exec(schema.text);
    db.pragma(`user_version = ${schema.version}`);
    initialise(db);
  }, 'immediate');
  db.pragma('foreign_keys = ON');
}

/**
 * The database built anew on `schema` with the rows it held: every table both schemas have gets
 * the columns both name, and the schema's `carried` fills in what they lack. Full-text indexes are
 * filled again by the new schema's triggers as the rows go in, so they and their shadow tables are
 * not copied. False, with the database left built and empty, when the rows do not fit.
 */
function rebuild(db: Db, schema: Schema): boolean {
  const held = ordinaryTables(db).map((name) => ({
    name,
    rows: db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[],
  }));
  dropAll(db);
  db.exec(schema.text);
  db.pragma(`user_version = ${schema.version}`);
  const now = new Set(ordinaryTables(db));
  db.exec('SAVEPOINT carry_over');
  try {
    for (const { name, rows } of held) {
      if (!now.has(name) || rows.length === 0) continue;
      const columns = new Set(
        (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name),
      );
      const kept = Object.keys(rows[0]).filter((c) => columns.has(c));
      const insert = db.prepare(
        `INSERT INTO "${name}" (${kept.map((c) => `"${c}"`).join(', ')}) VALUES (${kept.map(() => '?').join(', ')})`,
      );
      for (const row of rows) insert.run(...kept.map((c) => row[c]));
    }
    if (schema.carried) db.exec(schema.carried);
    if (db.prepare('PRAGMA foreign_key_check').all().length > 0)
      throw new Error('a carried row refers to one that is not there');
    db.exec('RELEASE carry_over');
    return true;
  } catch {
    db.exec('ROLLBACK TO carry_over');
    db.exec('RELEASE carry_over');
    return false;
  }
}

/** The tables that hold rows of their own: not SQLite's, not a full-text index or its shadow tables. */
function ordinaryTables(db: Db): string[] {
  const tables = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all() as { name: string; sql: string | null }[];
  const indexes = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? '')).map((t) => t.name);
  return tables
    .filter((t) => !indexes.some((index) => t.name === index || t.name.startsWith(`${index}_`)))
    .map((t) => t.name);
}

function dropAll(db: Db): void {
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all() as { name: string }[];
  for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
}

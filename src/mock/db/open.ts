// Opens (and on first use creates and seeds) the mock's SQLite database. WAL and a busy timeout let
// several `lms --mock` processes share one file; handlers run in short transactions.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION, schema } from './schema.js';

export type Db = Database.Database;

export function openDatabase(path: string, initialise: (db: Db) => void): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('busy_timeout = 10000');
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // The common case, an existing database, needs no lock at all.
  if (db.pragma('user_version', { simple: true }) === SCHEMA_VERSION) {
    db.pragma('foreign_keys = ON');
    return db;
  }
  // Creating and seeding is one immediate transaction, so two first-time processes cannot both seed.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === SCHEMA_VERSION) return;
    if (version !== 0) dropAll(db);
    db.exec(schema);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    initialise(db);
  }).immediate();
  db.pragma('foreign_keys = ON');
  return db;
}

/** Empties the database and builds it again (`lms mock reset`). */
export function resetDatabase(db: Db, initialise: (db: Db) => void): void {
  // Foreign keys can only be switched outside a transaction.
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    dropAll(db);
    db.exec(schema);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    initialise(db);
  }).immediate();
  db.pragma('foreign_keys = ON');
}

function dropAll(db: Db): void {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[];
  for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
}

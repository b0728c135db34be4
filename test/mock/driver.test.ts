// The SQLite seam: the same behaviour from whichever driver this Node uses, and the right driver
// for each Node line.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverName, openSqlite, sqliteCode, type Db } from '../../src/mock/db/driver.js';
import { value, values } from '../helpers/sql.js';

const [major, minor] = process.versions.node.split('.').map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

function table(): Db {
  const db = openSqlite(':memory:');
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score REAL, data BLOB)`);
  return db;
}

describe('the driver', () => {
  it(`is ${hasNodeSqlite ? "the runtime's node:sqlite" : '@photostructure/sqlite'} on Node ${process.version}`, () => {
    expect(driverName()).toBe(hasNodeSqlite ? 'node:sqlite' : '@photostructure/sqlite');
    expect(openSqlite(':memory:').driver).toBe(driverName());
  });

  it('has FTS5 with the trigram tokenizer, which the search indexes use', () => {
    const db = openSqlite(':memory:');
    db.exec(
      `CREATE VIRTUAL TABLE f USING fts5(name, tokenize = 'trigram'); INSERT INTO f (rowid, name) VALUES (1, ` +
        `'Biology II')`,
    );
    expect(values(db, `SELECT rowid FROM f WHERE name LIKE ?`, '%olog%')).toEqual([1]);
  });
});

describe('rows', () => {
  it('are plain objects, equal to what JSON makes of them, from get, all and iterate', () => {
    const db = table();
    db.prepare(`INSERT INTO t (name, score) VALUES (?, ?)`).run('a', 1.5);
    db.prepare(`INSERT INTO t (name, score) VALUES (?, ?)`).run('b', null);
    const select = db.prepare(`SELECT id, name, score FROM t ORDER BY id`);
    const rows = [select.get(), ...select.all(), ...select.iterate()];
    for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(rows).toStrictEqual(JSON.parse(JSON.stringify(rows)));
    expect(select.all()).toStrictEqual([
      { id: 1, name: 'a', score: 1.5 },
      { id: 2, name: 'b', score: null },
    ]);
    expect(db.prepare(`SELECT id FROM t WHERE id = ?`).get(99)).toBeUndefined();
  });

  it('stay the same plain objects once a statement has returned enough rows to be given a compiled row maker', () => {
    const db = table();
    const insert = db.prepare(`INSERT INTO t (name, score) VALUES (?, ?)`);
    for (let i = 0; i < 700; i++) insert.run(`n${i}`, i % 3 === 0 ? null : i / 2);
    const select = db.prepare(`SELECT id, name, score FROM t ORDER BY id`);
    const proto = db.prepare(`SELECT id AS "__proto__", name FROM t ORDER BY id`);
    // 700 rows each, past the point where a statement switches to arrays; then every way of reading again.
    const [first, firstProto] = [select.all(), proto.all()];
    const again = [select.get(), ...select.all(), ...select.iterate()];
    const againProto = [...proto.all(), ...proto.iterate()];
    for (const row of [...again, ...againProto]) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(again.slice(1, 701)).toStrictEqual(first);
    expect(again.slice(701)).toStrictEqual(first);
    expect(again[0]).toStrictEqual(first[0]);
    expect(first[3]).toStrictEqual({ id: 4, name: 'n3', score: null });
    expect(againProto.slice(0, 700)).toStrictEqual(firstProto);
    expect(Object.getOwnPropertyDescriptor(againProto[5], '__proto__')?.value).toBe(6);
  });

  // Rows are rebuilt as plain objects, which must not set a prototype.
  it('keep a column called __proto__ as a field', () => {
    const row = openSqlite(':memory:').prepare(`SELECT 1 AS "__proto__", 2 AS b`).get() as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(1);
  });

  it('give blobs as bytes, and a write its row id and change count', () => {
    const db = table();
    expect(db.prepare(`INSERT INTO t (name, data) VALUES (?, ?)`).run('x', Buffer.from([1, 2, 3]))).toEqual({
      changes: 1,
      lastInsertRowid: 1,
    });
    expect([...(value(db, `SELECT data FROM t`) as Uint8Array)]).toEqual([1, 2, 3]);
    expect(db.prepare(`UPDATE t SET score = 2`).run().changes).toBe(1);
  });
});

describe('transactions', () => {
  it('commit what returns and roll back what throws, the error passing through', () => {
    const db = table();
    expect(db.transaction(() => db.prepare(`INSERT INTO t (name) VALUES ('kept')`).run().changes)).toBe(1);
    const boom = new Error('boom');
    expect(() =>
      db.transaction(() => {
        db.prepare(`INSERT INTO t (name) VALUES ('lost')`).run();
        throw boom;
      }, 'immediate'),
    ).toThrow(boom);
    expect(values(db, `SELECT name FROM t`)).toEqual(['kept']);
  });

  it('nest as savepoints: an inner failure undoes only the inner work', () => {
    const db = table();
    db.transaction(() => {
      db.prepare(`INSERT INTO t (name) VALUES ('outer')`).run();
      expect(() =>
        db.transaction(() => {
          db.prepare(`INSERT INTO t (name) VALUES ('inner')`).run();
          db.prepare(`INSERT INTO t (name) VALUES ('outer')`).run();
        }),
      ).toThrow();
      db.transaction(() => db.prepare(`INSERT INTO t (name) VALUES ('second inner')`).run());
    });
    expect(values(db, `SELECT name FROM t ORDER BY id`)).toEqual(['outer', 'second inner']);
  });

  it('leave the connection usable after a failure', () => {
    const db = table();
    expect(() => db.transaction(() => db.prepare(`INSERT INTO nowhere VALUES (1)`).run())).toThrow();
    db.transaction(() => db.prepare(`INSERT INTO t (name) VALUES ('after')`).run());
    expect(value(db, `SELECT count(*) FROM t`)).toBe(1);
  });
});

describe('pragmas and errors', () => {
  it('a pragma gives its value; setting one gives nothing to trip on', () => {
    const db = openSqlite(':memory:');
    db.pragma('user_version = 7');
    expect(db.pragma('user_version')).toBe(7);
    db.pragma('foreign_keys = ON');
    expect(db.pragma('foreign_keys')).toBe(1);
  });

  it('errors carry SQLite primary code names, whichever driver threw them', () => {
    const db = table();
    db.prepare(`INSERT INTO t (name) VALUES ('a')`).run();
    let unique: unknown;
    try {
      db.prepare(`INSERT INTO t (name) VALUES ('a')`).run();
    } catch (e) {
      unique = e;
    }
    expect(sqliteCode(unique)).toBe('SQLITE_CONSTRAINT');
    const file = join(mkdtempSync(join(tmpdir(), 'lms-driver-')), 'notes.db');
    writeFileSync(file, 'not a database\n'.repeat(200));
    let notADb: unknown;
    try {
      openSqlite(file).pragma('user_version');
    } catch (e) {
      notADb = e;
    }
    expect(sqliteCode(notADb)).toBe('SQLITE_NOTADB');
  });

  it('a read-only connection cannot write', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lms-driver-')), 'ro.db');
    openSqlite(file).exec(`CREATE TABLE t (x)`);
    const ro = openSqlite(file, { readonly: true });
    expect(() => ro.exec(`INSERT INTO t VALUES (1)`)).toThrow();
  });
});

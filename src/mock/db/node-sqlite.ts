// node:sqlite's API, from the runtime (Node 22.13 and later) or, on a runtime without it (Node 20),
// from @photostructure/sqlite: the same API over SQLite built into the package, whose binaries come
// inside the npm package for each platform (nothing to compile, nothing to download). Declared here
// by the little this seam uses: the project's Node types are those of its oldest line.
import type { Connection, DriverName, OpenOptions, RunResult, Statement } from './connection.js';

interface StatementSync {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunResult;
  iterate(...params: unknown[]): IterableIterator<unknown>;
  columns?(): { name: string }[];
  setReturnArrays?(enabled: boolean): void;
}

interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean; enableForeignKeyConstraints?: boolean },
  ) => DatabaseSync;
}

interface Loaded {
  name: DriverName;
  /** Undefined when neither could be loaded; `error` says why. */
  module?: NodeSqliteModule;
  error?: string;
}

let loaded: Loaded | undefined;

/** The module this runtime's mock uses, loaded once: the runtime's own, else the package. */
export function sqliteModule(): Loaded {
  loaded ??= loadSqlite();
  return loaded;
}

function loadSqlite(): Loaded {
  const builtin = loadQuietly();
  if (builtin) return { name: 'node:sqlite', module: builtin };
  try {
    // require, not import: loaded (and evaluated) only on the runtime that needs it.
    return { name: '@photostructure/sqlite', module: require('@photostructure/sqlite') as NodeSqliteModule };
  } catch (error) {
    const missing = (error as { code?: string }).code === 'MODULE_NOT_FOUND';
    const why = missing ? 'is not installed' : `does not load here (${(error as Error).message.split('\n')[0]})`;
    return {
      name: '@photostructure/sqlite',
      error:
        `the mock needs SQLite: Node ${process.version} has none built in, and the @photostructure/sqlite ` +
        `package that brings it ${why}. Use Node 22.13 or newer, or reinstall lms with its optional dependencies.`,
    };
  }
}

/**
 * Node 22 calls node:sqlite experimental and says so on stderr the first time it loads: that is a
 * fact about the runtime, not about anything the user did, so they never see it. Other warnings
 * pass as they would.
 */
function loadQuietly(): NodeSqliteModule | undefined {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (/SQLite is an experimental feature/.test(String(text))) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

export function openNodeSqlite(path: string, options: OpenOptions): Connection {
  const { name, module, error } = sqliteModule();
  if (!module) throw new Error(error);
  // Foreign keys are switched by the caller's pragmas, as with any SQLite; node:sqlite's default is on.
  const db = new module.DatabaseSync(path, { readOnly: options.readonly ?? false, enableForeignKeyConstraints: false });
  return {
    driver: name,
    prepare: (sql) => plainRows(db.prepare(sql)),
    exec: (sql) => db.exec(sql),
    pragma: (text) => {
      const row = db.prepare(`PRAGMA ${text}`).get() as Record<string, unknown> | undefined;
      return row === undefined ? undefined : Object.values(row)[0];
    },
    close: () => db.close(),
  };
}

/**
 * node:sqlite gives each row as an object without a prototype; the mock's rows become API answers
 * that must be what JSON would make of them, so they are made plain. A statement's first rows are
 * given a prototype where they lie; once it has returned more than a few pages' worth, it returns
 * arrays instead, and one object literal compiled for it builds every row with the same shape,
 * faster than the driver's own objects over a long list. Compiling costs something for every
 * statement, which a run that reads a page or two never earns back.
 */
function plainRows(statement: StatementSync): Statement {
  let rows = 0;
  let compiled: ((raw: unknown) => unknown) | undefined;
  // Chosen before the statement returns rows: compiling switches the statement to arrays.
  const maker = () => {
    if (compiled === undefined && rows >= COMPILE_AFTER_ROWS) compiled = rowMaker(statement);
    return compiled ?? withPrototype;
  };
  return {
    get: (...params) => {
      const make = maker();
      const raw = statement.get(...params);
      if (raw === undefined) return undefined;
      rows++;
      return make(raw);
    },
    all: (...params) => {
      const make = maker();
      const all = statement.all(...params);
      for (let i = 0; i < all.length; i++) all[i] = make(all[i]);
      rows += all.length;
      return all;
    },
    run: (...params) => statement.run(...params),
    *iterate(...params) {
      const make = maker();
      for (const raw of statement.iterate(...params)) {
        rows++;
        yield make(raw);
      }
    },
  };
}

/** Rows a statement returns as the driver's objects before it is given a compiled row maker. */
const COMPILE_AFTER_ROWS = 500;

const withPrototype = (raw: unknown): unknown => Object.setPrototypeOf(raw as object, Object.prototype);

function rowMaker(statement: StatementSync): (raw: unknown) => unknown {
  const names = statement.setReturnArrays && statement.columns ? statement.columns().map((c) => c.name) : [];
  // A column called __proto__ would set the literal's prototype rather than a field.
  if (names.length === 0 || names.includes('__proto__')) return withPrototype;
  statement.setReturnArrays!(true);
  return new Function('r', `return { ${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')} };`) as (
    raw: unknown,
  ) => unknown;
}

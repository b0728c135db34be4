// What a driver adapter gives the driver seam: its own statements and connection. Apart from
// driver.ts, so that the adapters it opens can name these without importing it back.

export type DriverName = 'node:sqlite' | '@photostructure/sqlite';

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement; rows are plain objects keyed by column name. */
export interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunResult;
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

/** What an adapter gives: the driver's own statements, with the transaction logic shared above it. */
export interface Connection {
  driver: DriverName;
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(text: string): unknown;
  close(): void;
}

export interface OpenOptions {
  readonly?: boolean;
}

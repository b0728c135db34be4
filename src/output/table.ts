// Borderless tables in the style of kubectl and gh: uppercased header, columns separated by two
// spaces, one line per row. Lists are printed in batches so output keeps pace with paging.
//
// Identifier columns (src/output/columns.ts) are never cut: only free text gives way to the
// terminal's width. A later batch with wider values widens the table from that batch on, as
// kubectl's chunked listings do; lines already printed stay as they are. Widening rather than
// letting one cell run over: a later page that brings longer values usually brings many (ids of
// another shard, a run of long emails), and a cell that ran over would push every such row out of
// line with the next, where widening realigns them at the first batch that needs it. Widths only
// grow, so a listing shifts at most a few times, and nothing but the current batch is kept.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import stringWidth from 'string-width';
import { err, out, type IOStreams } from '../io/streams.js';
import { isIdentifierColumn } from './columns.js';
import { asRecord, isRecord, isScalar, valueAt, type JsonRecord } from './fields.js';
import { oneLine } from './text.js';
import { localTime } from './time.js';
import type { RenderOptions } from './formats.js';

const COLUMN_GAP = '  ';
const MAX_BATCH_ROWS = 50;
/** Nested objects in a free-text cell are a hint, not the data; -o json shows them whole. */
const MAX_NESTED_CELL_WIDTH = 40;
/** Shrinking for the terminal stops here; a narrower column would be unreadable. */
const MIN_COLUMN_WIDTH = 5;

const BORDERLESS: Partial<Record<Table.CharName, string>> = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: COLUMN_GAP,
};

const PLAIN_STYLE = { 'padding-left': 0, 'padding-right': 0, head: [], border: [] };

/** Printable ASCII: one column a character, so measured, cut and padded here without cli-table3. */
const PLAIN = /^[\x20-\x7e]*$/;

interface Row {
  cells: string[];
  /** Per cell: printed whole, whatever its column's width. */
  whole: readonly boolean[];
  /** Every cell printable ASCII. */
  plain: boolean;
}

interface Layout {
  columns: string[];
  whole: boolean[];
  /** The widest cell seen so far in each column, the header's included. */
  natural: number[];
  /** What rows are drawn at: natural widths, free-text columns capped to fit the terminal. */
  widths: number[];
}

export async function writeTableList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields, columns }: RenderOptions,
): Promise<number> {
  let layout: Layout | undefined;
  let count = 0;
  for await (const batch of batches(items, MAX_BATCH_ROWS)) {
    const records = batch.map(asRecord);
    let text = '';
    if (!layout) {
      const names = fields ?? columns ?? defaultColumns(records[0]);
      const whole = names.map(isIdentifierColumn);
      const head = rowOf(
        names.map((name) => cellText(name.toUpperCase())),
        whole,
      );
      layout = { columns: names, whole, natural: head.cells.map(() => 0), widths: [] };
      const rows = rowsOf(records, layout);
      measure([head, ...rows], layout.natural);
      layout.widths = fitToTerminal(layout.natural, whole, io.columns);
      text = drawHeader(io, head, layout.widths) + drawRows(rows, layout.widths);
    } else {
      const rows = rowsOf(records, layout);
      // Widths only grow: a batch of narrower values keeps the table as it is.
      if (measure(rows, layout.natural)) layout.widths = fitToTerminal(layout.natural, layout.whole, io.columns);
      text = drawRows(rows, layout.widths);
    }
    await out(io, text);
    count += batch.length;
  }
  if (count === 0) err(io, 'No results.\n');
  return count;
}

/**
 * A single record as KEY/VALUE rows, for `get`-style commands. A field name is never cut, and a
 * value is cut only when its field is free text: an identifier runs over the terminal's width.
 */
export async function writeKeyValueTable(item: unknown, { io, fields, columns }: RenderOptions): Promise<void> {
  if (!isRecord(item) && !(fields ?? columns)) {
    await out(io, `${cellText(item)}\n`);
    return;
  }
  const record = asRecord(item);
  const keys = fields ?? columns ?? Object.keys(record);
  const rows = keys.map((key) =>
    rowOf([cellText(key), cellText(valueAt(record, key))], [true, isIdentifierColumn(key)]),
  );
  const head = rowOf(['KEY', 'VALUE'], [true, false]);
  const natural = [0, 0];
  measure([head, ...rows], natural);
  const widths = fitToTerminal(natural, [true, false], io.columns);
  await out(io, drawHeader(io, head, widths) + drawRows(rows, widths));
}

function drawHeader(io: IOStreams, head: Row, widths: number[]): string {
  const line = drawRows([head], widths);
  return io.color ? `${new Chalk({ level: 1 }).bold(line.slice(0, -1))}\n` : line;
}

/**
 * Rows of printable ASCII are cut and padded here, exactly as cli-table3 would (a cell over its
 * width ends in '…'), at the cost of CSV rather than of a table: a listing's rows go this way. A
 * row with anything else (wide characters, emoji) is drawn by cli-table3, which measures them.
 */
function drawRows(rows: Row[], widths: number[]): string {
  let text = '';
  for (const row of rows) {
    if (!row.plain) {
      text += drawTable(row, widths);
      continue;
    }
    let line = '';
    for (let i = 0; i < row.cells.length; i++) {
      const cell = row.cells[i];
      const width = widths[i];
      if (i > 0) line += COLUMN_GAP;
      line += cell.length <= width ? cell.padEnd(width) : row.whole[i] ? cell : `${cell.slice(0, width - 1)}…`;
    }
    text += `${line.trimEnd()}\n`;
  }
  return text;
}

function drawTable(row: Row, widths: number[]): string {
  const table = new Table({
    chars: BORDERLESS,
    style: PLAIN_STYLE,
    // A whole cell wider than its column gets a column of its own width for this row.
    colWidths: widths.map((width, i) => (row.whole[i] ? Math.max(width, stringWidth(row.cells[i])) : width)),
  });
  table.push(row.cells);
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

function rowOf(cells: string[], whole: readonly boolean[]): Row {
  return { cells, whole, plain: cells.every((cell) => PLAIN.test(cell)) };
}

function rowsOf(records: JsonRecord[], layout: Layout): Row[] {
  return records.map((record) =>
    rowOf(
      layout.columns.map((column, i) => listCell(valueAt(record, column), layout.whole[i])),
      layout.whole,
    ),
  );
}

/**
 * Raises `natural` to the display width of the widest cell of each column (string-width, the
 * measure cli-table3 draws by, for anything but printable ASCII). True when any column grew.
 */
function measure(rows: Row[], natural: number[]): boolean {
  let grew = false;
  for (const row of rows) {
    for (let i = 0; i < row.cells.length; i++) {
      const cell = row.cells[i];
      const width = row.plain ? cell.length : stringWidth(cell);
      if (width > natural[i]) {
        natural[i] = width;
        grew = true;
      }
    }
  }
  return grew;
}

/**
 * Caps the widest free-text columns (never below MIN_COLUMN_WIDTH) until a line fits the terminal.
 * Identifier columns keep their width; when they alone are wider than the terminal, the line is.
 */
function fitToTerminal(natural: number[], whole: readonly boolean[], terminalWidth: number | undefined): number[] {
  if (!terminalWidth) return [...natural];
  const fixed = natural.reduce((sum, width, i) => (whole[i] ? sum + width : sum), 0);
  const budget = terminalWidth - COLUMN_GAP.length * (natural.length - 1) - fixed;
  const free = natural.filter((_, i) => !whole[i]);
  const widthWithCap = (cap: number) => free.reduce((sum, width) => sum + Math.min(width, cap), 0);
  if (free.length === 0 || widthWithCap(Infinity) <= budget) return [...natural];
  let low = MIN_COLUMN_WIDTH;
  let high = Math.max(...free);
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (widthWithCap(cap) <= budget) low = cap;
    else high = cap - 1;
  }
  return natural.map((width, i) => (whole[i] ? width : Math.min(width, low)));
}

/** Default list columns: the scalar fields; nested objects only if there is nothing else. */
function defaultColumns(record: JsonRecord): string[] {
  const keys = Object.keys(record);
  const scalarKeys = keys.filter((key) => isScalar(record[key]));
  return scalarKeys.length > 0 ? scalarKeys : keys;
}

// A cell is one line, and control characters from API data must not move the cursor or recolour
// the terminal. A moment is shown in local time (time.ts).
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return localTime(value) ?? oneLine(value);
  return oneLine(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** A list cell; nested values are shortened only in free-text columns (a list of ids is whole). */
function listCell(value: unknown, whole: boolean): string {
  const text = cellText(value);
  if (whole || isScalar(value)) return text;
  const characters = [...text];
  return characters.length > MAX_NESTED_CELL_WIDTH
    ? `${characters.slice(0, MAX_NESTED_CELL_WIDTH - 1).join('')}…`
    : text;
}

const SOURCE_WAITING = Symbol('source waiting');

/**
 * Groups items into batches of at most `maxSize`, ending a batch early whenever the source has to
 * wait (for the next page), so rows that have arrived are shown at once.
 */
async function* batches<T>(items: AsyncIterable<T> | Iterable<T>, maxSize: number): AsyncGenerator<T[]> {
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : fromSync(items);
  let batch: T[] = [];
  let finished = false;
  // An item that is ready arrives within microtasks; if a macrotask runs first, the source is
  // waiting on I/O. An in-process source may never yield to a macrotask, so each signal is
  // cancelled once its batch ends: a pending one would hold every item raced against it.
  let sourceIdle = macrotaskSignal();
  try {
    for (;;) {
      const next = iterator.next();
      const raced = await Promise.race([next, sourceIdle.promise]);
      let result: IteratorResult<T>;
      if (raced !== SOURCE_WAITING) {
        result = raced;
      } else {
        if (batch.length > 0) {
          yield batch;
          batch = [];
        }
        result = await next;
        sourceIdle = macrotaskSignal();
      }
      if (result.done) {
        finished = true;
        break;
      }
      batch.push(result.value);
      if (batch.length >= maxSize) {
        sourceIdle.cancel();
        yield batch;
        batch = [];
        sourceIdle = macrotaskSignal();
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    sourceIdle.cancel();
    if (!finished) await iterator.return?.();
  }
}

/** A promise of the next macrotask; cancelled, it never settles and nothing keeps it alive. */
function macrotaskSignal(): { promise: Promise<typeof SOURCE_WAITING>; cancel(): void } {
  let handle: NodeJS.Immediate | undefined;
  const promise = new Promise<typeof SOURCE_WAITING>((resolve) => {
    handle = setImmediate(() => resolve(SOURCE_WAITING));
  });
  return { promise, cancel: () => clearImmediate(handle) };
}

async function* fromSync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

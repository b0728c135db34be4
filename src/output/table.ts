// Borderless tables in the style of kubectl and gh: uppercased header, columns separated by two
// spaces, one line per row. Lists are printed in batches so output keeps pace with paging.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import { err, out, type IOStreams } from '../io/streams.js';
import { asRecord, isRecord, isScalar, valueAt, type JsonRecord } from './fields.js';
import type { RenderOptions } from './formats.js';

const COLUMN_GAP = '  ';
const MAX_BATCH_ROWS = 50;
/** Nested objects in a list cell are a hint, not the data; -o json shows them whole. */
const MAX_NESTED_CELL_WIDTH = 40;
/** Shrinking for the terminal stops here; a narrower column would be unreadable. */
const MIN_COLUMN_WIDTH = 5;

const BORDERLESS: Partial<Record<Table.CharName, string>> = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: COLUMN_GAP,
};

const PLAIN_STYLE = { 'padding-left': 0, 'padding-right': 0, head: [], border: [] };

interface Layout {
  columns: string[];
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
    let text: string;
    if (layout) {
      text = drawRows(io, rowsOf(records, layout.columns), layout.widths);
    } else {
      const layoutColumns = fields ?? columns ?? defaultColumns(records[0]);
      const rendered = drawFirstBatch(io, layoutColumns, rowsOf(records, layoutColumns));
      layout = { columns: layoutColumns, widths: rendered.widths };
      text = rendered.text;
    }
    await out(io, text);
    count += batch.length;
  }
  if (count === 0) err(io, 'No results.\n');
  return count;
}

/** A single record as KEY/VALUE rows, for `get`-style commands. */
export async function writeKeyValueTable(item: unknown, { io, fields, columns }: RenderOptions): Promise<void> {
  if (!isRecord(item) && !(fields ?? columns)) {
    await out(io, `${cellText(item)}\n`);
    return;
  }
  const record = asRecord(item);
  const keys = fields ?? columns ?? Object.keys(record);
  const rows = keys.map((key) => [cellText(key), cellText(valueAt(record, key))]);
  await out(io, drawFirstBatch(io, ['key', 'value'], rows).text);
}

/** Draws the header and first rows, and fixes the column widths every later batch will use. */
function drawFirstBatch(io: IOStreams, columns: string[], rows: string[][]): { text: string; widths: number[] } {
  const head = columns.map((column) => column.toUpperCase());
  const natural = measureWidths(head, rows);
  const widths = fitToTerminal(natural, io.columns);
  return { text: drawTable(io, rows, { head, widths }), widths };
}

function drawTable(io: IOStreams, rows: string[][], { head, widths }: { head?: string[]; widths: number[] }): string {
  const bold = io.color ? new Chalk({ level: 1 }).bold : (text: string) => text;
  const table = new Table({
    chars: BORDERLESS,
    style: PLAIN_STYLE,
    // cli-table3 writes its computed widths back into this array; keep the caller's intact.
    colWidths: [...widths],
    ...(head ? { head: head.map((name) => bold(name)) } : {}),
  });
  table.push(...rows);
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

const PLAIN = /^[\x20-\x7e]*$/;

/**
 * Later batches, once the layout is fixed: rows of printable ASCII are cut and padded here, exactly
 * as cli-table3 would (a cell over its width ends in '…'), at the cost of CSV rather than of a
 * table; a row with anything else (wide characters) is still drawn by cli-table3.
 */
function drawRows(io: IOStreams, rows: string[][], widths: number[]): string {
  let text = '';
  for (const row of rows) {
    if (!row.every((cell) => PLAIN.test(cell))) {
      text += drawTable(io, [row], { widths });
      continue;
    }
    const line = row.map((cell, i) => (cell.length > widths[i] ? `${cell.slice(0, widths[i] - 1)}…` : cell.padEnd(widths[i]))).join(COLUMN_GAP);
    text += `${line.trimEnd()}\n`;
  }
  return text;
}

// cli-table3 measures display width (wide characters, colour codes) and records the widths it
// computed in options.colWidths; rendering once and reading them back keeps one notion of width.
function measureWidths(head: string[], rows: string[][]): number[] {
  const table = new Table({ head, chars: BORDERLESS, style: PLAIN_STYLE });
  table.push(...rows);
  table.toString();
  return head.map((_, index) => table.options.colWidths[index] ?? MIN_COLUMN_WIDTH);
}

/** Caps the widest columns (never below MIN_COLUMN_WIDTH) until a line fits the terminal. */
function fitToTerminal(natural: number[], terminalWidth: number | undefined): number[] {
  if (!terminalWidth) return natural;
  const budget = terminalWidth - COLUMN_GAP.length * (natural.length - 1);
  const widthWithCap = (cap: number) => natural.reduce((sum, width) => sum + Math.min(width, cap), 0);
  if (widthWithCap(Infinity) <= budget) return natural;
  let low = MIN_COLUMN_WIDTH;
  let high = Math.max(...natural);
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (widthWithCap(cap) <= budget) low = cap;
    else high = cap - 1;
  }
  return natural.map((width) => Math.min(width, low));
}

function rowsOf(records: JsonRecord[], columns: string[]): string[][] {
  return records.map((record) => columns.map((column) => listCell(valueAt(record, column))));
}

/** Default list columns: the scalar fields; nested objects only if there is nothing else. */
function defaultColumns(record: JsonRecord): string[] {
  const keys = Object.keys(record);
  const scalarKeys = keys.filter((key) => isScalar(record[key]));
  return scalarKeys.length > 0 ? scalarKeys : keys;
}

// A cell is one line, and control characters from API data must not move the cursor or recolour
// the terminal.
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

function listCell(value: unknown): string {
  const text = cellText(value);
  if (isScalar(value)) return text;
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

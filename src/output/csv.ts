import { stringify } from 'csv-stringify/sync';
import { out } from '../io/streams.js';
import { asRecord, valueAt } from './fields.js';
import { guardCell } from './csv-guard.js';
import type { RenderOptions } from './formats.js';

/**
 * Header row, then one row per item as it arrives. Without known columns, the first item's keys are
 * used. Text a spreadsheet would run as a formula is guarded (csv-guard.ts) unless `raw`. Nothing
 * is written before the first item, or before the list is known to be empty: a list that fails
 * first (an instance that does not answer, a 401) leaves no header that reads as an empty export.
 */
export async function writeCsvList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields, columns, raw }: RenderOptions,
): Promise<number> {
  const csvLine = (cells: string[]) => stringify([raw ? cells : cells.map(guardCell)]);
  let header = fields ?? columns;
  let count = 0;
  for await (const item of items) {
    const record = asRecord(item);
    header ??= Object.keys(record);
    if (count === 0) await out(io, csvLine(header));
    await out(io, csvLine(header.map((column) => csvCell(valueAt(record, column)))));
    count++;
  }
  if (count === 0 && header) await out(io, csvLine(header));
  return count;
}

// Cells are stringified here rather than by csv-stringify, whose defaults write booleans as 1/''.
// A number comes out as digits with at most a minus, which the guard leaves as it is.
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

import { stringify } from 'csv-stringify/sync';
import { out } from '../io/streams.js';
import { asRecord, valueAt } from './fields.js';
import { guardCell } from './csv-guard.js';
import type { RenderOptions } from './formats.js';

/**
 * Header row, then one row per item as it arrives. Without known columns, the first item's keys are
 * used. Text a spreadsheet would run as a formula is guarded (csv-guard.ts) unless `raw`.
 */
export async function writeCsvList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields, columns, raw }: RenderOptions,
): Promise<number> {
  const csvLine = (cells: string[]) => stringify([raw ? cells : cells.map(guardCell)]);
  let header = fields ?? columns;
  if (header) await out(io, csvLine(header));
  let count = 0;
  for await (const item of items) {
    const record = asRecord(item);
    if (!header) {
      header = Object.keys(record);
      await out(io, csvLine(header));
    }
    await out(io, csvLine(header.map((column) => csvCell(valueAt(record, column)))));
    count++;
  }
  return count;
}

// Cells are stringified here rather than by csv-stringify, whose defaults write booleans as 1/''.
// A number comes out as digits with at most a minus, which the guard leaves as it is.
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

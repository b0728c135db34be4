import { stringify } from 'csv-stringify/sync';
import { out } from '../io/streams.js';
import { asRecord, valueAt } from './fields.js';
import type { RenderOptions } from './formats.js';

/** Header row, then one row per item as it arrives. Without known columns, the first item's keys are used. */
export async function writeCsvList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields, columns }: RenderOptions,
): Promise<number> {
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

function csvLine(cells: string[]): string {
  return stringify([cells]);
}

// Cells are stringified here rather than by csv-stringify, whose defaults write booleans as 1/''.
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

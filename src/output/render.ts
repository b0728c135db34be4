// Turns command results into output. Commands return data; this is the only module that decides
// how it looks. Table and CSV renderers pull in their libraries, so they are loaded only when used.
import { out, type IOStreams } from '../io/streams.js';
import { selectFields } from './fields.js';
import type { Format } from './formats.js';

export { FORMATS, type Format } from './formats.js';

export interface RenderOptions {
  io: IOStreams;
  format: Format;
  /** --fields a,b,c: select (and order) these keys for every format; dotted paths like user.name allowed. */
  fields?: string[];
  /** The command's default columns for table and csv when --fields is absent. */
  columns?: string[];
}

/** Streams a list: writes each item as it arrives (first page printed before the last is fetched). Returns the count. */
export async function renderList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  options: RenderOptions,
): Promise<number> {
  const normalized = normalize(options);
  switch (normalized.format) {
    case 'json':
      return writeJsonArray(items, normalized);
    case 'ndjson':
      return writeNdjson(items, normalized);
    case 'csv':
      return (await import('./csv.js')).writeCsvList(items, normalized);
    case 'table':
      return (await import('./table.js')).writeTableList(items, normalized);
  }
}

/** One object (or any JSON value). */
export async function renderItem(item: unknown, options: RenderOptions): Promise<void> {
  const normalized = normalize(options);
  switch (normalized.format) {
    case 'json':
      await out(normalized.io, `${toJson(project(item, normalized.fields), 2)}\n`);
      return;
    case 'ndjson':
      await out(normalized.io, `${toJson(project(item, normalized.fields))}\n`);
      return;
    case 'csv':
      if (Array.isArray(item)) await renderList(item, normalized);
      else await (await import('./csv.js')).writeCsvList([item], normalized);
      return;
    case 'table':
      if (Array.isArray(item)) await renderList(item, normalized);
      else await (await import('./table.js')).writeKeyValueTable(item, normalized);
      return;
  }
}

/** Chooses the default: 'table' when stdout is a TTY, else 'json'. */
export function defaultFormat(io: IOStreams): Format {
  return io.stdoutIsTTY ? 'table' : 'json';
}

// `--fields ""` selects nothing useful; treat it as absent rather than printing empty objects.
function normalize(options: RenderOptions): RenderOptions {
  return options.fields?.length ? options : { ...options, fields: undefined };
}

function project(item: unknown, fields: readonly string[] | undefined): unknown {
  return fields ? selectFields(item, fields) : item;
}

// JSON.stringify returns undefined for undefined (and functions); print what an array would hold.
function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent) ?? 'null';
}

// Byte-for-byte JSON.stringify(list, null, 2), written one element at a time. If the source fails
// midway the array is left unclosed on purpose: a consumer must not mistake a partial list for a
// complete one.
async function writeJsonArray(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields }: RenderOptions,
): Promise<number> {
  let count = 0;
  for await (const item of items) {
    const element = toJson(project(item, fields), 2).replace(/^/gm, '  ');
    await out(io, `${count === 0 ? '[\n' : ',\n'}${element}`);
    count++;
  }
  await out(io, count === 0 ? '[]\n' : '\n]\n');
  return count;
}

async function writeNdjson(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields }: RenderOptions,
): Promise<number> {
  let count = 0;
  for await (const item of items) {
    await out(io, `${toJson(project(item, fields))}\n`);
    count++;
  }
  return count;
}

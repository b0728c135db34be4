// Turns command results into output. Commands return data; this is the only module that decides
// how it looks. Table, CSV, YAML and jq pull in their libraries, so they are loaded only when used.
import { out, showingControls } from '../io/streams.js';
import { checkFields, project, projectItem } from './fields.js';
import type { RenderOptions } from './formats.js';

export { defaultFormat, FORMATS, type Format, type RenderOptions } from './formats.js';

/**
 * Streams a list: writes each item as it arrives (first page printed before the last is fetched).
 * Returns the count. --fields is checked against the first item before anything is written.
 */
export async function renderList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  options: RenderOptions,
): Promise<number> {
  const normalized = normalize(options);
  if (normalized.fields) items = await checkedAgainstFirst(items, normalized.fields);
  if (normalized.jq) return (await import('./jq.js')).writeJqList(items, { ...normalized, jq: normalized.jq });
  switch (normalized.format) {
    case 'json':
      return writeJsonArray(items, normalized);
    case 'ndjson':
      return writeNdjson(items, normalized);
    case 'csv':
      return (await import('./csv.js')).writeCsvList(items, normalized);
    case 'table':
      return (await import('./table.js')).writeTableList(items, normalized);
    case 'yaml':
      return (await import('./yaml.js')).writeYamlList(items, normalized);
  }
}

/**
 * One object (or any JSON value). A single record shows every field (a table shows them as
 * KEY/VALUE rows): a command's columns are for lists, so a `get` or an `update` hides nothing.
 */
export async function renderItem(item: unknown, options: RenderOptions): Promise<void> {
  const normalized = normalize(Array.isArray(item) ? options : { ...options, columns: undefined });
  if (normalized.fields) {
    if (!Array.isArray(item)) checkFields(item, normalized.fields);
    else if (item.length > 0) checkFields(item[0], normalized.fields);
  }
  if (normalized.jq) return (await import('./jq.js')).writeJqItem(item, { ...normalized, jq: normalized.jq });
  switch (normalized.format) {
    case 'json':
      await out(normalized.io, `${toJson(projectItem(item, normalized.fields), 2)}\n`);
      return;
    case 'ndjson':
      await out(normalized.io, `${toJson(projectItem(item, normalized.fields))}\n`);
      return;
    case 'csv':
      if (Array.isArray(item)) await renderList(item, normalized);
      else await (await import('./csv.js')).writeCsvList([item], normalized);
      return;
    case 'table':
      if (Array.isArray(item)) await renderList(item, normalized);
      else await (await import('./table.js')).writeKeyValueTable(item, normalized);
      return;
    case 'yaml':
      return (await import('./yaml.js')).writeYamlItem(item, normalized);
  }
}

/**
 * What a command prints as text. With --jq, a JSON file a command prints (`export course`) is
 * filtered as jq would filter it from a pipe; text that is no JSON is a usage error.
 */
export async function renderText(text: string, options: RenderOptions): Promise<void> {
  const io = showingControls(options.io);
  if (options.jq) return (await import('./jq.js')).writeJqText(text, { ...options, io, jq: options.jq });
  await out(io, text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

// `--fields ""` selects nothing useful; treat it as absent rather than printing empty objects. A
// table makes each cell one line of its own; every other format shows the data as it is, with its
// control characters escaped on a terminal.
function normalize(options: RenderOptions): RenderOptions {
  const io = options.format === 'table' && !options.jq ? options.io : showingControls(options.io);
  return { ...options, io, fields: options.fields?.length ? options.fields : undefined };
}

/**
 * The same items, after checking --fields against the first one. Pulling that item first means a
 * bad field name fails before any output (no opening bracket, no CSV header). An empty list cannot
 * be checked and passes as it is.
 */
async function checkedAgainstFirst(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  fields: readonly string[],
): Promise<AsyncIterable<unknown> | Iterable<unknown>> {
  const iterator: AsyncIterator<unknown> | Iterator<unknown> =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  const first = await iterator.next();
  if (first.done) return [];
  try {
    checkFields(first.value, fields);
  } catch (error) {
    await iterator.return?.();
    throw error;
  }
  return (async function* () {
    let finished = false;
    try {
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        yield next.value;
      }
      finished = true;
    } finally {
      if (!finished) await iterator.return?.();
    }
  })();
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

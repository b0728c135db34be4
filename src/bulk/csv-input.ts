// Reads a CSV with a header and checks every row before anything is sent: a problem anywhere means
// a line-numbered message, and nothing goes to the server.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { readAll } from '../io/streams.js';

export interface CsvRow {
  /** Line of the input where the record starts (1-based, the header is line 1). */
  line: number;
  values: Record<string, string>;
}

export interface Problem {
  line: number;
  message: string;
}

export interface Schema {
  /** Columns the header may use. The failed-rows file's ERROR_COLUMN is accepted too, and ignored. */
  columns: readonly string[];
  required: readonly string[];
  /** Per-row checks; return messages. */
  check?: (values: Record<string, string>) => string[];
  /** Columns whose values must be unique in the file (case-insensitive). */
  unique?: readonly string[];
}

/**
 * The column a failed-rows file (failed.ts) adds: why the row failed. Every bulk import accepts it
 * and ignores its values, so the file the tool hands back can be fixed and imported as it is.
 */
export const ERROR_COLUMN = 'error';

/** The largest field accepted; real exports stay far below it. */
export const MAX_FIELD_BYTES = 1024 * 1024;

export async function readInput(path: string, stdin: NodeJS.ReadableStream): Promise<{ bytes: Buffer; name: string }> {
  if (path === '-') return { bytes: await readAll(stdin), name: 'stdin' };
  try {
    return { bytes: await readFile(path), name: path };
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${whyUnreadable(e)}`);
  }
}

/** Why a file could not be read, in words (the system's code alone means little to most people). */
export function whyUnreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return (e as Error).message || String(code);
  }
}

export interface Parsed {
  rows: CsvRow[];
  problems: Problem[];
  /** The header's columns as given (normalised, in file order), ERROR_COLUMN left out. */
  header: string[];
}

/** A record of a CSV file and the line it starts on (a quoted field may span several). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * The header (trimmed, lower-cased) and the records of a CSV file, each with the line it starts on;
 * or the one problem that stops the file being read: not UTF-8, not CSV, a field over 1 MiB, empty.
 * `relaxColumnCount` lets a record have more or fewer cells than the header.
 */
export function readCsvRecords(bytes: Buffer, { columns, relaxColumnCount = false }: { columns: readonly string[]; relaxColumnCount?: boolean }): { header: string[]; records: CsvRecord[] } | { problem: Problem } {
  const encodingProblem = firstInvalidUtf8Line(bytes);
  if (encodingProblem) return { problem: { line: encodingProblem, message: 'not valid UTF-8 (save the file as UTF-8)' } };
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // Records of another length are found below, where the header's names can be said too.
    parsed = parse(bytes, { bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_FIELD_BYTES, info: true, trim: false }) as unknown as typeof parsed;
  } catch (err) {
    const e = err as { lines?: number; message: string; code?: string };
    const message =
      e.code === 'CSV_MAX_RECORD_SIZE'
        ? `a field is larger than ${MAX_FIELD_BYTES / 1024 / 1024} MiB`
        : e.code === 'CSV_QUOTE_NOT_CLOSED'
          ? 'a quoted field is never closed'
          : e.message.replace(/^Invalid Record Length: /, '').replace(/, got \d+ on line \d+$/, '');
    return { problem: { line: e.lines ?? 1, message } };
  }
  if (parsed.length === 0) return { problem: { line: 1, message: `the file is empty; it needs a header: ${columns.join(',')}` } };
  const header = parsed[0].record.map((h) => h.trim().toLowerCase());
  const records: CsvRecord[] = [];
  let previousEnd = parsed[0].info.lines;
  for (const { record, info } of parsed.slice(1)) {
    const line = previousEnd + 1;
    if (!relaxColumnCount && record.length !== header.length) {
      const n = record.length;
      return { problem: { line, message: `has ${n} field${n === 1 ? '' : 's'} where the header has ${header.length} (${header.join(', ')}); a field with a comma needs quotes` } };
    }
    records.push({ line, cells: record });
    previousEnd = info.lines;
  }
  return { header, records };
}

export function parseCsv(bytes: Buffer, schema: Schema): Parsed {
  const read = readCsvRecords(bytes, { columns: schema.columns });
  if ('problem' in read) return { rows: [], header: [], problems: [read.problem] };
  const { header, records } = read;
  const ignored = schema.columns.includes(ERROR_COLUMN) ? [] : [ERROR_COLUMN];
  const problems: Problem[] = [];
  const unknown = header.filter((h) => !schema.columns.includes(h) && !ignored.includes(h));
  const missing = schema.required.filter((c) => !header.includes(c));
  if (unknown.length) problems.push({ line: 1, message: `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}; the header may use ${schema.columns.join(', ')}` });
  if (missing.length) problems.push({ line: 1, message: `missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` });
  const dupes = header.filter((h, i) => header.indexOf(h) !== i);
  if (dupes.length) problems.push({ line: 1, message: `column ${dupes[0]} appears twice` });
  const kept = header.filter((h) => !ignored.includes(h));
  if (problems.length) return { rows: [], header: kept, problems };

  const rows: CsvRow[] = [];
  const seen = new Map<string, Map<string, number>>((schema.unique ?? []).map((c) => [c, new Map()]));
  for (const { line, cells } of records) {
    const values: Record<string, string> = {};
    header.forEach((h, i) => {
      if (!ignored.includes(h)) values[h] = cells[i]?.trim() ?? '';
    });
    for (const c of schema.required) if (!values[c]) problems.push({ line, message: `${c} is empty` });
    for (const message of schema.check?.(values) ?? []) problems.push({ line, message });
    for (const [column, firstSeen] of seen) {
      const v = values[column]?.toLowerCase();
      if (!v) continue;
      const first = firstSeen.get(v);
      if (first !== undefined) problems.push({ line, message: `${column} "${values[column]}" repeats line ${first}` });
      else firstSeen.set(v, line);
    }
    rows.push({ line, values });
  }
  return { rows, header: kept, problems };
}

function firstInvalidUtf8Line(bytes: Buffer): number | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(bytes);
    return undefined;
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          decoder.decode(bytes.subarray(start, i));
        } catch {
          return line;
        }
        line++;
        start = i + 1;
      }
    }
    return 1;
  }
}

export function formatProblems(problems: Problem[], source: string): string {
  const shown = problems.slice(0, 50).map((p) => `  ${source}:${p.line}: ${p.message}`);
  if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
  return shown.join('\n');
}

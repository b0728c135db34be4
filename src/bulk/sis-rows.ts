// What the imports of Canvas's SIS files through the API share (`sections import`, `courses
// import`): the file told by its header, cells the API path cannot apply refused with their line, and
// dates compared as instants. Small on purpose: a command tree loads it to build its help; the CSV
// reader is handed in when a job runs.
import { UsageError } from '../errors.js';
import { SIS_KIND_FILES, sisKindOf, sisRowProblems, type SisFileKind, type SisKind } from '../spec/sis-csv.js';
import type { Delimiter, Parsed, Schema } from './csv-input.js';
import type { Difference } from './job.js';

/** The lms verb that reads each kind of SIS file row by row through the API. */
const READER: Partial<Record<SisFileKind, string>> = {
  user: 'lms users import',
  enrollment: 'lms enrollments import',
  course: 'lms courses import',
  section: 'lms sections import',
};

/**
 * Reads a file of one SIS kind: refused whole when its header is another kind's (a users.csv handed
 * to `sections import`), saying which verb reads that one; checked in the file's own columns
 * otherwise, so failed rows go back out in them.
 */
export function sisParser(csv: typeof import('./csv-input.js'), kind: SisKind, schema: Schema) {
  return (bytes: Buffer, name: string, options: { delimiter?: Delimiter }): Parsed => {
    const read = csv.readCsvRecords(bytes, { columns: [], relaxColumnCount: true, ...options });
    const found = 'problem' in read ? undefined : sisKindOf(read.header);
    if (found && found !== kind) {
      const reader = READER[found] ?? 'lms sis import';
      throw new UsageError(
        `${name} is a SIS ${SIS_KIND_FILES[found].file}, not a ${SIS_KIND_FILES[kind].file}: ${reader} reads it`,
      );
    }
    return csv.parseCsv(bytes, schema, options);
  };
}

/** A row's problems by the SIS description (required cells, its status, its dates), and those of `more`. */
export function sisChecks(kind: SisKind, more: (v: Record<string, string>) => string[]) {
  return (v: Record<string, string>): string[] => [...sisRowProblems(kind, v), ...more(v)];
}

/**
 * A filled cell of a column the API path cannot set: the row is refused (with its line) rather than
 * imported without it, and the file pointed to the instance's own importer.
 */
export function unsupportedCells(v: Record<string, string>, columns: readonly string[], noun: string): string[] {
  return columns
    .filter((c) => v[c])
    .map((c) => `${c} "${v[c]}": lms ${noun} import cannot set it; run the file with lms sis import`);
}

/** Two times that are one instant ("2026-09-01" and "2026-09-01T00:00:00Z"), or the same text. */
function sameInstant(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? a === b : x === y;
}

/** The row's dates that differ from the record's; a date the row leaves empty has no opinion. */
export function changedDates(
  row: { start_at?: string; end_at?: string },
  current: { start_at?: string | null; end_at?: string | null },
): Difference[] {
  const changes: Difference[] = [];
  for (const field of ['start_at', 'end_at'] as const) {
    const to = row[field];
    const from = current[field] ?? '';
    if (to && !sameInstant(from, to)) changes.push({ field, from, to, applicable: true });
  }
  return changes;
}

// The failed-rows file: the rows of this run that did not succeed — rows the API refused and, with
// --skip-invalid, rows that never passed validation — with the input's own columns and an `error`
// column saying why. Every bulk import reads this file back as it is (csv-input ignores the error
// column), so "fix the rows, import the file" works with no editing of the header.
import { access, chmod, writeFile } from 'node:fs/promises';
import { encodeText, ERROR_COLUMN, type CsvDialect } from './csv-input.js';
import { guardCell } from '../output/csv-guard.js';

export interface FailedRow {
  line: number;
  values: Record<string, string>;
  error: string;
}

/**
 * What became of the file: `written` with this run's failed rows; with none, `kept` when a file was
 * already there (an earlier run's, or the very file just imported) and `none` when there was none.
 */
export type FailedFile = 'written' | 'kept' | 'none';

/**
 * Writes the failed rows, replacing any earlier file. With no failed rows it writes nothing: an
 * empty file would say "rows failed" to anyone who checks that it exists, and the path may be the
 * file the user just imported (the fix-and-import-again loop) or one they edited since; the exit
 * code and the summary say that nothing failed.
 */
export async function writeFailedRows(
  path: string,
  header: readonly string[],
  rows: FailedRow[],
  /**
   * The input's dialect, which the file is written in (its separator, byte-order mark, line ending, encoding); plain
   * UTF-8 CSV by default.
   */
  dialect?: CsvDialect,
): Promise<FailedFile> {
  if (rows.length === 0)
    return (await access(path).then(
      () => true,
      () => false,
    ))
      ? 'kept'
      : 'none';
  const { stringify } = await import('csv-stringify/sync');
  const columns = [...header.filter((c) => c !== ERROR_COLUMN), ERROR_COLUMN];
  // Guarded as every CSV lms writes (csv-guard.ts); the import takes the guard off again.
  const records = [...rows]
    .sort((a, b) => a.line - b.line)
    .map((r) => columns.map((c) => guardCell(c === ERROR_COLUMN ? r.error : (r.values[c] ?? ''))));
  // The rows came from the user's own file (a password column included, when there was one): only they may read it.
  const text = stringify([columns.map(guardCell), ...records], {
    delimiter: dialect?.delimiter ?? ',',
    record_delimiter: dialect?.eol === '\r\n' ? 'windows' : 'unix',
  });
  await writeFile(path, encodeText(text, dialect?.encoding ?? 'utf-8', dialect?.bom ?? false), { mode: 0o600 });
  await chmod(path, 0o600).catch(() => undefined);
  return 'written';
}

/**
 * What a report says of the file, if anything: `Failed rows are in failed.csv; fix them and import that file as it is.`
 */
export function failedFileNote(
  path: string,
  outcome: FailedFile,
  o: { rows: string; verb: string },
): string | undefined {
  if (outcome === 'written') return `${o.rows} are in ${path}; fix them and ${o.verb} that file as it is.`;
  if (outcome === 'kept') return `Nothing failed, so ${path} was not written; the file there is left as it was.`;
  return undefined;
}

// The failed-rows file: the rows of this run that did not succeed — rows the API refused and, with
// --skip-invalid, rows that never passed validation — with the input's own columns and an `error`
// column saying why. Every bulk import reads this file back as it is (csv-input ignores the error
// column), so "fix the rows, import the file" works with no editing of the header.
import { chmod, writeFile } from 'node:fs/promises';
import { ERROR_COLUMN } from './csv-input.js';

export interface FailedRow {
  line: number;
  values: Record<string, string>;
  error: string;
}

/**
 * Writes the file, replacing any earlier one: after a run with no failures it holds only the
 * header, so a file left from an earlier run never lists rows that have since succeeded.
 */
export async function writeFailedRows(path: string, header: readonly string[], rows: FailedRow[]): Promise<void> {
  const { stringify } = await import('csv-stringify/sync');
  const columns = [...header.filter((c) => c !== ERROR_COLUMN), ERROR_COLUMN];
  const records = [...rows].sort((a, b) => a.line - b.line).map((r) => ({ ...r.values, [ERROR_COLUMN]: r.error }));
  // The rows came from the user's own file (a password column included, when there was one): only they may read it.
  await writeFile(path, stringify(records, { header: true, columns }), { mode: 0o600 });
  await chmod(path, 0o600).catch(() => undefined);
}

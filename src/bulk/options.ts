// The flags every bulk import shares, declared once so `users import`, `enrollments import`,
// `grade --csv` and `outcomes import` spell and explain them alike. Tiny on purpose: a command tree
// loads it to build its help; the engine itself is imported only when a job runs.
import type { OptionsOf } from '../model/define.js';

/** Rows (or batches, or changes) in flight at once: past 32 a real instance only throttles. */
export const CONCURRENCY = { type: 'integer', min: 1, max: 32, default: '4' } as const;

/**
 * The separator of a CSV input, for a file whose header cannot tell (one column) or tells wrong; read
 * off the header otherwise. Every verb that reads a CSV takes it.
 */
export const DELIMITER_FLAG = {
  long: 'delimiter',
  value: 'char',
  description: "the CSV's separator: , ; or tab (default: read off its header)",
} as const;

/**
 * The shared flags as a typed record, for commands declared with `command()`. `noun`: what a row
 * makes ("users"); `updatable`: the fields --update can change.
 */
export function bulkFlags(what: { noun: string; updatable: readonly string[] }) {
  return {
    dryRun: { long: 'dry-run', description: `show what would be created, updated or left alone; write nothing` },
    update: {
      long: 'update',
      description: `change existing ${what.noun} whose ${what.updatable.join(', ')} differ from the file`,
    },
    concurrency: {
      long: 'concurrency',
      value: 'n',
      description: 'rows in flight at once (the server may slow this further)',
      ...CONCURRENCY,
    },
    skipInvalid: {
      long: 'skip-invalid',
      description: 'import the valid rows and report the invalid ones, instead of stopping',
    },
    failedOut: {
      file: 'written',
      long: 'failed-out',
      value: 'file',
      description:
        'write failed (and skipped invalid) rows here as CSV, with an error column; import that file once fixed',
    },
    restart: {
      long: 'restart',
      description: 'ignore what earlier runs of this file recorded, and check every row again',
    },
    delimiter: DELIMITER_FLAG,
  } as const;
}

/** What a bulk command receives from those flags. */
export type BulkOpts = OptionsOf<ReturnType<typeof bulkFlags>>;

/**
 * The columns of a bulk command's results in a table or CSV; `placed`: rows may come from a YAML or
 * JSON document, where `at` (`groups[0].outcomes[3]`) tells them apart.
 */
export const resultColumns = (keyColumn: string, placed = false): string[] => [
  'line',
  ...(placed ? ['at'] : []),
  keyColumn,
  'status',
  'id',
  'skipped',
  'changes',
  'error',
];

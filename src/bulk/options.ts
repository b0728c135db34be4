// The flags every bulk import shares, declared once so `users import`, `enrollments import`,
// `grade --csv` and `outcomes import` spell and explain them alike. Tiny on purpose: a command tree
// loads it to build its help; the engine itself is imported only when a job runs.
import type { OptionSpec } from '../cli/command.js';

export interface BulkOpts {
  dryRun?: boolean;
  concurrency: string;
  skipInvalid?: boolean;
  failedOut?: string;
  update?: boolean;
  restart?: boolean;
}

/**
 * `noun`: what a row makes ("users"); `updatable`: the fields --update can change, or undefined when
 * the job has no update (then --update is not offered).
 */
export function bulkOptions(what: { noun: string; updatable?: readonly string[] }): OptionSpec[] {
  return [
    { flags: '--dry-run', description: `show what would be created${what.updatable ? ', updated' : ''} or left alone; write nothing` },
    ...(what.updatable
      ? [{ flags: '--update', description: `change existing ${what.noun} whose ${what.updatable.join(', ')} differ from the file` }]
      : []),
    { flags: '--concurrency <n>', description: 'rows in flight at once (the server may slow this further)', default: '4' },
    { flags: '--skip-invalid', description: 'import the valid rows and report the invalid ones, instead of stopping' },
    { flags: '--failed-out <file>', description: 'write failed (and skipped invalid) rows here as CSV, with an error column; import that file once fixed' },
    { flags: '--restart', description: 'ignore what earlier runs of this file recorded, and check every row again' },
  ];
}

/** The columns of a bulk command's results in a table or CSV. */
export const resultColumns = (keyColumn: string): string[] => ['line', keyColumn, 'status', 'id', 'skipped', 'changes', 'error'];

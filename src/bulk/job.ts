// Runs a bulk job's rows with bounded concurrency, recording each outcome in the journal.
// Pacing and retries live below, in the shared limiter and resilient transport; this layer decides
// what a row's outcome is, and resolves rows whose outcome is unknown before writing again.
import { ApiError, LmsError, NetworkError } from '../errors.js';
import { OutcomeUnknownError } from '../transport/resilient.js';
import type { Journal, RowStatus } from './journal.js';

export interface RowOutcome {
  status: Exclude<RowStatus, 'started'>;
  id?: number;
  error?: string;
}

export interface BulkRow {
  line: number;
  key: string;
}

export interface BulkTask<R extends BulkRow> {
  /** Does the row's target already exist? Returns its id, or undefined. */
  find(row: R): Promise<number | undefined>;
  /** The write; returns the new id. */
  apply(row: R): Promise<number>;
}

export interface RowResult extends RowOutcome {
  line: number;
  key: string;
  /** Done in an earlier run, so skipped now. */
  skipped?: boolean;
}

export interface Progress {
  done: number;
  failed: number;
  total: number;
}

export async function runRows<R extends BulkRow>(
  rows: R[],
  task: BulkTask<R>,
  options: { journal: Journal; concurrency: number; onProgress?: (p: Progress) => void; onRow?: (r: RowResult) => void },
): Promise<RowResult[]> {
  const { journal } = options;
  const results: RowResult[] = new Array(rows.length);
  const progress: Progress = { done: 0, failed: 0, total: rows.length };
  let next = 0;

  const finish = (index: number, result: RowResult) => {
    results[index] = result;
    progress.done++;
    if (result.status === 'failed') progress.failed++;
    options.onRow?.(result);
    options.onProgress?.(progress);
  };

  async function one(row: R): Promise<RowOutcome> {
    const before = journal.get(row.key);
    // A row that may have been applied in an earlier run is looked up, never blindly written again.
    if (before?.status === 'started') {
      const id = await task.find(row);
      if (id !== undefined) return { status: 'created', id };
    }
    journal.record({ line: row.line, key: row.key, status: 'started' });
    try {
      return { status: 'created', id: await task.apply(row) };
    } catch (err) {
      if (err instanceof OutcomeUnknownError) {
        // The connection dropped after sending: look before trying again.
        const id = await task.find(row);
        if (id !== undefined) return { status: 'created', id };
        return { status: 'created', id: await task.apply(row) };
      }
      throw err;
    }
  }

  async function worker(): Promise<void> {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index];
      const before = journal.get(row.key);
      if (before && (before.status === 'created' || before.status === 'existed')) {
        finish(index, { line: row.line, key: row.key, status: before.status, id: before.id, skipped: true });
        continue;
      }
      let outcome: RowOutcome;
      try {
        outcome = await one(row);
      } catch (err) {
        outcome = await classify(err, row, task);
      }
      journal.record({ line: row.line, key: row.key, ...outcome });
      finish(index, { line: row.line, key: row.key, ...outcome });
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, rows.length)) }, worker));
  return results;
}

/** A 400 because the target already exists is "existed"; anything else is this row's failure. */
async function classify<R extends BulkRow>(err: unknown, row: R, task: BulkTask<R>): Promise<RowOutcome> {
  if (err instanceof ApiError && (err.status === 400 || err.status === 409 || err.status === 422)) {
    const id = await task.find(row).catch(() => undefined);
    if (id !== undefined) return { status: 'existed', id };
  }
  if (err instanceof LmsError || err instanceof NetworkError) return { status: 'failed', error: err.message };
  throw err;
}

// What a bulk job tells its user: one summary line in words, the rows that need attention on stderr,
// and per-row results for machines. Shared so every bulk command reports a run and its dry run alike.
import type { CommandResult } from '../model/command.js';
import type { Context } from '../model/context.js';
import { RowsFailedError } from '../errors.js';
import { err } from '../io/streams.js';
import { placeOf } from './csv-input.js';
import { describeChanges, type Difference, type RowResult } from './job.js';

/**
 * Where a bulk job's words go. In text, lines on stderr as the job reaches them. With -o json, one
 * JSON object on stderr at the end, so that stderr parses as stdout does: the summary, the rows that
 * need a look (`attention`), `failed_out` when that file was written, `notes` and `warnings`. A job
 * that leaves rows undone carries the same fields in its error object, which is then the one object.
 */
export interface BulkReport {
  readonly json: boolean;
  summary(text: string): void;
  /** `rows` for machines, `lines` (already capped) for people. */
  attention(rows: Record<string, unknown>[], lines: string[]): void;
  note(text: string): void;
  /** Extra fields of the JSON object (`failed_out`); nothing in text, where a note says it. */
  set(field: string, value: unknown): void;
  /**
   * The end of the report. With no failure, writes the JSON object (under -o json) and returns
   * nothing; with one, returns the error to raise after the results are printed.
   */
  finish(failure?: string): RowsFailedError | undefined;
}

/**
 * Runs a bulk job with a report. Under -o json, warnings raised while it runs — by the engine, by the
 * command's own steps (`--sync` holding back), by the client — join the report instead of being
 * printed ahead of it: `ctx.warn` is redirected for the job's length. A job that throws gets them
 * printed as they would have been, before its error.
 */
export async function reporting<T>(ctx: Context, job: (report: BulkReport) => Promise<T>): Promise<T> {
  const json = ctx.globals.output === 'json';
  const warnings: string[] = [];
  const fields: Record<string, unknown> = {};
  const notes: string[] = [];
  const attention: Record<string, unknown>[] = [];
  const warn = ctx.warn;
  if (json) ctx.warn = (message) => void warnings.push(message);
  const report: BulkReport = {
    json,
    summary(text) {
      if (json) fields.summary = text;
      else err(ctx.io, `${text}\n`);
    },
    attention(rows, lines) {
      if (json) attention.push(...rows);
      else if (lines.length) err(ctx.io, `${lines.join('\n')}\n`);
    },
    note(text) {
      if (json) notes.push(text);
      else err(ctx.io, `${text}\n`);
    },
    set(field, value) {
      fields[field] = value;
    },
    finish(failure) {
      const object = {
        ...fields,
        ...(attention.length ? { attention } : {}),
        ...(notes.length ? { notes } : {}),
        ...(warnings.length ? { warnings } : {}),
      };
      if (failure) return new RowsFailedError(failure, json ? { details: object } : undefined);
      if (json) err(ctx.io, `${JSON.stringify(object)}\n`);
      return undefined;
    },
  };
  try {
    return await job(report);
  } catch (error) {
    ctx.warn = warn;
    for (const message of warnings) warn.call(ctx, message);
    throw error;
  } finally {
    ctx.warn = warn;
  }
}

/** Bulk results are every row at once, never a first page: no "use --all" note under them. */
export function unpaged(result: CommandResult): CommandResult {
  return result && result.kind === 'list' ? { ...result, paged: false } : result;
}

/** Rows a person should look at: the failed, and those that differ or were (or would be) changed. */
export function needsAttention(r: { status: string; skipped?: boolean }): boolean {
  return !r.skipped && (r.status === 'failed' || r.status === 'differs' || r.status === 'updated');
}

export interface Tally {
  total: number;
  created: number;
  existed: number;
  differs: number;
  updated: number;
  failed: number;
  /** Done by an earlier run, so not done again. */
  skipped_done: number;
  /** Called done by the journal, not found by a lookup, so done again. */
  redone: number;
}

export function tally(results: RowResult[]): Tally {
  const fresh = (status: string) => results.filter((r) => r.status === status && !r.skipped).length;
  return {
    total: results.length,
    created: fresh('created'),
    existed: fresh('existed'),
    differs: fresh('differs'),
    updated: fresh('updated'),
    failed: fresh('failed'),
    skipped_done: results.filter((r) => r.skipped).length,
    redone: results.filter((r) => r.redone).length,
  };
}

/**
 * "20 created, 0 already existed, 0 failed." for a run; "20 would be created, …" for a plan. Counts
 * that only some jobs have (differs, updated, done earlier, redone) appear when they are not zero.
 */
export function describeTally(t: Tally, options: { plan: boolean; update: boolean }): string {
  const { plan, update } = options;
  // Rows redone are among those created: the journal called them done, and a lookup found nothing.
  const again = t.redone ? ` (${t.redone} of them again: an earlier run did them, but they are gone)` : '';
  const parts = plan
    ? [`${t.created} would be created${again}`, `${t.existed} already exist`]
    : [`${t.created} created${again}`, `${t.existed} already existed`];
  if (t.updated) parts.push(plan ? `${t.updated} would be updated` : `${t.updated} updated`);
  if (t.differs)
    parts.push(`${t.differs} differ${update ? '' : ' (left as they are; --update applies the differences)'}`);
  parts.push(plan ? `${t.failed} would fail` : `${t.failed} failed`);
  if (t.skipped_done) parts.push(`${t.skipped_done} done by an earlier run`);
  return parts.join(', ');
}

/**
 * Lines about the rows that need a look (differences, failures), at most `max` of them, each naming
 * its row by `label` — the file's words (`roster.csv:3 (user ghost, student)`), not the row's key.
 */
export function attentionLines(
  results: RowResult[],
  source: string,
  options: { plan: boolean; max?: number; label: (r: RowResult) => string },
): string[] {
  const { plan, max = 20, label } = options;
  const rows = results.filter(needsAttention);
  const lines = rows.slice(0, max).map((r) => {
    const what =
      r.status === 'failed'
        ? `${plan ? 'would fail' : 'failed'}: ${r.error ?? ''}`
        : `${r.status === 'differs' ? 'differs' : plan ? 'would be updated' : 'updated'}: ` +
          `${describeChanges(r.changes)}`;
    return `  ${placeOf(source, r)} (${label(r)}): ${what}`;
  });
  if (rows.length > max) lines.push(`  … and ${rows.length - max} more`);
  return lines;
}

/** A row's differences as data (JSON) or as one string (table, CSV). */
export function changesFor(changes: Difference[] | undefined, flat: boolean): unknown {
  if (!changes?.length) return flat ? '' : undefined;
  return flat ? describeChanges(changes) : changes;
}

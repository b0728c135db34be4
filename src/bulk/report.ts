// What a bulk job tells its user: one summary line in words, the rows that need attention on stderr,
// and per-row results for machines. Shared so every bulk command reports a run and its dry run alike.
import { describeChanges, type Difference, type RowResult } from './job.js';

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
  if (t.differs) parts.push(`${t.differs} differ${update ? '' : ' (left as they are; --update applies the differences)'}`);
  parts.push(plan ? `${t.failed} would fail` : `${t.failed} failed`);
  if (t.skipped_done) parts.push(`${t.skipped_done} done by an earlier run`);
  return parts.join(', ');
}

/** Lines about the rows that need a look (differences, failures), at most `max` of them. */
export function attentionLines(results: RowResult[], source: string, options: { plan: boolean; max?: number }): string[] {
  const { plan, max = 20 } = options;
  const rows = results.filter((r) => !r.skipped && (r.status === 'failed' || r.status === 'differs' || r.status === 'updated'));
  const lines = rows.slice(0, max).map((r) => {
    const what =
      r.status === 'failed'
        ? `${plan ? 'would fail' : 'failed'}: ${r.error ?? ''}`
        : `${r.status === 'differs' ? 'differs' : plan ? 'would be updated' : 'updated'}: ${describeChanges(r.changes)}`;
    return `  ${source}:${r.line}: ${r.key}: ${what}`;
  });
  if (rows.length > max) lines.push(`  … and ${rows.length - max} more`);
  return lines;
}

/** A row's differences as data (JSON) or as one string (table, CSV). */
export function changesFor(changes: Difference[] | undefined, flat: boolean): unknown {
  if (!changes?.length) return flat ? '' : undefined;
  return flat ? describeChanges(changes) : changes;
}

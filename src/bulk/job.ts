// Runs a bulk job's rows with bounded concurrency, recording each outcome in the journal.
// Pacing and retries live below, in the shared limiter and resilient transport; this layer decides
// what a row's outcome is, resolves rows whose outcome is unknown before writing again, and checks
// what the journal claims before believing it.
//
// A job is a BulkTask: how to find a row's target (read-only), how to compare the row with it, how
// to create it and how to update it. The same runner plans (`mode: 'plan'`, a dry run: lookups only)
// and applies, so a dry run and the run it previews classify every row the same way.
import { ApiError, LmsError, NetworkError } from '../errors.js';
import { OutcomeUnknownError } from '../transport/resilient.js';
import { placeFields, type Place, type Problem } from './csv-input.js';
import { DONE, type Journal, type RowStatus } from './journal.js';

/** A row with its place in the file (`at` tells apart the rows of a document written on one line). */
export interface BulkRow extends Place {
  /** What identifies the row's target across runs (a login id, a user+course pair…). */
  key: string;
}

/** One field where the row and its existing target disagree. */
export interface Difference {
  field: string;
  /** The target's value now ('' when it has none). */
  from: string;
  /** The row's value. */
  to: string;
  /** The API can change this field; otherwise it is reported, never applied. */
  applicable: boolean;
}

interface Found<C> {
  id: number;
  /** The target as it is now, for compare(). */
  current: C;
}

export interface BulkTask<R extends BulkRow, C = unknown> {
  /**
   * Looks the row's target up; undefined when there is none. Read-only. It also verifies journal
   * entries the instance cannot vouch for, and resolves writes whose outcome is unknown.
   */
  find(row: R): Promise<Found<C> | undefined>;
  /** Where the row and the existing target disagree ([] when they agree). Pure. */
  compare(row: R, current: C): Difference[];
  /** Creates the target and returns its id. A rejection because it exists already is resolved with find(). */
  create(row: R): Promise<number>;
  /**
   * The row wants its target gone (a SIS row whose status is deleted): found nothing, it needs no
   * write and is `existed`, never created, as Canvas's SIS import passes over a deleted row whose
   * record is gone or was never there. A nightly file keeps such rows for weeks.
   */
  wantsAbsent?(row: R): boolean;
  /**
   * Creating an existing target does not fail (enrolling again returns the enrollment): every row is
   * then looked up before it is written, so a run classifies rows exactly as its dry run does.
   */
  lookupFirst?: boolean;
  /** Applies the applicable differences to an existing target. */
  update(row: R, found: Found<C>, changes: Difference[]): Promise<void>;
  /**
   * Looks up, read-only, everything the rows name besides their targets (the user and section of an
   * enrollment), before any row is planned or written: a problem for each row naming what does not
   * exist, with its line, in the words of the file. The job then refuses the file, or with
   * --skip-invalid skips those rows; either way none is half applied. The run goes on only if
   * nothing is wrong (or every such row is skipped), so the task may keep what it found for later.
   */
  resolve?(rows: R[], options: { concurrency: number }): Promise<Problem[]>;
  /**
   * The target, not the journal, says whether a row is done: a row the journal calls done is looked
   * up and compared, and done again when it differs now (a grade another run has changed since).
   */
  compareDone?: boolean;
}

type Outcome = Exclude<RowStatus, 'started'>;

/** Writes of one row whose outcome is unknown (the connection dropped) before the row fails. */
const UNKNOWN_WRITES = 3;

interface RowOutcome {
  status: Outcome;
  id?: number;
  error?: string;
  /** For `differs` and `updated` (and a `failed` update): every differing field, applicable or not. */
  changes?: Difference[];
}

export interface RowResult extends RowOutcome, Place {
  key: string;
  /** Done by an earlier run (per the journal, verified when the instance cannot vouch), so not done again. */
  skipped?: boolean;
  /** The journal said done, but a lookup found nothing: the row was done again. */
  redone?: boolean;
}

export interface Progress {
  done: number;
  failed: number;
  total: number;
}

export interface RunOptions {
  journal: Journal;
  concurrency: number;
  /** `plan`: classify every row as `apply` would, with lookups only; nothing is written, the journal included. */
  mode?: 'apply' | 'plan';
  /** Apply the applicable differences of rows whose target exists (an upsert); otherwise report them as `differs`. */
  update?: boolean;
  onProgress?: (p: Progress) => void;
  onRow?: (r: RowResult) => void;
  /**
   * How long a write's request can take to be answered (the request timeout). Given, each `started`
   * entry says until when its write could still land, and a run after a kill waits that out before
   * looking up such a row: a write still in the server's hands would otherwise be sent again.
   */
  requestMs?: number;
  /** Told how long the run waits for such writes, before it waits. */
  onWait?: (ms: number) => void;
}

/**
 * In plan mode the statuses are what applying would do: `created` means "would be created",
 * `updated` "would be updated", `failed` "would fail" (an update with nothing it could apply).
 */
export async function runRows<R extends BulkRow, C>(
  rows: R[],
  task: BulkTask<R, C>,
  options: RunOptions,
): Promise<RowResult[]> {
  const { journal } = options;
  const plan = options.mode === 'plan';
  const results: RowResult[] = new Array(rows.length);
  const progress: Progress = { done: 0, failed: 0, total: rows.length };
  let next = 0;

  const record = (row: R, status: RowStatus, outcome: Omit<RowOutcome, 'status'> = {}) => {
    if (plan) return;
    const until =
      status === 'started' && options.requestMs !== undefined ? { until: Date.now() + options.requestMs } : {};
    journal.record({
      line: row.line,
      key: row.key,
      status,
      ...(outcome.id !== undefined ? { id: outcome.id } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      ...until,
    });
  };
  if (!plan && options.requestMs !== undefined) {
    // Writes an earlier run had on the wire when it died may still land: they are waited out, then looked up.
    const until = Math.max(
      0,
      ...rows.map((r) => journal.get(r.key)).map((e) => (e?.status === 'started' ? (e.until ?? 0) : 0)),
    );
    if (until > Date.now()) {
      options.onWait?.(until - Date.now());
      await new Promise((resolve) => setTimeout(resolve, until - Date.now()));
    }
  }

  /** The target exists: agree, differ, or (with `update`) apply what can be applied. */
  async function existing(row: R, found: Found<C>, agreeing: Outcome): Promise<RowOutcome> {
    const changes = task.compare(row, found.current);
    if (changes.length === 0) return { status: agreeing, id: found.id };
    if (!options.update) return { status: 'differs', id: found.id, changes };
    const applicable = changes.filter((c) => c.applicable);
    if (applicable.length === 0) {
      // Nothing --update can do brings this target to the row: the row fails, saying why.
      return {
        status: 'failed',
        id: found.id,
        changes,
        error: `cannot be changed through the API: ${describeChanges(changes, false)}`,
      };
    }
    if (plan) return { status: 'updated', id: found.id, changes };
    record(row, 'started', { id: found.id });
    let target = found;
    let left = applicable;
    for (let attempt = 1; ; attempt++) {
      try {
        await task.update(row, target, left);
        break;
      } catch (err) {
        if (!(err instanceof OutcomeUnknownError)) throw err;
        // The connection dropped after sending: look before writing again. Agreeing now means the
        // update went through; otherwise what is still missing is applied to what is there now —
        // a few times at most, since each resend may drop as well.
        const now = await task.find(row);
        if (!now) throw err;
        left = task.compare(row, now.current).filter((c) => c.applicable);
        if (left.length === 0) break;
        if (attempt >= UNKNOWN_WRITES) throw err;
        target = now;
      }
    }
    return { status: 'updated', id: found.id, changes };
  }

  async function create(row: R): Promise<RowOutcome> {
    if (task.wantsAbsent?.(row)) return { status: 'existed' };
    if (plan) return { status: 'created' };
    record(row, 'started');
    for (let attempt = 1; ; attempt++) {
      try {
        return { status: 'created', id: await task.create(row) };
      } catch (err) {
        if (err instanceof OutcomeUnknownError) {
          // The connection dropped after sending: look before trying again. A target that matches
          // the row is this write's; one that differs was there before it.
          const found = await task.find(row);
          if (found) return existing(row, found, 'created');
          if (attempt >= UNKNOWN_WRITES) throw err;
          continue;
        }
        if (err instanceof ApiError && (err.status === 400 || err.status === 409 || err.status === 422)) {
          // Refused, most often because the target exists: then it is compared, not failed.
          const found = await task.find(row).catch(() => undefined);
          if (found) return existing(row, found, 'existed');
        }
        throw err;
      }
    }
  }

  async function one(row: R): Promise<RowResult> {
    const base = { ...placeFields(row), key: row.key };
    const before = journal.get(row.key);
    let redone = false;
    if (before && DONE.has(before.status) && task.compareDone) {
      const found = await task.find(row);
      if (found && task.compare(row, found.current).length === 0)
        return { ...base, status: before.status as Outcome, id: found.id, skipped: true };
      // Changed since it was done: this run's row is compared and written like any other.
      if (found) return { ...base, ...(await existing(row, found, 'existed')) };
      redone = true;
    } else if (before && DONE.has(before.status)) {
      // Done by an earlier run. Believed as is when the instance vouches for the state it was done
      // in; otherwise (a real instance) believed only if the target can still be found.
      if (journal.trusted(before)) return { ...base, status: before.status as Outcome, id: before.id, skipped: true };
      const found = await task.find(row);
      if (found) return { ...base, status: before.status as Outcome, id: found.id, skipped: true };
      // A row that wants its target gone is done when nothing is there.
      if (task.wantsAbsent?.(row)) return { ...base, status: before.status as Outcome, id: before.id, skipped: true };
      redone = true;
    }
    let outcome: RowOutcome;
    if (plan || before?.status === 'started' || task.lookupFirst || task.wantsAbsent?.(row)) {
      // A dry run looks every row up; a run looks up a row an earlier run may have written
      // (`started` with no outcome) instead of blindly writing it again, every row of a task
      // whose create would not refuse an existing target, and a row that wants its target gone.
      const found = redone ? undefined : await task.find(row);
      if (found && before?.status === 'started' && task.compare(row, found.current).length === 0) {
        // The earlier run's write went through (`started` with an id was an update, without one a
        // create): the row is done, and now the journal says so.
        const earlier: Outcome = before.id !== undefined ? 'updated' : 'created';
        record(row, earlier, { id: found.id });
        return { ...base, status: earlier, id: found.id, skipped: true };
      }
      outcome = found ? await existing(row, found, 'existed') : await create(row);
    } else {
      outcome = await create(row);
    }
    return { ...base, ...outcome, ...(redone ? { redone } : {}) };
  }

  async function worker(): Promise<void> {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index];
      let result: RowResult;
      try {
        result = await one(row);
      } catch (err) {
        if (!(err instanceof LmsError || err instanceof NetworkError)) throw err;
        result = { ...placeFields(row), key: row.key, status: 'failed', error: err.message };
      }
      // A skipped row's entry stands as it was.
      if (!result.skipped) record(row, result.status, result);
      results[index] = result;
      progress.done++;
      if (result.status === 'failed') progress.failed++;
      options.onRow?.(result);
      options.onProgress?.(progress);
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, rows.length)) }, worker));
  return results;
}

/** `name "Ana" → "Ana B"; email "a@x" → "b@x" (not applicable)`: the differences of one row, for people. */
export function describeChanges(changes: Difference[] | undefined, markFixed = true): string {
  return (changes ?? [])
    .map(
      (c) =>
        `${c.field} ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}` +
        `${c.applicable || !markFixed ? '' : ' (cannot be changed through the API)'}`,
    )
    .join('; ');
}

// SIS imports, the terms they make, and what each import last touched: the only SQL of these tables.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';
import { termBySis } from '../../school/courses/repo.js';
import type { EnrollmentDropStatus, UserRemoveStatus } from '../../../spec/types/sis.js';

/** An import's options, as the batch keeps them (JSON in `options`). */
export interface BatchOptions {
  batch_mode: boolean;
  batch_mode_term_id: number | null;
  /** Batch mode over every term the import's terms.csv names, in place of one. */
  multi_term_batch_mode?: boolean;
  override_sis_stickiness: boolean;
  change_threshold: number | null;
  /** Leave alone what batch mode or diffing would delete. */
  skip_deletes?: boolean;
  /** What a diffed import makes of an enrollment the data set no longer lists (else deleted). */
  diffing_drop_status?: EnrollmentDropStatus | null;
  /** What a diffed import makes of a user the data set no longer lists (else deleted). */
  diffing_user_remove_status?: UserRemoveStatus | null;
  /** What batch mode makes of an enrollment the batch no longer names (else deleted). */
  batch_mode_enrollment_drop_status?: EnrollmentDropStatus | null;
}

export interface SisBatchRow {
  id: number;
  account_id: number;
  user_id: number | null;
  workflow_state: string;
  progress: number;
  options: string;
  supplied: string;
  counts: string;
  warnings: string;
  errors: string;
  rows: string;
  diffing_data_set_identifier: string | null;
  diffed_against_import_id: number | null;
  diffing_threshold_exceeded: number;
  progress_id: number | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

export function createBatch(
  db: Db,
  b: {
    account: number;
    user: number | null;
    options: unknown;
    supplied: string[];
    errors: [string, string][];
    warnings: [string, string][];
    rows: unknown;
    dataSet: string | null;
    diffedAgainst: number | null;
    thresholdExceeded: boolean;
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO sis_batches (account_id, user_id, options, supplied, errors, warnings, rows, ' +
      `diffing_data_set_identifier, diffed_against_import_id, diffing_threshold_exceeded, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    b.account,
    b.user,
    JSON.stringify(b.options),
    JSON.stringify(b.supplied),
    JSON.stringify(b.errors),
    JSON.stringify(b.warnings),
    JSON.stringify(b.rows),
    b.dataSet,
    b.diffedAgainst,
    b.thresholdExceeded ? 1 : 0,
    b.now,
    b.now,
  );
}

export function batchById(db: Db, accountId: number, id: number): SisBatchRow | undefined {
  return one<SisBatchRow>(db, `SELECT * FROM sis_batches WHERE id = ? AND account_id = ?`, id, accountId);
}

export function batchStateOf(db: Db, id: number): string | undefined {
  return one<{ workflow_state: string }>(db, `SELECT workflow_state FROM sis_batches WHERE id = ?`, id)?.workflow_state;
}

/** The last import of a data set that got through: what a new import of it diffs against. */
export function lastOfDataSet(db: Db, accountId: number, dataSet: string): SisBatchRow | undefined {
  return one<SisBatchRow>(
    db,
    'SELECT * FROM sis_batches WHERE account_id = ? AND diffing_data_set_identifier = ? AND workflow_state IN ' +
      `('imported', 'imported_with_messages') ORDER BY id DESC LIMIT 1`,
    accountId,
    dataSet,
  );
}

export function updateBatch(
  db: Db,
  id: number,
  c: {
    state?: string;
    progress?: number;
    counts?: unknown;
    warnings?: unknown;
    errors?: unknown;
    now: string;
    ended?: boolean;
  },
): void {
  run(
    db,
    'UPDATE sis_batches SET workflow_state = coalesce(?, workflow_state), progress = coalesce(?, progress), counts = ' +
      `coalesce(?, counts),
       warnings = coalesce(?, warnings), errors = coalesce(?, errors), updated_at = ?, ended_at = CASE WHEN ? THEN ? ` +
      'ELSE ended_at END WHERE id = ?',
    c.state ?? null,
    c.progress ?? null,
    c.counts === undefined ? null : JSON.stringify(c.counts),
    c.warnings === undefined ? null : JSON.stringify(c.warnings),
    c.errors === undefined ? null : JSON.stringify(c.errors),
    c.now,
    c.ended ? 1 : 0,
    c.now,
    id,
  );
}

export function setBatchProgress(db: Db, id: number, progressId: number): void {
  run(db, `UPDATE sis_batches SET progress_id = ? WHERE id = ?`, progressId, id);
}

/** Aborts an import that has not ended; returns whether it did. */
export function abortBatch(db: Db, id: number, now: string): boolean {
  return (
    run(
      db,
      `UPDATE sis_batches SET workflow_state = 'aborted', updated_at = ?, ended_at = ? WHERE id = ? AND ` +
        `workflow_state IN ('initializing', 'created', 'importing', 'cleanup_batch')`,
      now,
      now,
      id,
    ) > 0
  );
}

export function batchesOfAccountQuery(accountId: number, states: string[]): KeysetQuery {
  const byState = states.length ? ` AND workflow_state IN (${states.map(() => '?').join(', ')})` : '';
  return {
    sql: `SELECT * FROM sis_batches WHERE account_id = ?${byState}`,
    args: [accountId, ...states],
    key: ['id'],
    descending: true,
  };
}

// ---- terms ------------------------------------------------------------------------------------

export function upsertTerm(
  db: Db,
  t: {
    root: number;
    sis: string;
    name: string;
    state: string;
    startAt: string | null;
    endAt: string | null;
    now: string;
  },
): 'created' | 'updated' {
  const found = termBySis(db, t.root, t.sis);
  if (found) {
    run(
      db,
      `UPDATE enrollment_terms SET name = ?, workflow_state = ?, start_at = ?, end_at = ? WHERE id = ?`,
      t.name,
      t.state,
      t.startAt,
      t.endAt,
      found.id,
    );
    return 'updated';
  }
  insert(
    db,
    'INSERT INTO enrollment_terms (root_account_id, name, sis_term_id, workflow_state, start_at, end_at, ' +
      'created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    t.root,
    t.name,
    t.sis,
    t.state,
    t.startAt,
    t.endAt,
    t.now,
  );
  return 'created';
}

// ---- what imports touched ---------------------------------------------------------------------

export type SisRecordKind = 'course' | 'section' | 'enrollment';

export function touchRecord(
  db: Db,
  r: { kind: SisRecordKind; id: number; course: number; term?: number | null; batch: number },
): void {
  run(
    db,
    `INSERT INTO sis_records (kind, record_id, course_id, term_id, batch_id) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (kind, record_id) DO UPDATE SET course_id = excluded.course_id, term_id = ` +
      'coalesce(excluded.term_id, term_id), batch_id = excluded.batch_id',
    r.kind,
    r.id,
    r.course,
    r.term ?? null,
    r.batch,
  );
}

/**
 * The records of a kind that imports made in a term's courses: those another batch touched last
 * (`stale`), of all of them (`total`). Batch mode deletes the stale ones.
 */
export function recordsInTerm(
  db: Db,
  kind: SisRecordKind,
  termId: number,
  batchId: number,
): { stale: number[]; total: number } {
  const rows = all<{ record_id: number; batch_id: number }>(
    db,
    `SELECT r.record_id, r.batch_id FROM sis_records r JOIN sis_records c ON c.kind = 'course' AND c.record_id = ` +
      `r.course_id
     WHERE r.kind = ? AND c.term_id = ?`,
    kind,
    termId,
  );
  return { stale: rows.filter((r) => r.batch_id !== batchId).map((r) => r.record_id), total: rows.length };
}

/** Forgets a record batch mode deleted: a later batch naming it again makes it anew. */
export function forgetRecord(db: Db, kind: SisRecordKind, id: number): void {
  run(db, `DELETE FROM sis_records WHERE kind = ? AND record_id = ?`, kind, id);
}

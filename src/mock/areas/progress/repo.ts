// Progress rows: what a background job reports while it runs.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';

export type ProgressState = 'queued' | 'running' | 'completed' | 'failed';

export interface ProgressRow {
  id: number;
  context_type: string;
  context_id: number;
  user_id: number | null;
  tag: string;
  completion: number | null;
  workflow_state: ProgressState;
  message: string | null;
  /** JSON text, or null. */
  results: string | null;
  runner_pid: number | null;
  created_at: string;
  updated_at: string;
}

export function createProgress(db: Db, p: { contextType: string; contextId: number; userId: number | null; tag: string; now: string }): number {
  return insert(
    db,
    `INSERT INTO progress (context_type, context_id, user_id, tag, completion, runner_pid, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)`,
    p.contextType, p.contextId, p.userId, p.tag, process.pid, p.now, p.now,
  );
}

/** The processes running unfinished jobs, as the rows record them. */
export function unfinishedRunners(db: Db): number[] {
  return all<{ runner_pid: number }>(db, `SELECT DISTINCT runner_pid FROM progress WHERE workflow_state IN ('queued', 'running') AND runner_pid IS NOT NULL`).map((r) => r.runner_pid);
}

/** Fails the unfinished jobs of a process that is gone, keeping how far they got; returns how many. */
export function failOrphans(db: Db, runnerPid: number, now: string): number {
  return run(
    db,
    `UPDATE progress SET workflow_state = 'failed', updated_at = ?, message = 'the server stopped before this job finished; run it again' WHERE runner_pid = ? AND workflow_state IN ('queued', 'running')`,
    now, runnerPid,
  );
}

export function progressById(db: Db, id: number): ProgressRow | undefined {
  return one<ProgressRow>(db, `SELECT * FROM progress WHERE id = ?`, id);
}

export function updateProgress(
  db: Db,
  id: number,
  change: { state: ProgressState; completion: number; now: string; message?: string | null; results?: unknown },
): void {
  run(
    db,
    `UPDATE progress SET workflow_state = ?, completion = ?, updated_at = ?, message = coalesce(?, message), results = coalesce(?, results) WHERE id = ?`,
    change.state, change.completion, change.now, change.message ?? null,
    change.results === undefined ? null : JSON.stringify(change.results), id,
  );
}

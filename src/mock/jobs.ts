// Background work of the serving process: a request starts a job and answers at once with its
// Progress; the runner applies the job's items a slice at a time (each slice one transaction),
// between requests, and moves the Progress through queued → running → completed | failed, as real
// instances' job queues do. A job lives in the process that started it: the database keeps only its
// Progress, with that process's id. A runner starting fails the jobs of processes that are gone (a
// server killed mid-job), as real instances fail orphaned jobs, so no one waits on them for ever.
// The Progress table is the runner's, so its text and its queries live here: the runner, which every
// request's context carries, then depends on no area; the progress area only answers reads of it.
import type { Db } from './db/open.js';
import { all, insert, one, run } from './db/statements.js';
import { processAlive } from '../process-alive.js';

interface Job<T> {
  tag: string;
  /** What the Progress belongs to (`Course`, `User`, `Account`) and whose it is. */
  context: { type: string; id: number };
  userId: number | null;
  items: readonly T[];
  /** Applies one item; a thrown Error is that item's failure and the job goes on. */
  apply(db: Db, item: T, now: string): void;
  /** A short name of an item for the Progress message ("<error>: id1, id2"). */
  label(item: T): string;
  /** Called in each slice's transaction after its items, with how many are done. */
  onSlice?(db: Db, done: number, total: number, now: string): void;
  /** What the finished Progress reports as `results` (its message lists the failures). */
  results?(db: Db, outcome: { succeeded: number; failed: number }): unknown;
}

export interface JobRunner {
  start<T>(job: Job<T>): ProgressRow;
  /** Resolves when no job is running (tests wait on it instead of polling). */
  idle(): Promise<void>;
}

// ---- the Progress table -----------------------------------------------------------------------

// The progress area puts this text in the schema, in the place it has always had: moved, the schema
// text would change, and with it the version, rebuilding every existing mock database.
export const progressSchema = `
-- Background work a request started (bulk grading, async messages, conversation batch updates):
-- the job runner of the serving process moves it through queued → running → completed | failed.
CREATE TABLE progress (
  id INTEGER PRIMARY KEY,
  context_type TEXT NOT NULL,
  context_id INTEGER NOT NULL,
  user_id INTEGER REFERENCES users(id),
  tag TEXT NOT NULL,
  completion REAL,
  workflow_state TEXT NOT NULL DEFAULT 'queued',
  message TEXT,
  results TEXT,
  -- The process whose job runner moves it; a Progress left unfinished by a process that is gone is failed.
  runner_pid INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

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

export function createProgress(
  db: Db,
  p: { contextType: string; contextId: number; userId: number | null; tag: string; now: string },
): number {
  return insert(
    db,
    'INSERT INTO progress (context_type, context_id, user_id, tag, completion, runner_pid, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, 0, ?, ?, ?)',
    p.contextType,
    p.contextId,
    p.userId,
    p.tag,
    process.pid,
    p.now,
    p.now,
  );
}

/** The processes running unfinished jobs, as the rows record them. */
function unfinishedRunners(db: Db): number[] {
  return all<{ runner_pid: number }>(
    db,
    `SELECT DISTINCT runner_pid FROM progress WHERE workflow_state IN ('queued', 'running') AND runner_pid IS NOT NULL`,
  ).map((r) => r.runner_pid);
}

/** Fails the unfinished jobs of a process that is gone, keeping how far they got; returns how many. */
function failOrphans(db: Db, runnerPid: number, now: string): number {
  return run(
    db,
    `UPDATE progress SET workflow_state = 'failed', updated_at = ?, message = 'the server stopped before this job ` +
      `finished; run it again' WHERE runner_pid = ? AND workflow_state IN ('queued', 'running')`,
    now,
    runnerPid,
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
    'UPDATE progress SET workflow_state = ?, completion = ?, updated_at = ?, message = coalesce(?, message), ' +
      'results = coalesce(?, results) WHERE id = ?',
    change.state,
    change.completion,
    change.now,
    change.message ?? null,
    change.results === undefined ? null : JSON.stringify(change.results),
    id,
  );
}

// ---- the runner -------------------------------------------------------------------------------

/** Between slices: a 20-slice job takes about a second, long enough to watch it move. */
export const DEFAULT_JOB_TICK_MS = 50;

/** How many slices a job is cut into: enough for a watcher to see it move, whatever its size. */
const SLICES = 20;

export function createJobRunner(db: Db, options: { now: () => string; tickMs: number }): JobRunner {
  for (const pid of unfinishedRunners(db))
    if (pid !== process.pid && !processAlive(pid))
      db.transaction(() => failOrphans(db, pid, options.now()), 'immediate');
  let running = 0;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (running > 0) return;
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  };

  return {
    start<T>(job: Job<T>): ProgressRow {
      const id = createProgress(db, {
        contextType: job.context.type,
        contextId: job.context.id,
        userId: job.userId,
        tag: job.tag,
        now: options.now(),
      });
      running++;
      const slice = Math.max(1, Math.ceil(job.items.length / SLICES));
      const failures = new Map<string, string[]>();
      let next = 0;
      let succeeded = 0;

      const finish = () => {
        running--;
        settle();
      };
      const step = () => {
        // The request that started the job may have rolled back: its Progress is gone, and so is the job.
        if (!progressById(db, id)) return finish();
        try {
          db.transaction(() => {
            const now = options.now();
            const end = Math.min(job.items.length, next + slice);
            for (; next < end; next++) {
              const item = job.items[next]!;
              try {
                db.transaction(() => job.apply(db, item, now));
                succeeded++;
              } catch (err) {
                const reason = err instanceof Error ? err.message : String(err);
                failures.set(reason, [...(failures.get(reason) ?? []), job.label(item)]);
              }
            }
            job.onSlice?.(db, next, job.items.length, now);
            const total = job.items.length;
            if (next < total) {
              updateProgress(db, id, { state: 'running', completion: (100 * next) / total, now });
              return;
            }
            const failed = total - succeeded;
            const message = [
              `${total} items processed`,
              ...[...failures].map(([reason, labels]) => `${reason}: ${labels.join(', ')}`),
            ].join('\n');
            updateProgress(db, id, {
              state: succeeded > 0 || total === 0 ? 'completed' : 'failed',
              completion: 100,
              now,
              message,
              results: job.results?.(db, { succeeded, failed }),
            });
          }, 'immediate');
        } catch (err) {
          // The job itself broke (not one item): report it, as real job queues do, and stop.
          const message = `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
          try {
            updateProgress(db, id, {
              state: 'failed',
              completion: progressById(db, id)?.completion ?? 0,
              now: options.now(),
              message,
            });
          } catch {
            // The database is closed: nothing is left to report to.
          }
          return finish();
        }
        if (next < job.items.length) setTimeout(step, options.tickMs);
        else finish();
      };
      setTimeout(step, options.tickMs);
      return progressById(db, id)!;
    },
    idle() {
      return running === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}

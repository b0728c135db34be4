// Background work of the serving process: a request starts a job and answers at once with its
// Progress; the runner applies the job's items a slice at a time (each slice one transaction),
// between requests, and moves the Progress through queued → running → completed | failed, as real
// instances' job queues do. A job lives in the process that started it: the database keeps only its
// Progress, with that process's id. A runner starting fails the jobs of processes that are gone (a
// server killed mid-job), as real instances fail orphaned jobs, so no one waits on them for ever.
import type { Db } from './db/open.js';
import { createProgress, failOrphans, progressById, unfinishedRunners, updateProgress, type ProgressRow } from './areas/progress/repo.js';

export interface Job<T> {
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

/** Between slices: a 20-slice job takes about a second, long enough to watch it move. */
export const DEFAULT_JOB_TICK_MS = 50;

/** How many slices a job is cut into: enough for a watcher to see it move, whatever its size. */
const SLICES = 20;

export function createJobRunner(db: Db, options: { now: () => string; tickMs: number }): JobRunner {
  for (const pid of unfinishedRunners(db)) if (pid !== process.pid && !alive(pid)) db.transaction(() => failOrphans(db, pid, options.now()), 'immediate');
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
      const id = createProgress(db, { contextType: job.context.type, contextId: job.context.id, userId: job.userId, tag: job.tag, now: options.now() });
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
            const message = [`${total} items processed`, ...[...failures].map(([reason, labels]) => `${reason}: ${labels.join(', ')}`)].join('\n');
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
            updateProgress(db, id, { state: 'failed', completion: progressById(db, id)?.completion ?? 0, now: options.now(), message });
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

/** Is there a process with this id (another user's counts: it answers EPERM)? */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

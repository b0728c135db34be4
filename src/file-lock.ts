// The audit log's lock: one file beside the log, made with O_EXCL and holding its holder's pid and
// host. Every change to the log's files is made holding it — an append, a rotation, the drop of
// stale entries — so no process rewrites or moves a file while another writes to it, which is how
// entries were lost (a prune read the file and wrote it back over lines appended in between).
// Readers take it only for as long as they open the files, so they see one rotation's set of them.
//
// It is held for one line's write (or a rotation's few renames and rewrites), always synchronously,
// so a holder never waits on anything while holding it. A holder that died holding it (kill -9 in
// that moment) is seen by its pid when it ran on this host, and otherwise by the lock's age.
import { closeSync, lstatSync, openSync, readFileSync, type Stats, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { processAlive } from './process-alive.js';

/** A lock this old is taken over whoever holds it: no holder keeps it for more than a rotation. */
const DEFAULT_STALE_MS = 30_000;

export interface LockOptions {
  staleMs?: number;
  /** How long to wait for it before giving up: twice the stale age unless given. */
  waitMs?: number;
}

/** The lock of the log at `path`: beside it, a name the readers pass over. */
export function lockFileOf(path: string): string {
  return `${path}.lock`;
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(pause, 0, 0, ms);

/** Takes the lock at `file`, waiting while another process holds it; answers its release. */
export function lockSync(file: string, options: LockOptions = {}): () => void {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const me = `${process.pid} ${hostname()}\n`;
  const deadline = Date.now() + (options.waitMs ?? 2 * staleMs);
  for (let wait = 1; ; wait = Math.min(wait * 2, 16)) {
    let fd: number | undefined;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, me);
      } finally {
        closeSync(fd);
      }
      const { ino } = lstatSync(file);
      return () => {
        // Not ours any more only if it was taken over as stale: then it is the new holder's.
        try {
          if (lstatSync(file).ino === ino) unlinkSync(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      };
    }
    if (takeOverIfStale(file, staleMs)) continue;
    if (Date.now() > deadline) {
      throw new Error(`${file} has been held by another process for too long; remove it if no lms is running`);
    }
    // Holders keep it for a line's write: a short pause, spread so that waiters do not move as one.
    sleep(wait + Math.random() * wait);
  }
}

/** Removes a lock whose holder is gone (a dead pid on this host) or that is older than any hold. */
function takeOverIfStale(file: string, staleMs: number): boolean {
  let seen: Stats;
  let holder: string;
  try {
    seen = lstatSync(file);
    holder = readFileSync(file, 'utf8');
  } catch (error) {
    // Released between the two looks: try again at once.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  const gone = holderGone(holder) || Date.now() - seen.mtimeMs > staleMs;
  if (!gone) return false;
  try {
    // Only the lock that was judged: one that another waiter took over and made since is left alone.
    if (lstatSync(file).ino === seen.ino) unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return true;
}

/** True when the holder named ran on this host and its process is no more. */
function holderGone(holder: string): boolean {
  const match = /^(\d+) (.*)\n$/.exec(holder);
  // Being written this very moment, or not ours to judge: its age decides.
  if (!match || match[2] !== hostname()) return false;
  const pid = Number(match[1]);
  // This process holds it only inside one synchronous call, never across a wait: an earlier
  // process that had this pid left it.
  return pid === process.pid || !processAlive(pid);
}

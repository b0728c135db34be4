// A lock file between processes of this user: the first to create it (O_EXCL) holds the lock, the
// others wait for it to go. It guards the renewal of a profile's token, so that commands started
// together renew once: the one that renews writes the new token, and each one after it, taking the
// lock in turn, reads that token and has nothing to renew.
//
// A holder that died leaves its file behind: a file whose process is gone, or that names none, is
// removed by the next one to wait for it; a live holder's only when far older than any renewal.
import { mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FailureError } from '../errors.js';
import { processAlive } from '../process-alive.js';

export interface LockOptions {
  /** How long to wait for another holder before giving up. */
  waitMs: number;
  /** How long a renewal may take: a file five times as old is a dead holder's, whatever process its pid names now. */
  staleMs: number;
  /** What the lock guards, for the message when waiting gives up. */
  what: string;
  sleep?: (ms: number) => Promise<void>;
}

const POLL_MS = 20;
/** A file its creator has not yet written is a dead one's after this (the write follows the create at once). */
const EMPTY_GRACE_MS = 1000;
const LIVE_HOLDER_LIMIT = 5;

export async function withFileLock<T>(path: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const release = await acquire(path, options);
  try {
    return await work();
  } finally {
    release();
  }
}

async function acquire(
  path: string,
  { waitMs, staleMs, what, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) }: LockOptions,
): Promise<() => void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const mine = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}\n`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, mine);
      } catch (error) {
        // A lock file that says nobody's would hold every later renewal up.
        closeSync(fd);
        unlinkQuietly(path);
        throw error;
      }
      closeSync(fd);
      return () => {
        // Only our own file: a holder judged dead may have had its file replaced by a live one.
        if (readOrEmpty(path) === mine) unlinkSync(path);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = readOrEmpty(path);
    if (isStale(path, held, staleMs)) {
      // Removed only if still the same dead holder's file, so two waiters do not remove a live one.
      if (readOrEmpty(path) === held) unlinkQuietly(path);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new FailureError(
        `another lms command is ${what} and has not finished within ${Math.round(waitMs / 1000)} s`,
        {
          hint: `retry; if no other lms command is running, remove ${path}`,
        },
      );
    }
    await sleep(POLL_MS + Math.floor(Math.random() * POLL_MS));
  }
}

/**
 * A dead holder's file: its process is gone; or it is older than `staleMs` and names no process (a
 * holder that died between creating and writing it), or older than LIVE_HOLDER_LIMIT × `staleMs`
 * whatever it names (a pid since reused). A live holder's is never taken for slowness alone.
 */
function isStale(path: string, held: string, staleMs: number): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false;
  }
  const pid = Number(held.split(' ')[0]);
  if (!held || !Number.isSafeInteger(pid) || pid <= 0) return age > Math.min(staleMs, EMPTY_GRACE_MS);
  if (!processAlive(pid)) return true;
  return age > staleMs * LIVE_HOLDER_LIMIT;
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Another waiter removed it first.
  }
}

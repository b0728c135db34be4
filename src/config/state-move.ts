// The state older versions kept in the cache directory — the audit log and its rotated files, the
// journals of bulk jobs, apply's keys — moved once into the state directory, where a cache cleaner
// leaves it alone. The caches beside it (Node's compile cache, completion answers) stay.
//
// Every process that uses the state directory comes here first, and the move is made holding a
// lock in the state directory, so that of two processes starting at once one moves and the other
// waits, then finds the marker the first wrote when it was done and moves nothing. Each file is
// moved on its own (a rename; a copy and a removal across devices), and only where the state
// directory has no file of that name, so nothing newer is written over and a move cut short is
// finished by the next process. What the old place holds that is not a regular file of this user's
// (a link, a FIFO, another user's file) is never followed or moved: it is named in one warning.
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { lockFileOf, lockSync } from '../file-lock.js';

/** Written into the state directory once the move is done: no process looks at the old place again. */
const MOVED = '.moved-from-cache';
/** Held while moving. */
const MOVING_LOCK = '.moving.lock';
/** A copy across devices of a large audit log holds the lock longer than a line's append does. */
const MOVING_STALE_MS = 120_000;
const AUDIT_LOG = 'audit.log';
/** The folders of the cache directory that are state: the journals and apply's keys. */
const STATE_FOLDERS = ['journals', 'apply'];
/** Named in the warning; the rest are counted. */
const NAMED_LEFT = 5;

const isAuditFile = (name: string) => name === AUDIT_LOG || /^audit\.log\.[1-9]\d*$/.test(name);
const isState = (name: string) => isAuditFile(name) || STATE_FOLDERS.includes(name);

/** Moves the state in `from` (the old cache directory) into `to` unless it was moved already; never throws. */
export function moveStateOnce(from: string, to: string, warn: (message: string) => void): void {
  if (!awaitsMove(from, to)) return;
  let left: string[];
  try {
    left = moveLocked(from, to);
  } catch (error) {
    warn(
      `could not move lms's state (audit log, journals, apply's keys) from ${from} to ${to}: ` +
        `${(error as Error).message}; the next command tries again`,
    );
    return;
  }
  if (left.length === 0) return;
  const named = left.slice(0, NAMED_LEFT).join(', ');
  const more = left.length > NAMED_LEFT ? ` and ${left.length - NAMED_LEFT} more` : '';
  warn(
    `left in ${from}, not moved to the state directory ${to}: ${named}${more}; move what of it is lms's there yourself`,
  );
}

/** Whether `from` holds state not yet moved into `to`. */
export function awaitsMove(from: string, to: string): boolean {
  return resolve(from) !== resolve(to) && !exists(join(to, MOVED)) && holdsState(from);
}

/** Whether the old place has any of the state's names in it; a place that cannot be read has none to move. */
function holdsState(from: string): boolean {
  try {
    return readdirSync(from).some(isState);
  } catch {
    return false;
  }
}

/** The move, holding the lock; answers what was left behind and why. */
function moveLocked(from: string, to: string): string[] {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  const release = lockSync(join(to, MOVING_LOCK), { staleMs: MOVING_STALE_MS });
  try {
    // Moved by the process this one waited for.
    if (exists(join(to, MOVED))) return [];
    const left: string[] = [];
    // The old place itself may be a link (to another disk, say): followed only to a directory of this user's.
    const top = statSync(from);
    if (!top.isDirectory() || !owned(top)) left.push(`${from} (not a directory of this user's)`);
    else {
      // An older lms still running appends to the old log holding its lock: its line goes in first.
      const releaseOld = lockSync(lockFileOf(join(from, AUDIT_LOG)));
      try {
        for (const name of readdirSync(from).filter(isAuditFile)) moveEntry(join(from, name), join(to, name), left);
      } finally {
        releaseOld();
      }
      for (const name of STATE_FOLDERS) moveEntry(join(from, name), join(to, name), left);
    }
    writeFileSync(join(to, MOVED), `lms's state was moved here from ${from}\n`, { mode: 0o600 });
    return left;
  } finally {
    release();
  }
}

function moveEntry(src: string, dst: string, left: string[]): void {
  try {
    const found = lstatSync(src, { throwIfNoEntry: false });
    if (!found) return;
    if (found.isDirectory() && owned(found)) moveFolder(src, dst, left);
    else if (!found.isFile() || !owned(found)) left.push(`${src} (${whyNot(found)})`);
    else if (lstatSync(dst, { throwIfNoEntry: false })) left.push(`${src} (the state directory has its own)`);
    else moveFile(src, dst, found);
  } catch (error) {
    left.push(`${src} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** A folder's files one by one, into a folder of the same name made or found in the state directory. */
function moveFolder(src: string, dst: string, left: string[]): void {
  const there = lstatSync(dst, { throwIfNoEntry: false });
  if (there && !there.isDirectory()) {
    left.push(`${src} (the state directory has a file of that name)`);
    return;
  }
  if (!there) mkdirSync(dst, { mode: 0o700 });
  for (const name of readdirSync(src)) moveEntry(join(src, name), join(dst, name), left);
  try {
    rmdirSync(src);
  } catch {
    // What was left behind keeps it.
  }
}

function moveFile(src: string, dst: string, found: Stats): void {
  try {
    renameSync(src, dst);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyAcross(src, dst, found);
    unlinkSync(src);
  }
  // Made some other way (copied, restored): private before more is written to it.
  if (process.platform !== 'win32' && (found.mode & 0o077) !== 0) chmodSync(dst, 0o600);
}

/**
 * The file opened without following a link, checked to be the one looked at, and copied beside its
 * new name with its times (the audit log's rotation reads a file's age from them), then renamed
 * into place: a copy cut short is never taken for the file.
 */
function copyAcross(src: string, dst: string, found: Stats): void {
  const input = openSync(src, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  const part = join(dirname(dst), `.${basename(dst)}.${process.pid}.moving`);
  try {
    const opened = fstatSync(input);
    if (opened.ino !== found.ino || opened.dev !== found.dev)
      throw new Error(`${src} changed while it was being moved`);
    const output = openSync(part, 'wx', 0o600);
    try {
      const chunk = Buffer.alloc(1 << 20);
      for (;;) {
        const read = readSync(input, chunk, 0, chunk.length, null);
        if (read <= 0) break;
        for (let written = 0; written < read; ) written += writeSync(output, chunk, written, read - written);
      }
      futimesSync(output, found.atime, found.mtime);
      fsyncSync(output);
    } finally {
      closeSync(output);
    }
    renameSync(part, dst);
  } catch (error) {
    rmSync(part, { force: true });
    throw error;
  } finally {
    closeSync(input);
  }
}

function owned(found: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || found.uid === uid;
}

function whyNot(found: Stats): string {
  if (found.isSymbolicLink()) return 'a symbolic link';
  if (!owned(found)) return "another user's";
  return 'not a regular file';
}

/** Whether there is something at `path`; where nothing can be looked at (ENOTDIR, EACCES), the move finds why. */
function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

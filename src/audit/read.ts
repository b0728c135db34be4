// Reading the audit log back: every kept file, oldest first, and, to follow it, the lines appended
// after a point, across rotations (the file that was open is read to its end before the new one).
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AuditEntry } from './log.js';
import { lockFileOf, lockSync } from '../file-lock.js';

/** The log's files that exist, oldest first: audit.log.N … audit.log.1, audit.log. */
export function keptFiles(path: string): string[] {
  const name = basename(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  const rotated = names
    .map((n) => ({ n, index: n.startsWith(`${name}.`) ? Number(n.slice(name.length + 1)) : NaN }))
    .filter((f) => Number.isInteger(f.index) && f.index > 0)
    .sort((a, b) => b.index - a.index)
    .map((f) => join(dirname(path), f.n));
  return names.includes(name) ? [...rotated, path] : rotated;
}

/** An entry from a line; a line cut short (a crash mid-write, a file edited by hand) is passed over. */
function parseEntry(line: string): AuditEntry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const entry = JSON.parse(line) as AuditEntry;
    return typeof entry === 'object' && entry !== null && typeof entry.time === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Readers wait this long for a writer's lock before reading the files as they find them. */
const READER_WAIT_MS = 2_000;

/**
 * The kept files opened, oldest first. They are opened holding the log's lock, so that no rotation
 * moves one between the listing and the opening (which would skip a file, or read one twice); a
 * log this user cannot lock (a directory it may not write) is opened as found.
 */
function openKept(path: string): { file: string; fd: number }[] {
  let release: (() => void) | undefined;
  try {
    release = lockSync(lockFileOf(path), { waitMs: READER_WAIT_MS });
  } catch {
    release = undefined;
  }
  const opened: { file: string; fd: number }[] = [];
  try {
    for (const file of keptFiles(path)) {
      try {
        opened.push({ file, fd: openSync(file, 'r') });
      } catch {
        // Rotated away between the listing and now (read without the lock).
      }
    }
  } finally {
    release?.();
  }
  return opened;
}

function* entriesOf(text: string): Generator<AuditEntry> {
  for (const line of text.split('\n')) {
    const entry = parseEntry(line);
    if (entry) yield entry;
  }
}

/** Every entry kept, oldest first, a file at a time (a file is at most the rotation size). */
export function* readEntries(path: string): Generator<AuditEntry> {
  const opened = openKept(path);
  try {
    while (opened.length > 0) {
      const { fd } = opened.shift()!;
      try {
        yield* entriesOf(readRest(fd, 0).text);
      } finally {
        closeSync(fd);
      }
    }
  } finally {
    for (const { fd } of opened) closeSync(fd);
  }
}

function readRest(fd: number, from: number): { text: string; end: number } {
  const size = fstatSync(fd).size;
  if (size <= from) return { text: '', end: from };
  const buffer = Buffer.alloc(size - from);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, from + read);
    if (n === 0) break;
    read += n;
  }
  return { text: buffer.subarray(0, read).toString('utf8'), end: from + read };
}

/**
 * The entries appended to the log from now on (or, `fromStart`, those of the current file first;
 * `rotatedFirst`, those of every kept file first), as they come, until `signal` aborts: polled, as
 * `tail -F` does where no change notice is to be had, and followed onto the new file when the log
 * rotates.
 */
export async function* followEntries(
  path: string,
  options: { intervalMs?: number; signal?: AbortSignal; fromStart?: boolean; rotatedFirst?: boolean } = {},
): AsyncGenerator<AuditEntry> {
  const intervalMs = options.intervalMs ?? 250;
  let fd: number | undefined;
  let ino: number | undefined;
  let offset = 0;
  // A line is taken only once its newline has been written.
  let partial = '';
  const open = (fromEnd: boolean) => {
    try {
      fd = openSync(path, 'r');
    } catch {
      fd = undefined;
      return;
    }
    const stat = fstatSync(fd);
    ino = stat.ino;
    offset = fromEnd ? stat.size : 0;
    partial = '';
  };
  const take = function* () {
    if (fd === undefined) return;
    const { text, end } = readRest(fd, offset);
    offset = end;
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    yield* entriesOf(lines.join('\n'));
  };
  // With `rotatedFirst`, the rotated files and the current one as one rotation left them, so that
  // none is missed or read twice between the two.
  const rotated = options.rotatedFirst ? openKept(path) : [];
  if (rotated.at(-1)?.file === path) {
    fd = rotated.pop()!.fd;
    ino = fstatSync(fd).ino;
  } else if (!options.rotatedFirst) {
    open(!options.fromStart);
  }
  try {
    while (rotated.length > 0) {
      const file = rotated.shift()!;
      try {
        yield* entriesOf(readRest(file.fd, 0).text);
      } finally {
        closeSync(file.fd);
      }
    }
    while (!options.signal?.aborted) {
      yield* take();
      // Rotated (or made for the first time): the open file has been read to its end, so the new one is read from its
      // start.
      let current: number | undefined;
      try {
        current = statSync(path).ino;
      } catch {
        current = undefined;
      }
      if (current !== undefined && current !== ino) {
        // Every line of the old file was written before it was renamed, which was before the look
        // just taken: read to its end once more, or the lines written since the read above are lost.
        yield* take();
        if (fd !== undefined) closeSync(fd);
        open(false);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        options.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  } finally {
    for (const file of rotated) closeSync(file.fd);
    if (fd !== undefined) closeSync(fd);
  }
}

// Reading the audit log back: every kept file, oldest first, and, to follow it, the lines appended
// after a point, across rotations (the file that was open is read to its end before the new one).
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AuditEntry } from './log.js';

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

/** Every entry kept, oldest first, a file at a time (a file is at most the rotation size); or only the rotated files'. */
export function* readEntries(path: string, options: { rotatedOnly?: boolean } = {}): Generator<AuditEntry> {
  for (const file of keptFiles(path)) {
    if (options.rotatedOnly && file === path) continue;
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      // Rotated away between the listing and now.
      continue;
    }
    try {
      for (const line of readRest(fd, 0).text.split('\n')) {
        const entry = parseEntry(line);
        if (entry) yield entry;
      }
    } finally {
      closeSync(fd);
    }
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
 * The entries appended to the log from now on (or, `fromStart`, those of the current file first),
 * as they come, until `signal` aborts: polled, as
 * `tail -F` does where no change notice is to be had, and followed onto the new file when the log
 * rotates.
 */
export async function* followEntries(path: string, options: { intervalMs?: number; signal?: AbortSignal; fromStart?: boolean } = {}): AsyncGenerator<AuditEntry> {
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
  open(!options.fromStart);
  try {
    while (!options.signal?.aborted) {
      if (fd !== undefined) {
        const { text, end } = readRest(fd, offset);
        offset = end;
        const lines = (partial + text).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          const entry = parseEntry(line);
          if (entry) yield entry;
        }
      }
      // Rotated (or made for the first time): the open file has been read to its end, so the new one is read from its start.
      let current: number | undefined;
      try {
        current = statSync(path).ino;
      } catch {
        current = undefined;
      }
      if (current !== undefined && current !== ino) {
        if (fd !== undefined) closeSync(fd);
        open(false);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

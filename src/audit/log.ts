// The audit log: one JSON line for every write lms sends, whichever surface sent it, in the state
// directory. Each line is appended on its own, right after the answer came, so a crash loses none
// that was sent, and processes writing at once never interleave inside a line (O_APPEND, one write).
// It keeps itself small: past a size the file is rotated (audit.log.1 …), and a rotation drops the
// entries older than LMS_AUDIT_KEEP_DAYS; a file whose oldest entry is past that is rotated too.
// Every append and rotation is made holding one lock (lock.ts), and the current file is only ever
// appended to and renamed, so no process's entry is written over by another's rotation. What it
// never holds: a token, a password, a secret parameter or a request body (the path is redacted as
// traces are; bodies are never read).
import {
  appendFileSync,
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { lockFileOf, lockSync, type LockOptions } from '../file-lock.js';
import { UsageError } from '../errors.js';
import { stateDir, type StateContext } from '../config/paths.js';

const AUDIT_FILE = 'audit.log';
/** A file past this is rotated before the next line. */
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Rotated files kept beside the current one. */
const DEFAULT_KEEP_FILES = 3;
const DEFAULT_KEEP_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Who sent a write: the user the token belongs to, when known without asking; else where the token came from. */
export interface AuditUser {
  id?: number | string;
  login?: string;
  /** The profile whose token was sent, or `LMS_TOKEN`, or `seeded admin` for the mock. */
  via?: string;
}

/** One line of the log. */
export interface AuditEntry {
  time: string;
  /** The instance's origin, or `mock:<database path>`. */
  instance: string;
  user: AuditUser;
  /** `--as-user`: whom the write was made as. */
  as_user?: string;
  /** `cli`, `apply`, or `mcp:<tool>`. */
  surface: string;
  /** The command line without its arguments: `lms users delete`. */
  verb?: string;
  /** Absent on a bulk job's summary line. */
  method?: string;
  /** Path and query, secrets redacted; a one-time URL shows only its origin. */
  path?: string;
  /** The answer's status; null when none came (the error says why). */
  status?: number | null;
  error?: string;
  /** A bulk job's (or apply's) outcome: its counts and its journal. */
  job?: { name: string; counts: Record<string, number>; journal?: string };
  /**
   * The plan a person confirmed before this write (`lms mcp`'s confirmation tokens): its digest,
   * which the token carried, and when it was shown. The plan itself holds request bodies, so only
   * its digest is kept.
   */
  confirmed?: { plan_digest: string; issued_at: string };
}

export interface AuditLogOptions {
  maxBytes?: number;
  keepFiles?: number;
  keepDays?: number;
  now?: () => number;
  /** How old a lock must be to be taken over from a holder that cannot be seen to have died. */
  lockStaleMs?: number;
}

/** LMS_AUDIT_KEEP_DAYS, checked: a positive number of days, 90 unless set. */
export function keepDaysOf(env: NodeJS.ProcessEnv): number {
  const raw = env.LMS_AUDIT_KEEP_DAYS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_KEEP_DAYS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0) {
    throw new UsageError(`LMS_AUDIT_KEEP_DAYS must be a positive number of days, not "${raw}"`, {
      hint: `unset it to keep the audit log for ${DEFAULT_KEEP_DAYS} days`,
    });
  }
  return days;
}

export async function auditLogPath(ctx: StateContext): Promise<string> {
  return join(await stateDir(ctx), AUDIT_FILE);
}

export class AuditLog {
  private readonly maxBytes: number;
  private readonly keepFiles: number;
  private readonly keepMs: number;
  private readonly now: () => number;
  private readonly lock: LockOptions;
  private opened = false;

  constructor(
    readonly path: string,
    options: AuditLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.keepFiles = options.keepFiles ?? DEFAULT_KEEP_FILES;
    this.keepMs = (options.keepDays ?? DEFAULT_KEEP_DAYS) * DAY_MS;
    this.now = options.now ?? Date.now;
    this.lock = { staleMs: options.lockStaleMs };
  }

  append(entry: AuditEntry): void {
    const line = `${JSON.stringify(entry)}\n`;
    if (!this.opened) mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const release = lockSync(lockFileOf(this.path), this.lock);
    try {
      // Looked at under the lock, since another process may have rotated it since this one last wrote.
      let size = sizeOf(this.path);
      if (!this.opened && size > 0) size = this.open();
      this.opened = true;
      if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) this.rotate();
      appendFileSync(this.path, line, { mode: 0o600 });
    } finally {
      release();
    }
  }

  /** A process's first line: the file's mode checked, and a file whose oldest line is stale rotated. */
  private open(): number {
    // A file made some other way (copied, restored) is made private before more is added to it.
    if ((statSync(this.path).mode & 0o077) !== 0) chmodSync(this.path, 0o600);
    // A log that grows slowly would never reach a rotation: its oldest line is checked once per
    // process, which costs one small read, and the file is rotated so that its stale part goes.
    if (!this.isStale(firstTime(this.path))) return sizeOf(this.path);
    this.rotate();
    return 0;
  }

  private isStale(time: number | undefined): boolean {
    return time !== undefined && time < this.now() - this.keepMs;
  }

  /**
   * The current file becomes audit.log.1, each older one moves up, the one past the kept number
   * goes, and the rotated files lose their stale entries. Only renames touch the current file,
   * and a rotated one is rewritten whole into place: a reader holding either reads a whole file.
   */
  private rotate(): void {
    const at = (n: number) => (n === 0 ? this.path : `${this.path}.${n}`);
    const rotated = rotatedIndexes(this.path);
    for (const n of rotated) {
      if (n >= this.keepFiles) rmSync(at(n), { force: true });
      else renameSync(at(n), at(n + 1));
    }
    try {
      renameSync(this.path, at(1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (let n = 1; n <= this.keepFiles; n++) this.dropOld(at(n));
  }

  /** Rewrites a rotated file without its entries older than the retention; a file of only such entries goes. */
  private dropOld(file: string): void {
    let stat: Stats;
    try {
      stat = statSync(file);
    } catch {
      return;
    }
    // A file last written before the cutoff holds nothing newer.
    if (this.isStale(stat.mtimeMs)) {
      rmSync(file, { force: true });
      return;
    }
    if (!this.isStale(firstTime(file))) return;
    const kept = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !this.isStale(timeOf(line)));
    if (kept.length === 0) {
      rmSync(file, { force: true });
      return;
    }
    // Written beside it and renamed over it, so that a crash leaves the old file or the new one.
    const next = join(dirname(file), `.${basename(file)}.next`);
    writeFileSync(next, `${kept.join('\n')}\n`, { mode: 0o600 });
    utimesSync(next, stat.atime, stat.mtime);
    renameSync(next, file);
  }
}

/** The indexes of the rotated files there are, highest first. */
function rotatedIndexes(path: string): number[] {
  const name = basename(path);
  return readdirSync(dirname(path))
    .filter((n) => n.startsWith(`${name}.`))
    .map((n) => Number(n.slice(name.length + 1)))
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => b - a);
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** When the file's first entry was written, read from its first few bytes. */
function firstTime(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(512);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const match = /"time":"([^"]+)"/.exec(buffer.subarray(0, read).toString('utf8'));
    return match ? Date.parse(match[1]) : undefined;
  } finally {
    closeSync(fd);
  }
}

function timeOf(line: string): number | undefined {
  try {
    const time = Date.parse((JSON.parse(line) as { time?: string }).time ?? '');
    return Number.isNaN(time) ? undefined : time;
  } catch {
    return undefined;
  }
}

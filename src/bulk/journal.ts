// A bulk job's memory across runs: one append-only NDJSON file per (job, instance, target, input),
// recording each row's outcome as it happens. A row is marked `started` before its write is sent, so
// after a crash, a kill -9 or Ctrl-C the next run knows which rows may have been applied and checks
// those before writing again. It holds keys, ids, statuses and messages — never a token.
//
// A journal describes data on an instance, and that data can vanish under it (`lms mock seed`, a
// restored backup, someone deleting users). So every entry records the instance state it was
// written against (instance.ts), and an entry counts only where that state still holds:
//  - same named state as now: trusted, the row is skipped with no request;
//  - another named state: the data it describes is gone, the entry is ignored (and dropped);
//  - no named state, then or now (a real instance): kept, but only as a claim — the job verifies it
//    with a lookup (job.ts) and redoes the row when the lookup finds nothing.
// Entries are per entry rather than part of the file's name, so one file per job is rewritten in
// place rather than a new one left behind for each state.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type RowStatus = 'started' | 'created' | 'existed' | 'updated' | 'differs' | 'failed';

/** Outcomes after which the row needs nothing more (`differs` and `failed` are looked at again). */
export const DONE: ReadonlySet<RowStatus> = new Set(['created', 'existed', 'updated']);

export interface JournalEntry {
  line: number;
  key: string;
  status: RowStatus;
  id?: number;
  error?: string;
  /** The instance state the entry was written against, when the instance names one. */
  state?: string;
  /** For `started`: until when (epoch ms) its request could still be answered, and so applied. */
  until?: number;
}

export interface JournalOptions {
  /** The instance's state now (Instance.state). */
  state?: string;
  /** Start over on purpose: ignore every entry, and (unless read-only) replace the file. */
  restart?: boolean;
  /** A dry run: consider the journal exactly as a run would, write nothing. */
  readOnly?: boolean;
}

export class Journal {
  readonly path: string;
  private readonly last = new Map<string, JournalEntry>();
  private readonly state?: string;
  private readonly readOnly: boolean;
  /** Entries dropped on opening because they describe another state of the instance. */
  readonly stale: number = 0;

  /** `identity` names the job: what it does, where, and the input's bytes (hashed, never stored). */
  constructor(dir: string, identity: (string | Uint8Array)[], options: JournalOptions = {}) {
    this.state = options.state;
    this.readOnly = options.readOnly ?? false;
    const hash = createHash('sha256');
    for (const part of identity) hash.update(part).update('\0');
    this.path = join(dir, `${hash.digest('hex').slice(0, 32)}.ndjson`);
    if (!this.readOnly) mkdirSync(dir, { recursive: true, mode: 0o700 });

    let text = '';
    try {
      if (!options.restart) text = readFileSync(this.path, 'utf8');
    } catch {
      // A first run has no journal yet.
    }
    const all = new Map<string, JournalEntry>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        if (typeof entry.key === 'string') all.set(entry.key, entry);
      } catch {
        // A line torn by a crash mid-write is ignored; its row is checked again.
      }
    }
    let stale = 0;
    for (const [key, entry] of all) {
      if (entry.state !== undefined && this.state !== undefined && entry.state !== this.state) stale++;
      else this.last.set(key, entry);
    }
    this.stale = stale;
    // Rewritten with what still counts: stale entries go, and a restart starts from an empty file.
    if (!this.readOnly && (stale > 0 || options.restart)) {
      const tmp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(tmp, [...this.last.values()].map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
      renameSync(tmp, this.path);
    }
  }

  /** The latest outcome recorded for a row that still applies to this state of the instance. */
  get(key: string): JournalEntry | undefined {
    return this.last.get(key);
  }

  /**
   * Whether an entry can be taken at its word: it was written against the state the instance names
   * now. Otherwise (a real instance names no state) a row it calls done must be looked up.
   */
  trusted(entry: JournalEntry): boolean {
    return this.state !== undefined && entry.state === this.state;
  }

  record(entry: Omit<JournalEntry, 'state'>): void {
    const full: JournalEntry = this.state === undefined ? entry : { ...entry, state: this.state };
    this.last.set(entry.key, full);
    if (this.readOnly) return;
    appendFileSync(this.path, `${JSON.stringify(full)}\n`, { mode: 0o600 });
  }
}

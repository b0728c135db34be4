// A bulk job's memory across runs: one append-only NDJSON file per (input, instance, target),
// recording each row's outcome as it happens. A row is marked `started` before its write is sent, so
// after a crash, a kill -9 or Ctrl-C the next run knows which rows may have been applied and checks
// those before writing again. It holds keys, ids and messages — never a token.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type RowStatus = 'started' | 'created' | 'existed' | 'failed';

export interface JournalEntry {
  line: number;
  key: string;
  status: RowStatus;
  id?: number;
  error?: string;
}

export class Journal {
  readonly path: string;
  private readonly last = new Map<string, JournalEntry>();

  /** `identity` names the job: what it does, where, and the input's bytes (hashed, never stored). */
  constructor(dir: string, identity: (string | Uint8Array)[]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const hash = createHash('sha256');
    for (const part of identity) hash.update(part).update('\0');
    this.path = join(dir, `${hash.digest('hex').slice(0, 32)}.ndjson`);
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      // A first run has no journal yet.
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        this.last.set(entry.key, entry);
      } catch {
        // A line torn by a crash mid-write is ignored; its row is checked again.
      }
    }
  }

  /** The latest outcome recorded for a row. */
  get(key: string): JournalEntry | undefined {
    return this.last.get(key);
  }

  record(entry: JournalEntry): void {
    this.last.set(entry.key, entry);
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}

// The journal of batches sent to a background endpoint (update_grades: one request, then a Progress
// the server works through on its own). A batch outlives the process that sent it: killed, its
// request may still be in the server's hands and its job queued, and a re-run that reads the
// server before that job has run sees none of it and sends it all again — every comment twice.
//
// So every batch is written down before it goes out (`sending`: what it carries, and until when its
// request could still be answered), and its Progress as soon as the server names it (`sent`), each
// entry flushed to disk before the run goes on. A later run first settles every batch an earlier
// run left unfinished: follows the recorded Progress to its end, or, for a batch killed between
// sending and its answer (in doubt), waits out its request and reads back what the server holds.
//
// Each run writes its own file (named by its process id), so runs never rewrite one another's
// entries; a file is removed by its own run once all its batches ended, or by a later run that
// settled it after its writer was gone. Like the rows' journal (journal.ts), an entry counts only
// against the state of the instance it was written in. It holds ids, grades and comments, never a
// token.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../process-alive.js';

/** One student's part of a batch, as sent. */
export interface BatchCell {
  user_id: number;
  /** The grade the batch sets (interpreted: what the server holds once it is applied). */
  score: number | null;
  grade: string | null;
  /** The batch excuses the student (score and grade are then null). */
  excused?: boolean;
  comment?: string;
  /** Comments with this text by the sender the submission held before the batch was sent. */
  had?: number;
}

export type BatchStatus = 'sending' | 'sent' | 'ended';

interface Entry {
  batch: string;
  status: BatchStatus;
  state?: string;
  assignment?: number;
  cells?: BatchCell[];
  /** Until when (epoch ms) the request could still have been answered: its start plus the timeout. */
  deadline?: number;
  progress?: number;
  workflow_state?: string;
}

/** A batch of an earlier run that had not ended when that run stopped. */
export interface EarlierBatch {
  batch: string;
  assignment: number;
  cells: BatchCell[];
  deadline: number;
  /** The Progress the server answered with; none when the run stopped before its answer (in doubt). */
  progress?: number;
  /** The file it was recorded in. */
  file: string;
}

export class BatchJournal {
  readonly dir: string;
  /** Batches of earlier (or concurrent) runs that have not ended. */
  readonly unfinished: EarlierBatch[] = [];
  /** Every batch of earlier runs still on disk, ended or not: what they carried, for reading back. */
  readonly earlier: EarlierBatch[] = [];
  private readonly state?: string;
  private readonly file: string;
  private readonly mine = new Map<string, BatchStatus>();
  /** Files of runs that are gone: removed once this run has settled them. */
  private readonly orphans: string[] = [];
  private fd?: number;

  /** `identity` names where the batches go (the instance and the course), not the input. */
  constructor(root: string, identity: string[], options: { state?: string } = {}) {
    this.state = options.state;
    const hash = createHash('sha256');
    for (const part of identity) hash.update(part).update('\0');
    this.dir = join(root, `batches-${hash.digest('hex').slice(0, 32)}`);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.file = join(this.dir, `${process.pid}-${randomUUID().slice(0, 8)}.ndjson`);

    for (const name of readdirSync(this.dir)) {
      const m = /^(\d+)-[0-9a-f]{8}\.ndjson$/.exec(name);
      if (!m) continue;
      let text = '';
      try {
        text = readFileSync(join(this.dir, name), 'utf8');
      } catch {
        continue;
      }
      const batches = new Map<string, EarlierBatch & { ended: boolean }>();
      for (const line of text.split('\n')) {
        let e: Entry;
        try {
          e = JSON.parse(line) as Entry;
        } catch {
          // A line torn by a kill mid-write: its batch stays as the lines before left it.
          continue;
        }
        if (typeof e?.batch !== 'string') continue;
        // Written against another state of the instance: what it describes is gone.
        if (e.state !== undefined && this.state !== undefined && e.state !== this.state) continue;
        const b = batches.get(e.batch);
        if (e.status === 'sending' && Array.isArray(e.cells) && typeof e.assignment === 'number') {
          batches.set(e.batch, {
            batch: e.batch,
            assignment: e.assignment,
            cells: e.cells,
            deadline: e.deadline ?? 0,
            file: join(this.dir, name),
            ended: false,
          });
        } else if (b && e.status === 'sent' && typeof e.progress === 'number') b.progress = e.progress;
        else if (b && e.status === 'ended') b.ended = true;
      }
      for (const { ended, ...b } of batches.values()) {
        this.earlier.push(b);
        if (!ended) this.unfinished.push(b);
      }
      if (!processAlive(Number(m[1])) || Number(m[1]) === process.pid) this.orphans.push(join(this.dir, name));
    }
  }

  /** Writes one entry and flushes it to disk before returning: what is recorded survives a kill. */
  private write(entry: Entry): void {
    const full = this.state === undefined ? entry : { ...entry, state: this.state };
    if (this.fd === undefined) {
      this.fd = openSync(this.file, 'a', 0o600);
      // The file's name in its directory is flushed once, so the entries are found after a crash
      // (where a directory can be opened for it: not on Windows, whose file system needs none).
      let dirFd: number | undefined;
      try {
        dirFd = openSync(this.dir, 'r');
        fsyncSync(dirFd);
      } catch {
        // Nothing more can be done for the name; the entries themselves are still flushed.
      } finally {
        if (dirFd !== undefined) closeSync(dirFd);
      }
    }
    writeSync(this.fd, `${JSON.stringify(full)}\n`);
    fsyncSync(this.fd);
  }

  /**
   * An earlier run's batch has been brought to its end. Said in that run's file when the file stays
   * (its writer is alive, or its process id has been reused), so it is not settled again each run.
   */
  settled(b: EarlierBatch): void {
    if (this.orphans.includes(b.file)) return;
    try {
      const fd = openSync(b.file, 'a');
      try {
        writeSync(
          fd,
          `${JSON.stringify({ batch: b.batch, status: 'ended', ...(this.state !== undefined ? { state: this.state } : {}) })}` +
            `\n`,
        );
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // Its writer removed it meanwhile: nothing is left to say.
    }
  }

  /** Records a batch about to be sent; returns its name. */
  sending(assignment: number, cells: BatchCell[], deadline: number): string {
    const batch = randomUUID();
    this.write({ batch, status: 'sending', assignment, cells, deadline });
    this.mine.set(batch, 'sending');
    return batch;
  }

  /** Records the Progress the server answered a batch with. */
  sent(batch: string, progress: number): void {
    this.write({ batch, status: 'sent', progress });
    this.mine.set(batch, 'sent');
  }

  /** Records that a batch needs nothing more: its Progress ended, or the server refused it outright. */
  ended(batch: string, workflowState?: string): void {
    this.write({ batch, status: 'ended', ...(workflowState ? { workflow_state: workflowState } : {}) });
    this.mine.set(batch, 'ended');
  }

  /**
   * The run is over and the earlier runs' batches are settled: their files go (those whose writer is
   * gone), and so does this run's when every batch it sent has ended.
   */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    for (const file of this.orphans) rmSync(file, { force: true });
    if ([...this.mine.values()].every((s) => s === 'ended')) rmSync(this.file, { force: true });
  }
}

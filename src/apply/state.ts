// Which object of an instance each `key` of an apply file is, for the kinds the API gives no field
// to keep a key of ours in (assignments, topics, announcements, quizzes on this API): one small
// append-only file per instance and course under the state directory, beside the bulk journals.
// A key is recorded when its object is created or first matched by title, so renaming it in the
// file later is an update of that object, not a new one.
//
// Like a journal, an entry counts only for the instance state it was written against (the mock
// names its state; `lms mock seed` starts a new one); and an id is believed only while the course
// still lists that object, so an object deleted since is matched afresh.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Instance } from '../bulk/instance.js';

interface Entry {
  kind: string;
  key: string;
  id: number;
  state?: string;
}

export class KeyStore {
  private readonly files = new Map<string, { path: string; ids: Map<string, number> }>();

  /** `dir`: the state directory's folder for apply (`<state>/apply`). */
  constructor(
    private readonly dir: string,
    private readonly instance: Instance,
  ) {}

  private fileOf(course: string) {
    let file = this.files.get(course);
    if (file) return file;
    const name = createHash('sha256')
      .update(this.instance.where)
      .update('\0')
      .update(course)
      .digest('hex')
      .slice(0, 32);
    file = { path: join(this.dir, `${name}.ndjson`), ids: new Map() };
    let text = '';
    try {
      text = readFileSync(file.path, 'utf8');
    } catch {
      // Nothing recorded for this course yet.
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const e = JSON.parse(line) as Entry;
        if (typeof e.key !== 'string' || typeof e.id !== 'number') continue;
        if (e.state !== undefined && this.instance.state !== undefined && e.state !== this.instance.state) continue;
        // Latest last: a key given again (renamed back) is the newest name of its id.
        file.ids.delete(`${e.kind}\0${e.key}`);
        file.ids.set(`${e.kind}\0${e.key}`, e.id);
      } catch {
        // A line torn by a crash mid-write: that key is matched by title again.
      }
    }
    this.files.set(course, file);
    return file;
  }

  /** The id recorded for a key of a course, if any. */
  get(course: string, kind: string, key: string): number | undefined {
    return this.fileOf(course).ids.get(`${kind}\0${key}`);
  }

  /**
   * The id recorded for a key as the state file has it now: another run keeping the same state
   * directory may have recorded it since this one read the file.
   */
  latest(course: string, kind: string, key: string): number | undefined {
    this.files.delete(course);
    return this.get(course, kind, key);
  }

  /** The key recorded for each id of a kind of a course: what an export names them by. */
  keysOf(course: string, kind: string): Map<number, string> {
    const out = new Map<number, string>();
    for (const [name, id] of this.fileOf(course).ids) {
      const [k, key] = name.split('\0');
      if (k === kind) out.set(id, key);
    }
    return out;
  }

  record(course: string, kind: string, key: string, id: number): void {
    const file = this.fileOf(course);
    if (file.ids.get(`${kind}\0${key}`) === id) return;
    file.ids.delete(`${kind}\0${key}`);
    file.ids.set(`${kind}\0${key}`, id);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const entry: Entry = {
      kind,
      key,
      id,
      ...(this.instance.state !== undefined ? { state: this.instance.state } : {}),
    };
    appendFileSync(file.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}

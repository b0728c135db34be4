// The journal of update_grades batches (src/bulk/batches.ts): each entry on disk before the run goes
// on, one file per run, entries of another state of the instance ignored, files removed only by their
// own run or once their writer is gone; and a grade file re-run after a run that died with a batch in
// doubt: what the server holds of that batch is read back, and a comment it holds is not sent again.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchJournal } from '../../src/bulk/batches.js';
import type { ApiRequest } from '../../src/transport/types.js';
import { session } from '../helpers/run-lms.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'lms-batches-'));
const CELL = { user_id: 7, score: 18, grade: '18', comment: 'well argued', had: 0 };

describe('the batch journal', () => {
  it('has each entry on disk when the call returns, and a later run sees the batch in doubt or its Progress', () => {
    const root = scratch();
    const a = new BatchJournal(root, ['grade.batches', 'here', 'c1'], { state: 's1' });
    const doubt = a.sending(1, [CELL], 1234);
    const followed = a.sending(1, [{ ...CELL, user_id: 8 }], 5678);
    a.sent(followed, 42);
    const done = a.sending(2, [CELL], 1);
    a.ended(done, 'completed');
    // Read from disk by another journal while the first is still open (as after a kill).
    const b = new BatchJournal(root, ['grade.batches', 'here', 'c1'], { state: 's1' });
    expect(b.unfinished.map((u) => [u.batch, u.progress, u.deadline])).toEqual([
      [doubt, undefined, 1234],
      [followed, 42, 5678],
    ]);
    expect(b.earlier.map((e) => e.batch)).toEqual([doubt, followed, done]);
    // Another course, or another state of the instance (a reseed), is another journal's business.
    expect(new BatchJournal(root, ['grade.batches', 'here', 'c2'], { state: 's1' }).unfinished).toEqual([]);
    expect(new BatchJournal(root, ['grade.batches', 'here', 'c1'], { state: 's2' }).unfinished).toEqual([]);
  });

  it('ignores a line torn by a kill, keeping what the lines before it said', () => {
    const root = scratch();
    const a = new BatchJournal(root, ['x'], {});
    const name = a.sending(1, [CELL], 1);
    const [file] = readdirSync(a.dir);
    writeFileSync(join(a.dir, file), `${readFileSync(join(a.dir, file), 'utf8')}{"batch":"${name}","status":"se`);
    expect(new BatchJournal(root, ['x'], {}).unfinished.map((u) => [u.batch, u.progress])).toEqual([[name, undefined]]);
  });

  it(
    'removes a file only when its run has ended every batch, ' +
      'or once its writer is gone and a later run settled it',
    () => {
      const root = scratch();
      const a = new BatchJournal(root, ['x'], {});
      a.ended(a.sending(1, [CELL], 1));
      a.close();
      expect(readdirSync(a.dir)).toEqual([]);

      // An earlier run of this process id that left a batch unfinished, one of a process that is gone,
      // and one of a live process (this one's parent): the first two are settled and removed, the last
      // is followed but left to its writer.
      const b = new BatchJournal(root, ['x'], {});
      b.sending(1, [CELL], 1);
      b.close();
      expect(readdirSync(b.dir)).toHaveLength(1);
      const entry = (batch: string) =>
        `${JSON.stringify({ batch, status: 'sending', assignment: 1, cells: [CELL], deadline: 1 })}\n`;
      writeFileSync(join(b.dir, `${2 ** 22 + 1}-0123abcd.ndjson`), entry('gone'));
      writeFileSync(join(b.dir, `${process.ppid}-0123abcd.ndjson`), entry('live'));
      const c = new BatchJournal(root, ['x'], {});
      expect(c.unfinished).toHaveLength(3);
      for (const u of c.unfinished) c.settled(u);
      c.close();
      expect(readdirSync(c.dir)).toEqual([`${process.ppid}-0123abcd.ndjson`]);
      // Settled, the live run's batch is not settled again by the next run.
      expect(new BatchJournal(root, ['x'], {}).unfinished).toEqual([]);
      expect(existsSync(c.dir)).toBe(true);
    },
  );
});

describe('lms grade --csv after a run that died with a batch in doubt', () => {
  it('reads the batch back first, and sends the grade without the comment the server already holds', async () => {
    const dir = scratch();
    const file = join(dir, 'g.csv');
    writeFileSync(file, 'user,grade,comment\nsam,18,well argued\n');
    const lms = session({ LMS_TOKEN: '3~mock-tteacher', LMS_STATE_DIR: join(dir, 'state') });
    const real = lms.mock.handler;
    const batches: string[] = [];
    // The first batch reaches a server that applies its comment but not yet its grade, and the run
    // dies before any answer (a crash, as a kill would end it: nothing after it runs).
    lms.mock.handler = async (req: ApiRequest) => {
      if (req.method === 'POST' && req.url.includes('/update_grades')) {
        batches.push(typeof req.body === 'string' ? req.body : Buffer.from(req.body ?? '').toString());
        if (batches.length === 1) {
          await real({
            ...req,
            method: 'PUT',
            url: req.url.replace('/update_grades', '/7'),
            body: 'comment%5Btext_comment%5D=well+argued',
          });
          throw new Error('the run died here');
        }
      }
      return real(req);
    };
    const first = await lms.run(`--timeout 1 grade --course 1 --assignment 1 --csv ${file} -o json`);
    expect(first.exitCode).not.toBe(0);

    // From stdin, which is read once though the server is read again after the settling.
    const again = await lms.run('grade --course 1 --assignment 1 --csv - -o json', {
      stdin: readFileSync(file, 'utf8'),
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/an earlier run stopped with 1 batch of grades unfinished \(1 rows\)/);
    expect(batches).toHaveLength(2);
    expect(decodeURIComponent(batches[1])).toContain('[posted_grade]=18');
    expect(decodeURIComponent(batches[1])).not.toContain('text_comment');
    const sam = JSON.parse(
      (await lms.run('submissions get --course 1 --assignment 1 --user 7 --include submission_comments -o json'))
        .stdout,
    ) as { grade: string; submission_comments: { comment: string }[] };
    expect(sam.grade).toBe('18');
    expect(sam.submission_comments.filter((c) => c.comment === 'well argued')).toHaveLength(1);
  });
});

describe('lms grade --csv --per-row after a run that died with a PUT on the wire', () => {
  it('waits the PUT out before looking the row up, so a write that lands late is not sent again', async () => {
    const dir = scratch();
    const file = join(dir, 'g.csv');
    writeFileSync(file, 'user,grade,comment\nsam,18,well argued\n');
    const lms = session({ LMS_TOKEN: '3~mock-tteacher', LMS_STATE_DIR: join(dir, 'state') });
    const real = lms.mock.handler;
    const puts: string[] = [];
    let landed: Promise<unknown> | undefined;
    // The first PUT is still in a slow server's hands when the run dies; it lands a moment later.
    lms.mock.handler = async (req: ApiRequest) => {
      if (req.method === 'PUT' && req.url.includes('/submissions/')) {
        puts.push(req.url);
        if (puts.length === 1) {
          landed = new Promise((resolve) => setTimeout(resolve, 300)).then(() => real(req));
          throw new Error('the run died here');
        }
      }
      return real(req);
    };
    const first = await lms.run(`--timeout 2 grade --course 1 --assignment 1 --csv ${file} --per-row -o json`);
    expect(first.exitCode).not.toBe(0);

    const again = await lms.run(`grade --course 1 --assignment 1 --csv ${file} --per-row -o json`);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/an earlier run stopped with grades on the wire; waiting up to \d s/);
    await landed;
    expect(puts).toHaveLength(1);
    const sam = JSON.parse(
      (await lms.run('submissions get --course 1 --assignment 1 --user 7 --include submission_comments -o json'))
        .stdout,
    ) as { grade: string; submission_comments: { comment: string }[] };
    expect(sam.grade).toBe('18');
    expect(sam.submission_comments.filter((c) => c.comment === 'well argued')).toHaveLength(1);
  });
});

// The server, not a journal, says which grades a file still has to send: a re-run after someone else
// changed the grades sends them again on either path, and a grade the student has resubmitted since
// is not "unchanged" — the same grade sent again grades the new attempt.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session, type Session } from '../helpers/run-lms.js';

const TEACHER = '3~mock-tteacher';
const SAM = { env: { LMS_TOKEN: '7~mock-sam' } };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-grade-rerun-'));
  return {
    dir,
    env: { LMS_TOKEN: TEACHER, LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

/** Grading requests (one PUT a row, or update_grades batches) the mock answers from here on. */
function writes(lms: Session): string[] {
  const calls: string[] = [];
  const real = lms.mock.handler;
  lms.mock.handler = (req: ApiRequest) => {
    if (req.method !== 'GET') calls.push(`${req.method} ${new URL(req.url).pathname}`);
    return real(req);
  };
  return calls;
}

async function submission(lms: Session, assignment: number, user: number) {
  const r = await lms.run(
    `submissions get --course 1 --assignment ${assignment} --user ${user} -o json --fields ` +
      'grade,workflow_state,grade_matches_current_submission,attempt',
    { env: { LMS_TOKEN: TEACHER } },
  );
  return JSON.parse(r.stdout) as {
    grade: string | null;
    workflow_state: string;
    grade_matches_current_submission: boolean;
    attempt: number;
  };
}

const paths = [
  ['the batch path', ''],
  ['the per-row path', ' --per-row'],
] as const;

describe('a re-run compares with the server', () => {
  it.each(paths)('%s: grades another file changed since are sent again', async (_what, flags) => {
    const w = workspace();
    const lms = session(w.env);
    const g = w.file('g.csv', 'user,grade\nsam,18\nsofia,17\n');
    const first = await lms.run(`grade --course 1 --assignment 1 --csv ${g}${flags} -o json`);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(
      (
        await lms.run(
          `grade --course 1 --assignment 1 --csv ${w.file('h.csv', 'user,grade\nsam,10\nsofia,11\n')} -o json`,
        )
      ).exitCode,
    ).toBe(0);
    const sent = writes(lms);
    const again = await lms.run(`grade --course 1 --assignment 1 --csv ${g}${flags} -o json`);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ updated: 2, unchanged: 0, failed: 0 });
    expect(sent.length).toBeGreaterThan(0);
    expect([(await submission(lms, 1, 7)).grade, (await submission(lms, 1, 8)).grade]).toEqual(['18', '17']);
  });

  it.each(paths)('%s: a third run, with nothing changed, sends nothing', async (_what, flags) => {
    const w = workspace();
    const lms = session(w.env);
    const g = w.file('g.csv', 'user,grade\nsam,18\nsofia,17\n');
    for (let run = 0; run < 2; run++)
      expect((await lms.run(`grade --course 1 --assignment 1 --csv ${g}${flags}`)).exitCode).toBe(0);
    const sent = writes(lms);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${g}${flags} -o json`);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, unchanged: 2, failed: 0 });
    expect(sent).toEqual([]);
  });
});

describe('a resubmission after grading', () => {
  it.each(paths)('%s: the same grade in the file grades the new attempt', async (_what, flags) => {
    const w = workspace();
    const lms = session(w.env);
    // Sam's essay was graded B+; he submits a new attempt, which keeps the B+ but no longer matches it.
    expect(
      (await lms.run('submissions submit --course 1 --assignment 3 --url docs.example.edu/v2', SAM)).exitCode,
    ).toBe(0);
    expect(await submission(lms, 3, 7)).toMatchObject({
      grade: 'B+',
      workflow_state: 'submitted',
      grade_matches_current_submission: false,
      attempt: 2,
    });
    const file = w.file('g.csv', 'user,grade\nsam,B+\nsofia,B\n');
    const plan = await lms.run(`grade --course 1 --assignment 3 --csv ${file}${flags} --dry-run -o json`);
    expect((JSON.parse(plan.stdout) as { rows: unknown[] }).rows).toContainEqual(
      expect.objectContaining({ user: 'sam', old_grade: 'B+', new_grade: 'B+', new_attempt: true, status: 'updated' }),
    );
    const r = await lms.run(`grade --course 1 --assignment 3 --csv ${file}${flags} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(
      (JSON.parse(r.stdout) as { rows: { user: string; status: string }[] }).rows.find((x) => x.user === 'sam'),
    ).toMatchObject({ status: 'updated' });
    expect(await submission(lms, 3, 7)).toMatchObject({
      grade: 'B+',
      workflow_state: 'graded',
      grade_matches_current_submission: true,
    });
    // Graded now: the file has nothing left to send for him.
    const again = await lms.run(`grade --course 1 --assignment 3 --csv ${file}${flags} -o json`);
    expect(
      (JSON.parse(again.stdout) as { rows: { user: string; status: string }[] }).rows.find((x) => x.user === 'sam'),
    ).toMatchObject({ status: 'unchanged' });
  });

  it('grade export leaves such a grade out, so an unedited export still changes nothing', async () => {
    const w = workspace();
    const lms = session(w.env);
    expect(
      (await lms.run('submissions submit --course 1 --assignment 3 --url docs.example.edu/v2', SAM)).exitCode,
    ).toBe(0);
    const exported = (await lms.run('grade export --course 1 --assignment 3')).stdout;
    expect(exported.split('\n')).toContain('sis_user_id:S-007,Sam Student,BIO-101 Section A,,');
    const sent = writes(lms);
    const r = await lms.run(`grade --course 1 --assignment 3 --csv ${w.file('e.csv', exported)} -o json`);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, failed: 0 });
    expect(sent).toEqual([]);
    expect(await submission(lms, 3, 7)).toMatchObject({
      workflow_state: 'submitted',
      grade_matches_current_submission: false,
    });
  });
});

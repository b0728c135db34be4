// lms rubrics (list, get, create, update, delete) and grading by rubric: `lms grade --rubric` for one
// student, and `grade --csv` with a column per criterion, checked against the criteria's ranges
// first and read back, against the in-memory mock.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };
const json = (s: string) => JSON.parse(s) as Record<string, unknown>;

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-rubrics-'));
  return {
    env: { ...TEACHER, LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

describe('lms rubrics: associations and assessments', () => {
  it('associates, changes and deletes an association, asking before it deletes', async () => {
    const lms = session(TEACHER);
    const made = await lms.run('rubrics associate 1 --course 1 --assignment 3 --use-for-grading -o json');
    expect(made.stderr).toBe('');
    const link = json(made.stdout).rubric_association as { id: number; use_for_grading: boolean };
    expect(link).toMatchObject({ association_type: 'Assignment', association_id: 3, use_for_grading: true });
    const changed = await lms.run(`rubrics update-association ${link.id} --course 1 --use-for-grading false -o json`);
    expect(json(changed.stdout).rubric_association).toMatchObject({ id: link.id, use_for_grading: false });
    expect((await lms.run(`rubrics update-association ${link.id} --course 1`)).stderr).toContain('nothing to change');
    expect((await lms.run(`rubrics delete-association ${link.id} --course 1 --no-input`)).exitCode).toBe(2);
    const gone = await lms.run(`rubrics delete-association ${link.id} --course 1 --yes -o json`);
    expect(json(gone.stdout)).toMatchObject({ id: link.id });
    expect((await lms.run(`rubrics delete-association ${link.id} --course 1 --yes`)).exitCode).toBe(4);
  });

  it("assesses a student under the rubric's grading association, checking points first", async () => {
    const lms = session(TEACHER);
    const r = await lms.run([
      'rubrics',
      'assess',
      '1',
      '--course',
      '1',
      '--user',
      '9',
      '--score',
      'hypothesis=3',
      '--score',
      'Method=5,Name the control',
      '-o',
      'json',
    ]);
    expect(r.stderr).toBe('');
    const made = json(r.stdout);
    expect(made).toMatchObject({ rubric_association_id: 2, score: 8, assessment_type: 'grading' });
    const graded = await lms.run('submissions get --course 1 --assignment 1 --user 9 -o json --fields score');
    expect(json(graded.stdout)).toEqual({ score: 8 });
    const again = await lms.run(
      `rubrics assess 1 --course 1 --user 9 --score method=1 --assessment ${made.id} -o json`,
    );
    expect(json(again.stdout)).toMatchObject({ id: made.id, score: 1 });
    const outside = await lms.run('rubrics assess 1 --course 1 --user 9 --score method=9');
    expect([outside.exitCode, outside.stderr]).toEqual([2, expect.stringContaining("outside Method's range, 0 to 5")]);
    const unknown = await lms.run('rubrics assess 1 --course 1 --user 9 --score style=1');
    expect([unknown.exitCode, unknown.stderr]).toEqual([2, expect.stringContaining('not a criterion')]);
    expect((await lms.run(`rubrics delete-assessment ${made.id} --course 1 --association 2 --no-input`)).exitCode).toBe(
      2,
    );
    const gone = await lms.run(`rubrics delete-assessment ${made.id} --course 1 --association 2 --yes -o json`);
    expect(json(gone.stdout)).toMatchObject({ id: made.id });
  });

  it('refuses a student assessing (exit 3): the mock has no peer review assignments', async () => {
    const lms = session({ LMS_TOKEN: '7~mock-sam' });
    const r = await lms.run('rubrics assess 1 --course 1 --user 8 --score method=1 --type peer_review --association 2');
    expect(r.exitCode).toBe(3);
  });
});

describe('lms rubrics', () => {
  it('lists, shows with associations and assessments, creates, updates and deletes', async () => {
    const lms = session(TEACHER);
    const listed = await lms.run('rubrics list --course 1 -o json --fields id,title,points_possible');
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: 1, title: 'Lab Report Rubric', points_possible: 20 }]);
    const got = json((await lms.run('rubrics get 1 --course 1 --assessments --associations -o json')).stdout);
    expect((got.associations as unknown[]).length).toBe(2);
    expect(got.assessments).toEqual([expect.objectContaining({ score: 19, data: expect.any(Array) })]);

    const made = await lms.run([
      'rubrics',
      'create',
      '--course',
      '1',
      '--title',
      'Essay',
      '--criterion',
      'Thesis:4:Sharp=4,Blurry=1',
      '--criterion',
      'Sources:6',
      '--assignment',
      '3',
      '--use-for-grading',
      '-o',
      'json',
    ]);
    expect(made.stderr).toBe('');
    const created = json(made.stdout) as {
      rubric: { id: number; points_possible: number; data: { description: string }[] };
    };
    expect(created.rubric.points_possible).toBe(10);
    expect(created.rubric.data.map((c) => c.description)).toEqual(['Thesis', 'Sources']);
    expect(json(made.stdout).rubric_association).toMatchObject({ association_id: 3, use_for_grading: true });

    const updated = await lms.run(`rubrics update ${created.rubric.id} --course 1 --title "Essay (v2)" -o json`);
    expect((json(updated.stdout).rubric as { title: string }).title).toBe('Essay (v2)');

    expect((await lms.run(`rubrics delete ${created.rubric.id} --course 1 --no-input`)).exitCode).toBe(2);
    expect((await lms.run(`rubrics delete ${created.rubric.id} --course 1 --yes -o json`)).exitCode).toBe(0);
    expect(JSON.parse((await lms.run('rubrics list --course 1 -o json --fields id')).stdout)).toEqual([{ id: 1 }]);
  });

  it('shows a write as one row of a table or CSV, with the rubric and its association as columns', async () => {
    const lms = session(TEACHER);
    const line = 'rubrics create --course 1 --title Poster --criterion Layout:4 --assignment 3 --use-for-grading';
    const table = await lms.run(`${line} -o table`);
    expect(table.exitCode).toBe(0);
    const cells = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((l) => l.trimEnd().split(/ {2,}/));
    expect(cells(table.stdout)).toEqual([
      [
        'RUBRIC.ID',
        'RUBRIC.TITLE',
        'RUBRIC.POINTS_POSSIBLE',
        'RUBRIC_ASSOCIATION.ID',
        'RUBRIC_ASSOCIATION.ASSOCIATION_TYPE',
        'RUBRIC_ASSOCIATION.ASSOCIATION_ID',
        'RUBRIC_ASSOCIATION.PURPOSE',
        'RUBRIC_ASSOCIATION.USE_FOR_GRADING',
      ],
      ['2', 'Poster', '4', '3', 'Assignment', '3', 'grading', 'true'],
    ]);
    expect(table.stdout).not.toContain('{');
    // On a terminal the table is the default.
    const tty = await lms.run('rubrics update 2 --course 1 --title "Poster (v2)"', { tty: true });
    expect(tty.stdout).toMatch(/^2 {2,}Poster/m);
    expect(tty.stdout).not.toContain('{');
    const csv = await lms.run('rubrics update 2 --course 1 --title "Poster (v3)" -o csv');
    // An update that names no association answers none.
    expect(csv.stdout.split('\n')[1]).toBe('2,Poster (v3),4,,,,,');
  });

  it.each([
    ['a criterion without points', ['--criterion', 'Thesis'], 'DESCRIPTION:POINTS'],
    ['a rating worth more than its criterion', ['--criterion', 'Thesis:4:Great=5'], 'worth more'],
    ['negative points', ['--criterion', 'Thesis:-1'], 'not a number of points'],
    ['grading flags without an assignment', ['--criterion', 'Thesis:4', '--use-for-grading'], 'go with --assignment'],
  ])('refuses %s, sending nothing', async (_what, flags, message) => {
    const lms = session(TEACHER);
    const r = await lms.run(['rubrics', 'create', '--course', '1', '--title', 'X', ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(JSON.parse((await lms.run('rubrics list --course 1 -o json --fields id')).stdout)).toHaveLength(1);
  });

  it('says a student may not read the course rubrics (exit 3)', async () => {
    const r = await session({ LMS_TOKEN: '7~mock-sam' }).run('rubrics list --course 1');
    expect(r.exitCode).toBe(3);
  });
});

describe('lms grade --rubric', () => {
  it('assesses one student by criterion id or description; the rubric sets the score', async () => {
    const lms = session(TEACHER);
    const r = await lms.run([
      'grade',
      '--course',
      '1',
      '--assignment',
      '1',
      '--user',
      '9',
      '--rubric',
      'hypothesis=4,Name the variables, both of them',
      '--rubric',
      'method=5',
      '--rubric',
      'ANALYSIS=8',
      '-o',
      'json',
    ]);
    expect(r.stderr).toBe('');
    const s = json(r.stdout);
    expect(s.score).toBe(17);
    expect(s.rubric_assessment).toEqual({
      hypothesis: { rating_id: null, points: 4, comments: 'Name the variables, both of them' },
      method: { rating_id: 'met_full', points: 5, comments: null },
      analysis: { rating_id: 'ana_full', points: 8, comments: null },
    });
  });

  it.each([
    ['points above the criterion', 'analysis=11', "outside Analysis's range, 0 to 10"],
    ['an unknown criterion', 'style=2', '"style" is not a criterion'],
    ['no points', 'method=', 'not a number of points'],
    ['no equals sign', 'method', 'CRITERION=POINTS'],
  ])('refuses %s before sending', async (_what, spec, message) => {
    const lms = session(TEACHER);
    const r = await lms.run(['grade', '--course', '1', '--assignment', '1', '--user', '9', '--rubric', spec]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    const held = lms.mock.db.prepare(`SELECT count(*) AS n FROM rubric_assessments WHERE user_id = 9`).get() as {
      n: number;
    };
    expect(held.n).toBe(0);
  });

  it('refuses an assignment without a rubric', async () => {
    const r = await session(TEACHER).run('grade --course 1 --assignment 2 --user 9 --rubric a=1');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('has no rubric');
  });
});

describe('lms grade --csv with rubric columns', () => {
  const csv = [
    'user,name,Hypothesis,hypothesis comments,method,Analysis',
    '9,Ravi Patel,4,Vague,5,8',
    'sis_user_id:S-011,,5,,5,10',
    '',
  ].join('\n');

  it('grades by criterion, reads the assessments back, and a re-run sends nothing', async () => {
    const w = workspace();
    const lms = session(w.env);
    const file = w.file('rubric.csv', csv);
    const dry = await lms.run(`grade --course 1 --assignment 1 --csv ${file} --dry-run -o json`);
    expect(dry.exitCode).toBe(0);
    expect(json(dry.stdout)).toMatchObject({ updated: 2, unchanged: 0, dry_run: true });
    const run = await lms.run(`grade --course 1 --assignment 1 --csv ${file} -o json`);
    expect(run.exitCode).toBe(0);
    const out = json(run.stdout) as { updated: number; rows: { user_id: number; new_score: number; status: string }[] };
    expect(out.updated).toBe(2);
    expect(out.rows.map((r) => [r.user_id, r.new_score, r.status])).toEqual([
      [9, 17, 'updated'],
      [11, 20, 'updated'],
    ]);
    // Read back through the API, as another client would.
    const back = json(
      (await lms.run('submissions get --course 1 --assignment 1 --user 9 --include rubric_assessment -o json')).stdout,
    );
    expect(back.rubric_assessment).toMatchObject({
      hypothesis: { points: 4, comments: 'Vague' },
      analysis: { points: 8 },
    });
    const again = await lms.run(`grade --course 1 --assignment 1 --csv ${file} -o json`);
    expect(json(again.stdout)).toMatchObject({ updated: 0, unchanged: 2, failed: 0 });
  });

  it('checks every cell against its criterion first: nothing is sent', async () => {
    const w = workspace();
    const lms = session(w.env);
    const file = w.file('bad.csv', ['user,hypothesis,analysis', '9,6,8', '12,abc,3', ''].join('\n'));
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${file}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`bad.csv:2: 6 is outside Hypothesis's range, 0 to 5 (hypothesis)`);
    expect(r.stderr).toContain('bad.csv:3: "abc" is not a number of points');
    const held = lms.mock.db.prepare(`SELECT count(*) AS n FROM rubric_assessments WHERE user_id IN (9, 12)`).get() as {
      n: number;
    };
    expect(held.n).toBe(0);
  });
});

// lms grade (one grade, and a CSV: checked whole first, dry run, batches through update_grades or one
// PUT a row, read back, failed rows), lms submissions and lms history, against the in-memory mock.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session, type Session } from '../helpers/run-lms.js';
import { value, values } from '../helpers/sql.js';

const json = (s: string) => JSON.parse(s) as unknown;
const fixture = (name: string) => new URL(`../fixtures/grading/${name}`, import.meta.url).pathname;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-grading-'));
  return {
    dir,
    env: { ...TEACHER, LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

const grades = (lms: Session, assignment: number) =>
  Object.fromEntries(
    (
      lms.mock.db
        .prepare(
          `SELECT user_id, grade FROM submissions WHERE assignment_id = ? AND grade IS NOT NULL ORDER BY user_id`,
        )
        .all(assignment) as { user_id: number; grade: string }[]
    ).map((r) => [r.user_id, r.grade]),
  );
const versionCounts = (lms: Session) =>
  lms.mock.db.prepare(`SELECT submission_id, count(*) AS n FROM submission_versions GROUP BY submission_id`).all() as {
    submission_id: number;
    n: number;
  }[];
const progressCount = (lms: Session) => value(lms.mock.db, `SELECT count(*) FROM progress`) as number;

describe('lms grade (one)', () => {
  it.each([
    [
      'points with a comment',
      'grade --course 1 --assignment 1 --user 9 17 --comment "Solid method"',
      { user_id: 9, grade: '17', score: 17 },
    ],
    [
      'a letter, the student by SIS id',
      'grade --course sis_course_id:BIO-101 --assignment 3 --user sis_user_id:S-009 B+',
      { user_id: 9, grade: 'B+', score: 89 },
    ],
    [
      'pass_fail through a section',
      'grade --section 2 --assignment 2 --user 10 complete',
      { user_id: 10, grade: 'complete', score: 10 },
    ],
    ['the verb named', 'grade set --course 1 --assignment 1 --user 12 50%', { user_id: 12, grade: '10', score: 10 }],
  ])('%s', async (_what, line, expected) => {
    const r = await session(TEACHER).run(`${line} -o json --fields user_id,grade,score`);
    expect(r.stderr).toBe('');
    expect(json(r.stdout)).toEqual(expected);
  });

  it.each([
    ['a terminal', [], true],
    ['-o table', ['-o', 'table'], false],
    ['-o csv', ['-o', 'csv'], false],
  ] as const)('prints the graded submission as one row on %s, not its every field', async (_where, flags, tty) => {
    const r = await session(TEACHER).run(
      ['grade', '--course', '1', '--assignment', '1', '--user', '9', '17', ...flags],
      { tty },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^user_id[ ,]+assignment_id[ ,]+grade[ ,]+score[ ,]+workflow_state[ ,]+graded_at[ ,]+grader_id$/i,
    );
    expect(lines[1]).toMatch(/^9[ ,]+1[ ,]+17[ ,]+17[ ,]+graded[ ,]/);
  });

  it.each([
    ['points', '25', '25 is above the 20 points possible of assignment 1', 25],
    ['a percentage', '110%', '110% (22 points) is above the 20 points possible of assignment 1', 22],
  ])(
    'warns of a score above points possible (%s), and grades it: Canvas keeps extra credit',
    async (_what, given, warning, score) => {
      const lms = session(TEACHER);
      const r = await lms.run(`grade --course 1 --assignment 1 --user 9 ${given} -o json --fields score`);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe(`warning: ${warning} (Canvas keeps it, as extra credit)\n`);
      expect(json(r.stdout)).toEqual({ score });
      const dry = await lms.run(`grade --section 1 --assignment 1 --user 9 ${given} --dry-run -o json`);
      expect(dry.stderr).toContain(`warning: ${warning}`);
      expect(
        json((await lms.run('grade --course 1 --assignment 1 --user 9 20 -o json --fields score')).stdout),
      ).toEqual({ score: 20 });
    },
  );

  it("shows one grade's request with --dry-run, and sends nothing", async () => {
    const lms = session(TEACHER);
    const r = await lms.run('grade --course 1 --assignment 1 --user sam 18 --dry-run -o json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      dry_run: true,
      requests: [{ method: 'PUT', body: [['submission[posted_grade]', '18']] }],
    });
    expect(
      JSON.parse((await lms.run('submissions get --course 1 --assignment 1 --user sam --fields grade -o json')).stdout),
    ).toEqual({ grade: '19' });
  });

  it.each([
    ['no context', 'grade --assignment 1 --user 9 17', 2, 'give one of --course or --section'],
    ['no student', 'grade --course 1 --assignment 1 17', 2, 'give --assignment and --user'],
    ['no grade nor comment', 'grade --course 1 --assignment 1 --user 9', 2, 'give the grade'],
    [
      '--per-row without --csv',
      'grade --course 1 --assignment 1 --user 9 17 --per-row',
      2,
      '--per-row goes with --csv',
    ],
    [
      'a letter on a points assignment',
      'grade --course 1 --assignment 1 --user 9 B',
      5,
      'is not a grade for a points assignment',
    ],
    [
      'a section-limited TA and a student of another section',
      'grade --course 1 --assignment 1 --user 9 17',
      3,
      'not authorized',
    ],
  ])('refuses %s', async (what, line, code, message) => {
    const env = what.startsWith('a section-limited') ? { LMS_TOKEN: '5~mock-tara' } : TEACHER;
    const r = await session(env).run(line);
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
  });
});

describe('lms grade --csv', () => {
  it('checks the whole file first: every problem with its line, and nothing sent', async () => {
    const lms = session(TEACHER);
    const before = versionCounts(lms);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('bad.csv')}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('has 3 problems; nothing was sent');
    expect(r.stderr).toContain(`bad.csv:3: "A" is not a grade for a points assignment`);
    expect(r.stderr).toContain(`bad.csv:5: user "nobody" not found`);
    expect(r.stderr).toContain(`bad.csv:6: user "ravi" is graded on line 4 already`);
    expect(versionCounts(lms)).toEqual(before);
    expect(progressCount(lms)).toBe(1);
  });

  it.each([
    ['an unknown column', 'user,grade,points\nsam,1,2\n', 'unknown column "points"'],
    ['a missing grade column', 'user,comment\nsam,hi\n', 'missing required column grade'],
    ['an empty user', 'user,grade\n,17\n', ':2: user is empty'],
    ['a pass_fail value in between', null, 'takes only 0 or 10'],
  ])('refuses %s', async (what, text, message) => {
    const w = workspace();
    const lms = session(w.env);
    const assignment = text === null ? 2 : 1;
    const r = await lms.run(
      `grade --course 1 --assignment ${assignment} --csv ${w.file('g.csv', text ?? 'user,grade\nsam,5\n')}`,
    );
    expect([r.exitCode, what]).toEqual([2, what]);
    expect(r.stderr).toContain(message);
  });

  it('shows a dry run as the run would report it, old grade → new grade, and sends nothing', async () => {
    const lms = session(TEACHER);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --dry-run -o json`);
    expect(r.exitCode).toBe(0);
    // Lucas resubmitted after his 20: the same grade grades the new attempt, so it is a change.
    expect(JSON.parse(r.stderr)).toEqual({ summary: 'Dry run: 5 grades to change, 1 unchanged. Nothing was sent.' });
    expect(json(r.stdout)).toEqual({
      updated: 5,
      unchanged: 1,
      failed: 0,
      dry_run: true,
      rows: [
        { line: 2, user: 'sam', user_id: 7, assignment_id: 1, old_grade: '19', new_grade: '19', status: 'unchanged' },
        {
          line: 3,
          user: 'sis_user_id:S-008',
          user_id: 8,
          assignment_id: 1,
          old_grade: '15',
          new_grade: '16',
          comment: 'Label the axes',
          status: 'updated',
        },
        { line: 4, user: '9', user_id: 9, assignment_id: 1, old_grade: null, new_grade: '18', status: 'updated' },
        {
          line: 5,
          user: 'sis_login_id:mina',
          user_id: 10,
          assignment_id: 1,
          old_grade: null,
          new_grade: '15',
          status: 'updated',
        },
        {
          line: 6,
          user: 'lucas',
          user_id: 11,
          assignment_id: 1,
          old_grade: '20',
          new_grade: '20',
          new_attempt: true,
          status: 'updated',
        },
        { line: 7, user: 'hana', user_id: 12, assignment_id: 1, old_grade: null, new_grade: '20', status: 'updated' },
      ],
    });
    expect(progressCount(lms)).toBe(1);
    // On a terminal, the changes alone.
    const tty = await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --dry-run`, {
      tty: true,
    });
    expect(tty.stderr).toContain('Dry run: 5 grades to change, 1 unchanged (not shown). Nothing was sent.');
    expect(
      tty.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['3', '4', '5', '6', '7']);
  });

  it('grades through update_grades, reads every row back, and a re-run changes nothing', async () => {
    const lms = session(TEACHER);
    const r = await lms.run(
      `grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --batch-size 2 -o json`,
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stderr)).toEqual({
      summary: expect.stringMatching(/^Graded 6 grades in \d+\.\d s: 5 updated, 1 unchanged, 0 failed\.$/),
    });
    const result = json(r.stdout) as {
      updated: number;
      rows: { line: number; status: string; old_grade: string | null; new_grade: string | null }[];
    };
    expect(result.rows.map((x) => [x.line, x.status])).toEqual([
      [2, 'unchanged'],
      [3, 'updated'],
      [4, 'updated'],
      [5, 'updated'],
      [6, 'updated'],
      [7, 'updated'],
    ]);
    expect(grades(lms, 1)).toEqual({ 7: '19', 8: '16', 9: '18', 10: '15', 11: '20', 12: '20' });
    // Three batches of two rows or fewer: three Progresses beside the seeded one.
    expect(progressCount(lms)).toBe(4);
    const comment = values(
      lms.mock.db,
      'SELECT comment FROM submission_comments c JOIN submissions s ON s.id = c.submission_id WHERE s.user_id = 8 ' +
        'AND s.assignment_id = 1',
    );
    expect(comment).toEqual(['Label the axes']);
    const versionsAfter = versionCounts(lms);
    const again = await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} -o json`);
    expect(again.stderr).toMatch(/: 0 updated, 6 unchanged, 0 failed\./);
    expect(versionCounts(lms)).toEqual(versionsAfter);
    expect(progressCount(lms)).toBe(4);
  });

  it('fails a row whose grade the server did not keep, says what it kept, and writes it to --failed-out', async () => {
    const w = workspace();
    const lms = session(w.env);
    // A server that quietly drops Ravi's grade from every batch.
    const real = lms.mock.handler;
    lms.mock.handler = (req: ApiRequest) =>
      real(
        typeof req.body === 'string' && req.url.includes('update_grades')
          ? { ...req, body: req.body.replace(/grade_data%5B9%5D%5Bposted_grade%5D=18&?/, '') }
          : req,
      );
    const failedOut = join(w.dir, 'failed.csv');
    const r = await lms.run(
      `grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --failed-out ${failedOut} -o json`,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('4 updated, 1 unchanged, 1 failed');
    expect(JSON.parse(r.stderr)).toMatchObject({
      message: '1 of 6 grades failed',
      attention: [{ line: 4, user: '9', assignment_id: 1, status: 'failed', error: 'the server kept null' }],
      failed_out: failedOut,
    });
    expect(readFileSync(failedOut, 'utf8')).toBe('user,grade,comment,error\n9,18,,the server kept null\n');
    // The failed-rows file grades as it is, once the server behaves.
    lms.mock.handler = real;
    const retry = await lms.run(`grade --course 1 --assignment 1 --csv ${failedOut} -o json`);
    expect(retry.exitCode).toBe(0);
    expect(grades(lms, 1)[9]).toBe('18');
  });

  it('resends a batch the server never answered, once the grades are read back', async () => {
    const lms = session(TEACHER);
    const real = lms.mock.handler;
    let failures = 1;
    lms.mock.handler = async (req: ApiRequest) =>
      req.url.includes('update_grades') && failures-- > 0
        ? { status: 502, headers: {}, body: 'Bad Gateway' }
        : real(req);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} -o json`);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('5 grades not confirmed; sending them again');
    expect(r.stderr).toContain('5 updated, 1 unchanged, 0 failed');
    expect(grades(lms, 1)).toMatchObject({ 8: '16', 9: '18', 10: '15', 11: '20', 12: '20' });
  });

  it('cuts batches by size as well as by rows, so long comments stay under request limits', async () => {
    const w = workspace();
    const lms = session(w.env);
    const long = 'x'.repeat(200_000);
    const file = w.file('long.csv', `user,grade,comment\nsam,20,${long}\nsofia,20,${long}\nravi,20,${long}\n`);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${file} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ updated: 3, failed: 0 });
    // 3 rows of 200 KB each: two requests (two rows, then one), not one of 600 KB.
    expect(progressCount(lms)).toBe(3);
  });

  it('grades one PUT a row with --per-row, and a second run skips what its journal recorded', async () => {
    const w = workspace();
    const lms = session(w.env);
    const calls: string[] = [];
    const real = lms.mock.handler;
    lms.mock.handler = (req: ApiRequest) => {
      calls.push(`${req.method} ${new URL(req.url).pathname}`);
      return real(req);
    };
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --per-row -o json`);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('(one request a row): 5 updated, 1 unchanged, 0 failed');
    expect(calls.filter((c) => c.startsWith('PUT'))).toHaveLength(5);
    expect(calls.some((c) => c.includes('update_grades'))).toBe(false);
    expect(grades(lms, 1)).toEqual({ 7: '19', 8: '16', 9: '18', 10: '15', 11: '20', 12: '20' });
    calls.length = 0;
    expect(
      (await lms.run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --per-row -o json`)).exitCode,
    ).toBe(0);
    expect(calls.filter((c) => c.startsWith('PUT'))).toHaveLength(0);
  });

  it('grades through a section: only its students, as the limited TA sees them', async () => {
    const w = workspace();
    const lms = session({ ...w.env, LMS_TOKEN: '5~mock-tara' });
    const outside = await lms.run(
      'grade --section sis_section_id:BIO-101-A --assignment 1 --csv ' +
        `${w.file('a.csv', 'user,grade\nsam,18\nravi,12\n')}`,
    );
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('a.csv:3: user "ravi" is not a student here');
    const r = await lms.run(
      'grade --section sis_section_id:BIO-101-A --assignment 1 --csv ' +
        `${w.file('b.csv', 'user,grade\nsam,18\nlucas,19\n')} -o json`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ updated: 2, failed: 0 });
    expect(grades(lms, 1)).toMatchObject({ 7: '18', 11: '19' });
    expect(
      values(
        lms.mock.db,
        `SELECT DISTINCT grader_id FROM submission_versions WHERE graded_at = '2026-11-02T12:00:00.000Z'`,
      ),
    ).toEqual([5]);
  });

  it('takes a gradebook export with a column per assignment (by id or name)', async () => {
    const lms = session(TEACHER);
    const r = await lms.run(`grade --course 1 --csv ${fixture('gradebook.csv')} -o csv`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'line,user,assignment_id,old_grade,new_grade,status,error',
      '2,sam,1,19,20,updated,',
      '2,sam,3,B+,A-,updated,',
      '3,sofia,1,15,17,updated,',
      '3,sofia,2,incomplete,incomplete,unchanged,',
      '4,ravi,2,,complete,updated,',
      '4,ravi,3,,C+,updated,',
    ]);
    expect([grades(lms, 1)[7], grades(lms, 3)[7], grades(lms, 2)[9], grades(lms, 3)[9]]).toEqual([
      '20',
      'A-',
      'complete',
      'C+',
    ]);
  });

  it(
    'warns once for each row scoring above points possible, ' + 'naming its line and assignments, and grades it',
    async () => {
      const w = workspace();
      const lms = session(w.env);
      const file = w.file('gb.csv', 'user,1,3\nsam,25,110%\nsofia,18,\nravi,21,\nmina,20,100%\n');
      const r = await lms.run(`grade --course 1 --csv ${file}`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
        `warning: ${file}:2: 25 is above the 20 points possible of assignment 1; 110% (110 points) is above the 100 ` +
          'points possible of assignment 3 (Canvas keeps it, as extra credit)',
        `warning: ${file}:4: 21 is above the 20 points possible of assignment 1 (Canvas keeps it, as extra credit)`,
      ]);
      expect([grades(lms, 1)[7], grades(lms, 3)[7], grades(lms, 1)[9]]).toEqual(['25', 'A', '21']);
      // A grade the server holds already is sent no more, and said no more.
      const again = await lms.run(`grade --course 1 --csv ${file} --dry-run`);
      expect(again.stderr).not.toContain('warning:');
    },
  );

  it.each([
    ['a column that is no assignment', 'user,1,Homework 9\nsam,1,2\n', '"homework 9" is not an assignment of course 1'],
    [
      'a grade wrong for its column',
      'user,2\nsam,7\n',
      ':2: a pass_fail assignment takes only 0 or 10 (complete or incomplete), not "7" (2)',
    ],
  ])('refuses a gradebook with %s', async (_what, text, message) => {
    const w = workspace();
    const r = await session(w.env).run(`grade --course 1 --csv ${w.file('gb.csv', text)}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('draws a progress bar and prints only the summary on a terminal', async () => {
    const r = await session(TEACHER).run(`grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')}`, {
      tty: true,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('grading ');
    expect(r.stderr).toContain('5 updated, 1 unchanged, 0 failed');
  });
});

describe('lms submissions', () => {
  it('lists, gets, submits and comments', async () => {
    const lms = session();
    expect(
      json(
        (await lms.run('submissions list --course 1 --assignment 1 -o json --fields user_id,workflow_state')).stdout,
      ),
    ).toEqual([
      { user_id: 7, workflow_state: 'graded' },
      { user_id: 8, workflow_state: 'graded' },
      { user_id: 9, workflow_state: 'submitted' },
      { user_id: 10, workflow_state: 'unsubmitted' },
      { user_id: 11, workflow_state: 'submitted' },
      { user_id: 12, workflow_state: 'unsubmitted' },
    ]);
    const SAM = { env: { LMS_TOKEN: '7~mock-sam' } };
    expect(
      json((await lms.run('submissions list --course 1 -o json --fields assignment_id,grade', SAM)).stdout),
    ).toEqual([
      { assignment_id: 1, grade: '19' },
      { assignment_id: 2, grade: 'complete' },
      { assignment_id: 3, grade: 'B+' },
    ]);
    const submitted = await lms.run(
      'submissions submit --course 1 --assignment 3 --url docs.example.edu/v2 --comment "Revised" -o json --fields ' +
        'attempt,url,submission_type',
      SAM,
    );
    expect(json(submitted.stdout)).toEqual({
      attempt: 2,
      url: 'http://docs.example.edu/v2',
      submission_type: 'online_url',
    });
    const got = await lms.run(
      'submissions get --course 1 --assignment 3 --user 7 --include submission_comments -o json',
    );
    expect(
      (json(got.stdout) as { submission_comments: { comment: string }[] }).submission_comments.map((c) => c.comment),
    ).toEqual(['A clear argument; cite the Mendel paper directly.', 'Revised']);
    const commented = await lms.run(
      'submissions comment --course 1 --assignment 3 --user 7 "Much better" -o json --fields author_id,comment',
      { env: TEACHER },
    );
    expect(json(commented.stdout)).toEqual({ author_id: 3, comment: 'Much better' });
    const grouped = await lms.run(
      'submissions list --course 1 --all-students --grouped --totals -o json --fields user_id,computed_current_score',
    );
    expect((json(grouped.stdout) as unknown[])[0]).toEqual({ user_id: 7, computed_current_score: 90.77 });
  });

  it.each([
    ["an assignment's", 'submissions list --course 1 --assignment 1', '7        Sam Student    1 '],
    ["a student's, across assignments", 'submissions list --course 1 --user 9', '9        Ravi Patel  1 '],
  ])(
    'names the student in a table of %s submissions, and JSON gains the record include[]=user adds',
    async (_what, line, row) => {
      const lms = session(TEACHER);
      const table = await lms.run(`${line} -o table`);
      expect(table.stdout.split('\n')[0]).toMatch(/^USER_ID +USER\.NAME +ASSIGNMENT_ID /);
      expect(table.stdout).toContain(row);
      const listed = json((await lms.run(`${line} -o json`)).stdout) as Record<string, unknown>[];
      expect(listed[0]).toMatchObject({
        user_id: Number(row.split(' ')[0]),
        assignment_id: 1,
        user: { id: Number(row.split(' ')[0]), name: row.split(/ {2,}/)[1] },
      });
      expect(Object.keys(listed[0])).toEqual(
        expect.arrayContaining(['id', 'user_id', 'grade', 'score', 'workflow_state', 'user']),
      );
    },
  );

  it.each([
    ['a student', 'submissions list --course 1 --assignment 1', { env: { LMS_TOKEN: '7~mock-sam' } }],
    ['an admin acting as a student', 'submissions list --section 1 --assignment 1 --as-user 7', {}],
  ])("tells %s listing every student's submission of an assignment how to list their own", async (_who, line, as) => {
    const lms = session();
    const r = await lms.run(line, as);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    const own = `${line.replace(/ --as-user 7$/, '')} --user self`;
    expect(r.stderr).toContain(own);
    const mine = await lms.run(
      `${own}${line.endsWith('--as-user 7') ? ' --as-user 7' : ''} -o json --fields user_id,assignment_id,grade`,
      as,
    );
    expect(mine.exitCode).toBe(0);
    expect(json(mine.stdout)).toEqual([{ user_id: 7, assignment_id: 1, grade: '19' }]);
  });

  it('leaves a refused token its own advice, not the grader-list hint', async () => {
    const r = await session().run('submissions list --course 1 --assignment 1', {
      env: { LMS_TOKEN: '7~not-a-token' },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('LMS_TOKEN is not a token of the mock');
    expect(r.stderr).not.toContain('--user self');
  });

  it('submits a file and text from a file', async () => {
    const w = workspace();
    const lms = session();
    const r = await lms.run(
      `submissions submit --course 1 --assignment 1 --file ${w.file('cells.txt', 'onion')} -o json --fields ` +
        'submission_type,attachments',
      { env: { LMS_TOKEN: '9~mock-ravi' } },
    );
    expect(json(r.stdout)).toMatchObject({
      submission_type: 'online_upload',
      attachments: [{ display_name: 'cells.txt', size: 5 }],
    });
    const t = await lms.run(`submissions submit --course 1 --assignment 1 --text-file - -o json --fields body`, {
      env: { LMS_TOKEN: '9~mock-ravi' },
      stdin: '<b>bold</b><script>x</script>',
    });
    expect(json(t.stdout)).toEqual({ body: '<b>bold</b>' });
  });

  it.each([
    [
      'two kinds at once',
      'submissions submit --course 1 --assignment 1 --text a --url b',
      'give exactly one of --text, --text-file, --url, --file or --media-id, not --text and --url',
    ],
    ['none', 'submissions submit --course 1 --assignment 1', 'give exactly one of'],
    [
      'a missing file',
      'submissions submit --course 1 --assignment 1 --file /nonexistent/x.pdf',
      'no such file: /nonexistent/x.pdf',
    ],
    [
      '--totals without --grouped',
      'submissions list --course 1 --all-students --totals',
      '--totals goes with --grouped',
    ],
    [
      'an empty comment',
      'submissions comment --course 1 --assignment 1 --user 7',
      'give the comment text, or --media-id',
    ],
  ])('refuses %s', async (_what, line, message) => {
    const r = await session().run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('lms history', () => {
  it("shows days, a day, a grader's versions and the feed", async () => {
    const lms = session(TEACHER);
    expect((await lms.run('history days --course 1 -o csv')).stdout.split('\n').slice(0, 3)).toEqual([
      'date,grader_id,grader,assignments',
      '2026-10-21,3,Tess Teacher,Genetics Essay',
      '2026-09-18,3,Tess Teacher,Cell Structure Lab Report',
    ]);
    expect(json((await lms.run('history day 2026-09-16 --course 1 -o json --fields id,name')).stdout)).toEqual([
      { id: 3, name: 'Tess Teacher' },
      { id: 5, name: 'Tara Assistant' },
    ]);
    expect(
      (await lms.run('history submissions 2026-09-18 --course 1 --grader 3 --assignment 1 -o csv')).stdout
        .split('\n')
        .slice(0, 2),
    ).toEqual([
      'submission_id,user_id,user_name,previous_grade,new_grade,new_graded_at,new_grader',
      '1,7,Sam Student,18,19,2026-09-18T15:30:00Z,Tess Teacher',
    ]);
    const feed = await lms.run('history feed --course 1 --assignment 1 -o ndjson --fields user_id,grade');
    expect(
      feed.stdout
        .trim()
        .split('\n')
        .map((l) => json(l)),
    ).toEqual([
      { user_id: 7, grade: '19' },
      { user_id: 11, grade: '20' },
      { user_id: 8, grade: '15' },
      { user_id: 7, grade: '18' },
    ]);
    const since = await lms.run('history feed --course 1 --since 2026-09-17 -o json --fields grade');
    expect(json(since.stdout)).toEqual([{ grade: 'B+' }, { grade: '19' }, { grade: '20' }]);
    const up = await lms.run('history feed --course 1 --ascending --since 2026-09-17 --limit 2 -o json --fields grade');
    expect(json(up.stdout)).toEqual([{ grade: '20' }, { grade: '19' }]);
  });

  it.each([
    ['a date in another form', 'history day 16/09/2026 --course 1', 'DATE must be a date as YYYY-MM-DD'],
    ['a bad --since', 'history feed --course 1 --since soon', '--since must be a date'],
    ['a non-numeric --user', 'history feed --course 1 --user sam', '--user must be a numeric id'],
  ])('refuses %s', async (_what, line, message) => {
    const r = await session(TEACHER).run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('needs manage_grades: a student gets exit 3', async () => {
    const r = await session({ LMS_TOKEN: '7~mock-sam' }).run('history days --course 1');
    expect(r.exitCode).toBe(3);
  });
});

describe('the separators spreadsheets write', () => {
  const comma = readFileSync(fixture('lab-report.csv'), 'utf8');
  it.each([
    ['";" (a European locale\'s CSV)', ';'],
    ['a tab ("Unicode Text", TSV)', '\t'],
  ])('grade --csv reads a file separated by %s as the comma one', async (_what, separator) => {
    const w = workspace();
    // Each field quoted, so a comment's own comma stays in its field whatever the separator.
    const rewritten = comma
      .trim()
      .split('\n')
      .map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).join(separator))
      .join('\r\n');
    const expected = await session(w.env).run(
      `grade --course 1 --assignment 1 --csv ${fixture('lab-report.csv')} --dry-run -o json`,
    );
    const r = await session(w.env).run(
      `grade --course 1 --assignment 1 --csv ${w.file('grades.csv', `\uFEFF${rewritten}\r\n`)} --dry-run -o json`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual(json(expected.stdout));
  });

  it.each([
    [';', '";"'],
    ['\t', 'a tab'],
    [',', '","'],
  ])('with -v, grade --csv says it read the file as separated by %j', async (separator, said) => {
    const w = workspace();
    const path = w.file('grades.csv', `user${separator}grade\nsam${separator}19\n`);
    const verbose = await session(w.env).run([
      '-v',
      'grade',
      '--course',
      '1',
      '--assignment',
      '1',
      '--csv',
      path,
      '--dry-run',
      '-o',
      'json',
    ]);
    expect(verbose.exitCode, verbose.stderr).toBe(0);
    expect(verbose.stderr.split('\n').filter((l) => l.includes('separated by'))).toEqual([
      `${path}: fields separated by ${said}, lines ending in LF, UTF-8`,
    ]);
    const quiet = await session(w.env).run([
      'grade',
      '--course',
      '1',
      '--assignment',
      '1',
      '--csv',
      path,
      '--dry-run',
      '-o',
      'json',
    ]);
    expect(quiet.stderr).not.toContain('separated by');
  });

  it('users import reads a ";" file, and a comma in a field of it stays in the field', async () => {
    const w = workspace();
    const lms = session(w.env);
    const r = await lms.run(
      ['users', 'import', w.file('u.csv', 'name;login_id\n"Moreau, Lucas";lucas.m2\n'), '--account', '1', '-o', 'json'],
      { env: { LMS_TOKEN: '1~mock-admin' } },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(value(lms.mock.db, `SELECT count(*) FROM users WHERE name = 'Moreau, Lucas'`)).toBe(1);
  });
});

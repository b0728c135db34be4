// Grading: posted_grade in every format, the pass_fail rule, letter schemes (default and custom),
// who may grade whom, comments and rubric assessments, a version per change of grade, and batch
// grading through update_grades, which runs as a job behind a Progress.
import { describe, expect, it } from 'vitest';
import { interpretGrade, letterToPercent, DEFAULT_GRADING_SCHEME } from '../../src/spec/grading.js';
import { clientFor, collect, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

const versions = (mock: ReturnType<typeof freshMock>, assignment: number, user: number) =>
  value(
    mock.db,
    `SELECT count(*) FROM submission_versions WHERE assignment_id = ? AND user_id = ?`,
    assignment,
    user,
  ) as number;

describe('posted_grade', () => {
  it.each([
    // assignment, posted, score, grade
    ['points: a number', 1, '17.5', 17.5, '17.5'],
    ['points: above points_possible', 1, '23', 23, '23'],
    ['points: a percentage of points_possible', 1, '90%', 18, '18'],
    ['points: pass', 1, 'pass', 20, '20'],
    ['points: incomplete', 1, 'incomplete', 0, '0'],
    ['pass_fail: complete', 2, 'complete', 10, 'complete'],
    ['pass_fail: full points', 2, '10', 10, 'complete'],
    ['pass_fail: fail', 2, 'fail', 0, 'incomplete'],
    ['pass_fail: 0%', 2, '0%', 0, 'incomplete'],
    ['letter (default scheme): the top letter', 3, 'A', 100, 'A'],
    ['letter (default scheme): the top of B+', 3, 'b+', 89, 'B+'],
    ['letter (default scheme): points give their letter', 3, '85', 85, 'B'],
    ['letter (default scheme): a percentage', 3, '72.5%', 72.5, 'C-'],
    ['percent: points shown as a percentage', 5, '42', 42, '42%'],
    ['percent: above 100%', 5, '110%', 110, '110%'],
  ] as const)('%s', async (_what, assignment, posted, score, grade) => {
    const mock = freshMock();
    const course = assignment === 5 ? 3 : 1;
    const user = assignment === 5 ? 11 : 9;
    const teacher = clientFor(mock, assignment === 5 ? TOKENS.otherTeacher : TOKENS.teacher);
    const s = await teacher.ops.submissions.grade({
      course_id: course,
      assignment_id: assignment,
      user_id: user,
      submission: { posted_grade: posted },
    });
    expect({ score: s.score, grade: s.grade, workflow_state: s.workflow_state, grader_id: s.grader_id }).toEqual({
      score,
      grade,
      workflow_state: 'graded',
      grader_id: assignment === 5 ? 4 : 3,
    });
  });

  it('takes letters of a custom scheme, and only those', async () => {
    const mock = freshMock();
    const theo = clientFor(mock, TOKENS.otherTeacher);
    const s = await theo.ops.submissions.grade({
      course_id: 3,
      assignment_id: 8,
      user_id: 12,
      submission: { posted_grade: 'C' },
    });
    // C's range is 70–79.99: its top is 79 points of 100.
    expect([s.score, s.grade]).toEqual([79, 'C']);
    expect(
      (
        await theo.ops.submissions.grade({
          course_id: 3,
          assignment_id: 8,
          user_id: 12,
          submission: { posted_grade: '91' },
        })
      ).grade,
    ).toBe('A');
    const refused = await theo.ops.submissions
      .grade({ course_id: 3, assignment_id: 8, user_id: 12, submission: { posted_grade: 'B+' } })
      .catch((e: Error & { status: number; body?: unknown }) => e);
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.message).toContain('"B+" is not a grade of this assignment\'s scheme (A, B, C, D, F)');
    const assignment = await theo.ops.assignments.get({ course_id: 3, id: 8 });
    expect(assignment.grading_scheme).toEqual([
      { name: 'A', value: 0.9 },
      { name: 'B', value: 0.8 },
      { name: 'C', value: 0.7 },
      { name: 'D', value: 0.6 },
      { name: 'F', value: 0 },
    ]);
  });

  it.each([
    ['a letter on a points assignment', 1, 'B', 'is not a grade for a points assignment'],
    ['a pass_fail score that is neither 0 nor full marks', 2, '5', 'takes only 0 or 10'],
    ['a pass_fail percentage in between', 2, '50%', 'takes only 0 or 10'],
    ['a grade on a not-graded assignment', 7, '5', 'not graded'],
    ['words', 1, 'excellent', 'is not a grade for a points assignment'],
  ] as const)('refuses %s with a 400 and changes nothing', async (_what, assignment, posted, message) => {
    const mock = freshMock();
    const [course, user, token] = assignment === 7 ? [3, 11, TOKENS.otherTeacher] : [1, 7, TOKENS.teacher];
    const teacher = clientFor(mock, token);
    const before = await teacher.ops.submissions.get({ course_id: course, assignment_id: assignment, user_id: user });
    const err = await teacher.ops.submissions
      .grade({ course_id: course, assignment_id: assignment, user_id: user, submission: { posted_grade: posted } })
      .catch((e: Error & { status: number }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toContain(message);
    expect(await teacher.ops.submissions.get({ course_id: course, assignment_id: assignment, user_id: user })).toEqual(
      before,
    );
  });

  it("puts letters at the high end of their range (real instances' rule)", () => {
    expect(DEFAULT_GRADING_SCHEME.map((e) => letterToPercent(DEFAULT_GRADING_SCHEME, e.name))).toEqual([
      100, 93, 89, 86, 83, 79, 76, 73, 69, 66, 63, 60,
    ]);
    expect(interpretGrade({ grading_type: 'gpa_scale', points_possible: 4 }, 'A-')).toEqual({
      score: 3.72,
      grade: 'A-',
    });
    expect(interpretGrade({ grading_type: 'points', points_possible: 10 }, '')).toEqual({ score: null, grade: null });
  });
});

describe('who grades', () => {
  it.each([
    ['the teacher', TOKENS.teacher, 9, 'ok'],
    ['an admin', TOKENS.admin, 9, 'ok'],
    ['the TA limited to section A, a student of A', TOKENS.ta, 8, 'ok'],
    ['the TA limited to section A, a student of B', TOKENS.ta, 9, 401],
    ['a student, themselves', TOKENS.student, 7, 401],
    ['the observer', TOKENS.observer, 7, 401],
    ['a teacher of another course', TOKENS.otherTeacher, 9, 401],
  ] as const)('%s', async (_who, token, user, expected) => {
    const mock = freshMock();
    expect(
      await statusOf(
        clientFor(mock, token).ops.submissions.grade({
          course_id: 1,
          assignment_id: 1,
          user_id: user,
          submission: { posted_grade: '12' },
        }),
      ),
    ).toBe(expected);
  });

  it('grades through a section only its students', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    expect(
      await statusOf(
        teacher.ops.submissions.grade({
          section_id: 2,
          assignment_id: 1,
          user_id: 9,
          submission: { posted_grade: '12' },
        }),
      ),
    ).toBe('ok');
    expect(
      await statusOf(
        teacher.ops.submissions.grade({
          section_id: 2,
          assignment_id: 1,
          user_id: 7,
          submission: { posted_grade: '12' },
        }),
      ),
    ).toBe(404);
  });
});

describe('comments, rubric, excuse and versions', () => {
  it('adds text and media comments (a student may comment on their own)', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const s = await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      comment: { text_comment: 'See me', media_comment_id: 'm-9', media_comment_type: 'audio' },
    });
    expect(s.submission_comments!.at(-1)).toMatchObject({
      author_id: 3,
      comment: 'See me',
      media_comment: { media_id: 'm-9', media_type: 'audio' },
    });
    expect(s.all_submissions).toHaveLength(1);
    // A comment alone changes no grade and writes no version.
    expect(versions(mock, 1, 9)).toBe(0);
    const ravi = clientFor(mock, '9~mock-ravi');
    expect(
      (
        await ravi.ops.submissions.grade({
          course_id: 1,
          assignment_id: 1,
          user_id: 'self',
          comment: { text_comment: 'Will do' },
        })
      ).submission_comments!.at(-1)!.author_id,
    ).toBe(9);
    expect(
      await statusOf(
        ravi.ops.submissions.grade({
          course_id: 1,
          assignment_id: 1,
          user_id: 'self',
          submission: { posted_grade: '20' },
        }),
      ),
    ).toBe(401);
  });

  it('scores a rubric assessment per criterion, and refuses unknown criteria', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const s = await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      include: ['rubric_assessment'],
      rubric_assessment: {
        hypothesis: { points: 4, comments: 'Vague' },
        method: { points: 5 },
        analysis: { points: 8 },
      },
    });
    expect([s.score, s.grade]).toEqual([17, '17']);
    expect(s.rubric_assessment).toEqual({
      hypothesis: { rating_id: null, points: 4, comments: 'Vague' },
      method: { rating_id: 'met_full', points: 5, comments: null },
      analysis: { rating_id: 'ana_full', points: 8, comments: null },
    });
    const bad = await teacher.ops.submissions
      .grade({ course_id: 1, assignment_id: 1, user_id: 9, rubric_assessment: { style: { points: 2 } } })
      .catch((e: Error & { status: number }) => e);
    expect(bad).toMatchObject({ status: 400, message: expect.stringContaining('invalid rubric_assessment') });
  });

  it('excuses, and refuses to grade and excuse at once', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    expect(
      await teacher.ops.submissions.grade({
        course_id: 1,
        assignment_id: 1,
        user_id: 10,
        submission: { excuse: true },
      }),
    ).toMatchObject({ excused: true, score: null, workflow_state: 'graded' });
    const both = await teacher.ops.submissions
      .grade({ course_id: 1, assignment_id: 1, user_id: 10, submission: { excuse: true, posted_grade: '5' } })
      .catch((e: Error & { status: number }) => e);
    expect(both).toMatchObject({
      status: 400,
      message: expect.stringContaining('Cannot simultaneously grade and excuse'),
    });
  });

  it('writes one version per change of grade, none for the same grade again', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    expect(versions(mock, 1, 9)).toBe(0);
    for (const g of ['12', '12', '60%', '13'])
      await teacher.ops.submissions.grade({
        course_id: 1,
        assignment_id: 1,
        user_id: 9,
        submission: { posted_grade: g },
      });
    // 12, (12 again: nothing), 60% = 12 (nothing), 13
    expect(versions(mock, 1, 9)).toBe(2);
  });
});

describe('update_grades', () => {
  it('grades many students as a job: queued, then completed, each grade a version', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const p = await teacher.ops.grading.updateGrades({
      course_id: 'sis_course_id:BIO-101',
      assignment_id: 1,
      grade_data: {
        9: { posted_grade: '14', text_comment: 'Batch' },
        'sis_user_id:S-010': { posted_grade: '50%' },
        7: { posted_grade: '19' },
      },
    });
    expect(p).toMatchObject({
      workflow_state: 'queued',
      tag: 'submissions_update',
      context_type: 'Course',
      context_id: 1,
      user_id: null,
      completion: 0,
    });
    await mock.jobs.idle();
    expect(await teacher.ops.progress.get({ id: p.id })).toMatchObject({
      workflow_state: 'completed',
      completion: 100,
      message: '3 items processed',
    });
    const subs = await collect(
      teacher.ops.submissions.list({ course_id: 1, assignment_id: 1, include: ['submission_comments'] }),
    );
    expect(subs.filter((s) => [7, 9, 10].includes(s.user_id)).map((s) => [s.user_id, s.grade, s.grader_id])).toEqual([
      [7, '19', 3],
      [9, '14', 3],
      [10, '10', 3],
    ]);
    expect(subs.find((s) => s.user_id === 9)!.submission_comments!.at(-1)!.comment).toBe('Batch');
    // Sam's 19 was already there: no new version.
    expect([versions(mock, 1, 7), versions(mock, 1, 9), versions(mock, 1, 10)]).toEqual([2, 1, 1]);
  });

  it('reports students it cannot grade and bad grades, and applies the rest', async () => {
    const mock = freshMock();
    const ta = clientFor(mock, TOKENS.ta);
    const p = await ta.ops.grading.updateGrades({
      course_id: 1,
      assignment_id: 1,
      grade_data: {
        8: { posted_grade: '16' },
        9: { posted_grade: '16' },
        999: { posted_grade: '1' },
        11: { posted_grade: 'A' },
      },
    });
    await mock.jobs.idle();
    const done = await ta.ops.progress.get({ id: p.id });
    expect(done.workflow_state).toBe('completed');
    expect(done.message!.split('\n')).toEqual([
      '4 items processed',
      "Couldn't find User(s) with API ids: '9', '999'",
      `"A" is not a grade for a points assignment: give points, a percentage, pass/complete or fail/incomplete: '11'`,
    ]);
    expect(done.results).toEqual({ succeeded: 1, failed: 3 });
    const sofia = await ta.ops.submissions.get({ course_id: 1, assignment_id: 1, user_id: 8 });
    expect(sofia.grade).toBe('16');
  });

  it('fails the Progress when no grade could be applied', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const p = await teacher.ops.grading.updateGrades({
      section_id: 1,
      assignment_id: 1,
      grade_data: { 9: { posted_grade: '3' } },
    });
    await mock.jobs.idle();
    expect(await teacher.ops.progress.get({ id: p.id })).toMatchObject({
      workflow_state: 'failed',
      message: "1 items processed\nCouldn't find User(s) with API ids: '9'",
    });
  });

  it.each([
    ['no grade_data', TOKENS.teacher, {}, 400],
    ['a student', TOKENS.student, { 7: { posted_grade: '20' } }, 401],
    ['the observer', TOKENS.observer, { 7: { posted_grade: '20' } }, 401],
  ] as const)('refuses %s', async (_what, token, data, status) => {
    const mock = freshMock();
    const before = value(mock.db, `SELECT count(*) FROM progress`);
    expect(
      await statusOf(
        clientFor(mock, token).ops.grading.updateGrades({ course_id: 1, assignment_id: 1, grade_data: data }),
      ),
    ).toBe(status);
    expect(value(mock.db, `SELECT count(*) FROM progress`)).toBe(before);
  });

  it('says what a request without grade_data lacks', async () => {
    const mock = freshMock();
    const res = await mock.handler({
      method: 'POST',
      url: 'http://lms.mock/api/v1/courses/1/assignments/1/submissions/update_grades',
      headers: { authorization: `Bearer ${TOKENS.teacher}` },
    });
    expect([res.status, JSON.parse(String(res.body))]).toEqual([
      400,
      { errors: [{ message: "'grade_data' parameter required" }] },
    ]);
  });
});

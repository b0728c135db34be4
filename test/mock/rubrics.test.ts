// Rubrics in the mock: who may read and write them, criteria and ratings as given, associations
// (one grading rubric per assignment, its points the assignment's), and assessing a submission
// through the submissions API's rubric_assessment: the score follows a rubric used for grading.
import { describe, expect, it } from 'vitest';
import { clientFor, collect, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';

const criteria = {
  0: {
    description: 'Thesis',
    points: 4,
    ratings: { 0: { description: 'Sharp', points: 4 }, 1: { description: 'Blurry', points: 1 } },
  },
  1: { description: 'Sources', points: 6 },
};

describe('rubrics', () => {
  it('lists and reads the seeded rubric with its associations and assessments', async () => {
    const teacher = clientFor(freshMock(), TOKENS.teacher);
    const all = await collect(teacher.ops.rubrics.list({ course_id: 1 }));
    expect(all.map((r) => [r.id, r.title, r.points_possible])).toEqual([[1, 'Lab Report Rubric', 20]]);
    const r = await teacher.ops.rubrics.get({
      course_id: 1,
      id: 1,
      include: ['assessments'],
      style: 'full',
    });
    expect(r.data.map((c) => c.id)).toEqual(['hypothesis', 'method', 'analysis']);
    expect(r.data[0].ratings.map((x) => x.points)).toEqual([5, 3, 0]);
    expect(r.assessments).toEqual([
      expect.objectContaining({ score: 19, assessor_id: 3, artifact_type: 'Submission', assessment_type: 'grading' }),
    ]);
    expect(r.assessments![0].data).toHaveLength(3);
    expect(r.associations).toBeUndefined();
    const withAssociations = await teacher.ops.rubrics.get({
      course_id: 1,
      id: 1,
      include: ['assignment_associations'],
    });
    expect(withAssociations.associations).toEqual([
      expect.objectContaining({
        association_type: 'Assignment',
        association_id: 1,
        use_for_grading: true,
        purpose: 'grading',
      }),
    ]);
  });

  it.each([
    ['the teacher', TOKENS.teacher, 'ok'],
    ['the TA', TOKENS.ta, 'ok'],
    ['a student', TOKENS.student, 401],
    ['the observer', TOKENS.observer, 401],
    ['a teacher of another course', TOKENS.otherTeacher, 401],
  ])('lets %s read the course rubrics, or not', async (_who, token, status) => {
    expect(await statusOf(clientFor(freshMock(), token).ops.rubrics.get({ course_id: 1, id: 1 }))).toBe(status);
  });

  it('refuses includes and styles canvas-lms refuses', async () => {
    const teacher = clientFor(freshMock(), TOKENS.teacher);
    expect(await statusOf(teacher.ops.rubrics.get({ course_id: 1, id: 1, include: ['bogus' as 'assessments'] }))).toBe(
      400,
    );
    expect(await statusOf(teacher.ops.rubrics.get({ course_id: 1, id: 1, style: 'full' }))).toBe(400);
    expect(await statusOf(teacher.ops.rubrics.get({ course_id: 1, id: 99 }))).toBe(404);
    expect(await statusOf(teacher.ops.rubrics.get({ course_id: 2, id: 1 }))).not.toBe('ok');
  });

  it('creates a rubric with criteria and ratings, graded by, setting the assignment points', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const made = await teacher.ops.rubrics.create({
      course_id: 1,
      rubric: { title: 'Essay', criteria },
      rubric_association: {
        association_type: 'Assignment',
        association_id: 3,
        use_for_grading: true,
        purpose: 'grading',
      },
    });
    expect(made.rubric).toMatchObject({ title: 'Essay', points_possible: 10, context_type: 'Course', context_id: 1 });
    expect(made.rubric.data[1].ratings.map((r) => [r.description, r.points])).toEqual([
      ['Full Marks', 6],
      ['No Marks', 0],
    ]);
    expect(made.rubric_association).toMatchObject({
      association_type: 'Assignment',
      association_id: 3,
      use_for_grading: true,
    });
    expect((await teacher.ops.assignments.get({ course_id: 1, id: 3 })).points_possible).toBe(10);
    // Listed in the course, bookmarked there.
    const listed = await collect(teacher.ops.rubrics.list({ course_id: 1 }));
    expect(listed.map((r) => r.title)).toEqual(['Lab Report Rubric', 'Essay']);
    const got = await teacher.ops.rubrics.get({ course_id: 1, id: made.rubric.id, include: ['associations'] });
    expect(got.associations!.map((a) => a.association_type).sort()).toEqual(['Assignment', 'Course']);
  });

  it('refuses a rubric without a title, a student writing one, and an assignment of another course', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    expect((await failure(teacher.ops.rubrics.create({ course_id: 1, rubric: { criteria } }))).status).toBe(400);
    expect(
      await statusOf(clientFor(mock, TOKENS.student).ops.rubrics.create({ course_id: 1, rubric: { title: 'x' } })),
    ).toBe(401);
    expect(
      await statusOf(
        teacher.ops.rubrics.create({
          course_id: 1,
          rubric: { title: 'x' },
          rubric_association: { association_type: 'Assignment', association_id: 4 },
        }),
      ),
    ).toBe(404);
    expect(await collect(teacher.ops.rubrics.list({ course_id: 1 }))).toHaveLength(1);
  });

  it('updates title and criteria, keeping the ids of criteria it names', async () => {
    const teacher = clientFor(freshMock(), TOKENS.teacher);
    const updated = await teacher.ops.rubrics.update({
      course_id: 1,
      id: 1,
      rubric: {
        title: 'Lab Report (v2)',
        criteria: {
          0: { id: 'hypothesis', description: 'Hypothesis', points: 5 },
          1: { id: 'analysis', description: 'Analysis', points: 15 },
        },
      },
    });
    expect(updated.rubric.title).toBe('Lab Report (v2)');
    expect(updated.rubric.data.map((c) => c.id)).toEqual(['hypothesis', 'analysis']);
    expect(updated.rubric.points_possible).toBe(20);
  });

  it('deletes a rubric and its associations; the submission no longer shows its assessment', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const gone = await teacher.ops.rubrics.delete({ course_id: 1, id: 1 });
    expect(gone.id).toBe(1);
    expect(await collect(teacher.ops.rubrics.list({ course_id: 1 }))).toEqual([]);
    expect(await statusOf(teacher.ops.rubrics.get({ course_id: 1, id: 1 }))).toBe(404);
    const s = await teacher.ops.submissions.get({
      course_id: 1,
      assignment_id: 1,
      user_id: 7,
      include: ['rubric_assessment'],
    });
    expect(s.rubric_assessment).toBeUndefined();
  });
});

describe('assessing with a rubric', () => {
  it('scores the submission from the rubric used for grading, and reads it back', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const s = await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      include: ['rubric_assessment'],
      rubric_assessment: {
        hypothesis: { points: 3, comments: 'Vague' },
        method: { points: 5 },
        analysis: { points: 7 },
      },
    });
    expect([s.score, s.grade]).toEqual([15, '15']);
    expect(s.rubric_assessment).toEqual({
      hypothesis: { rating_id: 'hyp_part', points: 3, comments: 'Vague' },
      method: { rating_id: 'met_full', points: 5, comments: null },
      // A range criterion: 7 falls in the range of Partial (6) up to Thorough (10).
      analysis: { rating_id: 'ana_full', points: 7, comments: null },
    });
    const read = await clientFor(mock, TOKENS.teacher).ops.submissions.get({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      include: ['rubric_assessment'],
    });
    expect(read.rubric_assessment).toEqual(s.rubric_assessment);
  });

  it('keeps the posted grade when the rubric is not used for grading; the rubric wins when it is', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const both = await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      submission: { posted_grade: '12' },
      rubric_assessment: { hypothesis: { points: 5 }, method: { points: 5 }, analysis: { points: 10 } },
    });
    expect(both.score).toBe(20);
    const made = await teacher.ops.rubrics.create({
      course_id: 1,
      rubric: { title: 'Advisory', criteria },
      rubric_association: { association_type: 'Assignment', association_id: 3, use_for_grading: false },
    });
    expect(made.rubric_association!.use_for_grading).toBe(false);
    const s = await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 3,
      user_id: 9,
      submission: { posted_grade: 'B' },
      include: ['rubric_assessment'],
      rubric_assessment: { [made.rubric.data[0].id]: { points: 1 } },
    });
    expect(s.grade).toBe('B');
    expect(Object.values(s.rubric_assessment!)).toEqual([
      { rating_id: made.rubric.data[0].ratings[1].id, points: 1, comments: null },
    ]);
  });

  it('gives points above a criterion, but caps a criterion made from an outcome', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const made = await teacher.ops.rubrics.create({
      course_id: 1,
      rubric: {
        title: 'Safety',
        criteria: {
          0: { description: 'Lab safety', points: 3, learning_outcome_id: 3 } as never,
          1: { description: 'Write-up', points: 7 },
        },
      },
      rubric_association: { association_type: 'Assignment', association_id: 1, use_for_grading: true },
    });
    const [safety, writeUp] = made.rubric.data.map((c) => c.id);
    const s = await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      rubric_assessment: { [safety]: { points: 5 }, [writeUp]: { points: 8 } },
    });
    expect(s.score).toBe(11);
  });

  it('refuses a criterion the rubric does not have, and a student assessing', async () => {
    const mock = freshMock();
    const bad = await failure(
      clientFor(mock, TOKENS.teacher).ops.submissions.grade({
        course_id: 1,
        assignment_id: 1,
        user_id: 9,
        rubric_assessment: { style: { points: 2 } },
      }),
    );
    expect(bad.status).toBe(400);
    expect(
      await statusOf(
        clientFor(mock, TOKENS.student).ops.submissions.grade({
          course_id: 1,
          assignment_id: 1,
          user_id: 'self',
          rubric_assessment: { method: { points: 5 } },
        }),
      ),
    ).toBe(401);
  });
});

// Rubric associations and assessments through their own routes (rubric_associations_controller.rb,
// rubric_assessments_controller.rb): associating a course's rubric with an assignment or the
// course, changing and deleting it; assessing a student under an association, the score following
// a rubric used for grading as the submissions API's rubric_assessment does; who may, and the refusals.
import { describe, expect, it } from 'vitest';
import { clientFor, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { ROLES } from '../helpers/route-rows.js';

const C = { course_id: 1 };
/** Association 2: rubric 1 grades assignment 1 (use_for_grading); assessment 1 is Sam's (19). */
const UNDER = { ...C, rubric_association_id: 2 };

describe('rubric associations', () => {
  it(
    'associates a rubric with an assignment, which takes ' + 'its points, and answers { rubric, rubric_association }',
    async () => {
      const mock = freshMock();
      const teacher = clientFor(mock, TOKENS.teacher).ops;
      const made = await teacher.rubrics.createAssociation({
        ...C,
        rubric_association: { rubric_id: 1, association_type: 'Assignment', association_id: 3, use_for_grading: true },
      });
      expect(Object.keys(made).sort()).toEqual(['rubric', 'rubric_association']);
      expect(made.rubric).toMatchObject({ id: 1, title: 'Lab Report Rubric' });
      expect(made.rubric_association).toMatchObject({
        rubric_id: 1,
        association_type: 'Assignment',
        association_id: 3,
        purpose: 'grading',
        use_for_grading: true,
      });
      expect((await teacher.assignments.get({ ...C, id: 3 })).points_possible).toBe(20);

      const changed = await teacher.rubrics.updateAssociation({
        ...C,
        id: made.rubric_association!.id,
        rubric_association: { use_for_grading: false, hide_score_total: true },
      });
      expect(changed.rubric_association).toMatchObject({ use_for_grading: false, hide_score_total: true });

      const gone = await teacher.rubrics.deleteAssociation({ ...C, id: made.rubric_association!.id });
      expect(gone).toMatchObject({ id: made.rubric_association!.id, association_type: 'Assignment' });
      expect(await statusOf(teacher.rubrics.deleteAssociation({ ...C, id: made.rubric_association!.id }))).toBe(404);
      // Rubric 1 still grades assignment 1 and is bookmarked: it stays.
      expect(await statusOf(teacher.rubrics.get({ ...C, id: 1 }))).toBe('ok');
    },
  );

  it('deletes a rubric whose last association goes, as canvas-lms does', async () => {
    const teacher = clientFor(freshMock(), TOKENS.teacher).ops;
    const made = await teacher.rubrics.create({
      ...C,
      rubric: { title: 'Poster', criteria: { 0: { description: 'Layout', points: 4 } } },
    });
    const bookmark = made.rubric_association!;
    expect(bookmark).toMatchObject({ association_type: 'Course', purpose: 'bookmark' });
    await teacher.rubrics.deleteAssociation({ ...C, id: bookmark.id });
    expect(await statusOf(teacher.rubrics.get({ ...C, id: made.rubric.id }))).toBe(404);
  });

  it('takes a rubric out of the course list and back with bookmarked', async () => {
    const teacher = clientFor(freshMock(), TOKENS.teacher).ops;
    const a = { rubric_id: 1, association_type: 'Assignment' as const, association_id: 3 };
    await teacher.rubrics.createAssociation({ ...C, rubric_association: { ...a, bookmarked: false } });
    const shown = await teacher.rubrics.get({ ...C, id: 1, include: ['course_associations'] });
    expect(shown.associations).toEqual([]);
    await teacher.rubrics.createAssociation({ ...C, rubric_association: { ...a, bookmarked: true } });
    const again = await teacher.rubrics.get({ ...C, id: 1, include: ['course_associations'] });
    expect(again.associations!.map((x) => x.association_type)).toEqual(['Course']);
  });

  it.each([
    ['an unknown rubric', { rubric_id: 99, association_type: 'Assignment', association_id: 3 }, 404],
    ['no rubric', { association_type: 'Assignment', association_id: 3 }, 404],
    ["another course's assignment", { rubric_id: 1, association_type: 'Assignment', association_id: 999 }, 404],
    ['an account', { rubric_id: 1, association_type: 'Account', association_id: 1 }, 400],
    ['nothing to associate with', { rubric_id: 1 }, 400],
    [
      'grading by a course',
      { rubric_id: 1, association_type: 'Course', association_id: 1, use_for_grading: true },
      400,
    ],
    [
      'a purpose outside the two',
      { rubric_id: 1, association_type: 'Assignment', association_id: 3, purpose: 'x' },
      400,
    ],
  ])('refuses %s, writing nothing', async (_what, rubric_association, status) => {
    const teacher = clientFor(freshMock(), TOKENS.teacher).ops;
    const f = await failure(
      teacher.rubrics.createAssociation({ ...C, rubric_association: rubric_association as never }),
    );
    expect(f.status).toBe(status);
    const r = await teacher.rubrics.get({ ...C, id: 1, include: ['associations'] });
    expect(r.associations!.map((x) => x.id)).toEqual([1, 2]);
  });

  it('is for those who manage the course rubrics: not a student', async () => {
    const mock = freshMock();
    const student = clientFor(mock, TOKENS.student).ops;
    const a = { rubric_id: 1, association_type: 'Assignment' as const, association_id: 3 };
    expect(await statusOf(student.rubrics.createAssociation({ ...C, rubric_association: a }))).toBe(401);
    expect(await statusOf(student.rubrics.deleteAssociation({ ...C, id: 2 }))).toBe(401);
    expect(await statusOf(clientFor(mock, ROLES.designer).ops.rubrics.deleteAssociation({ ...C, id: 2 }))).toBe('ok');
  });
});

describe('rubric assessments', () => {
  it('assesses a student under a grading association: the score follows, read back on the submission', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher).ops;
    const made = await teacher.rubrics.createAssessment({
      ...UNDER,
      rubric_assessment: {
        user_id: 9,
        assessment_type: 'grading',
        criterion_hypothesis: { points: 3, comments: 'Vague' },
        criterion_method: { points: 5 },
        criterion_analysis: { points: 7 },
      },
    });
    expect(made).toMatchObject({
      rubric_id: 1,
      rubric_association_id: 2,
      score: 15,
      artifact_type: 'Submission',
      assessment_type: 'grading',
      assessor_id: 3,
    });
    const sub = await teacher.submissions.get({ ...C, assignment_id: 1, user_id: 9, include: ['rubric_assessment'] });
    expect([sub.score, sub.grade]).toEqual([15, '15']);
    expect(sub.rubric_assessment).toEqual({
      hypothesis: { rating_id: 'hyp_part', points: 3, comments: 'Vague' },
      method: { rating_id: 'met_full', points: 5, comments: null },
      analysis: { rating_id: 'ana_full', points: 7, comments: null },
    });
    // The same through the submissions API: one grading assessment per submission, kept up to date.
    const changed = await teacher.rubrics.updateAssessment({
      ...UNDER,
      id: made.id,
      rubric_assessment: { criterion_method: { points: 0 } },
    });
    expect([changed.id, changed.score]).toEqual([made.id, 0]);
    expect((await teacher.submissions.get({ ...C, assignment_id: 1, user_id: 9 })).score).toBe(0);
  });

  it('gives points above a criterion as Canvas does; a peer review grades nothing', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher).ops;
    const extra = await teacher.rubrics.updateAssessment({
      ...UNDER,
      id: 1,
      rubric_assessment: { criterion_method: { points: 7 } },
    });
    expect(extra.score).toBe(7);
    const review = await teacher.rubrics.createAssessment({
      ...UNDER,
      rubric_assessment: { user_id: 7, assessment_type: 'peer_review', criterion_method: { points: 1 } },
    });
    expect(review).toMatchObject({ assessment_type: 'peer_review', score: 1 });
    expect(review.id).not.toBe(1);
    expect((await teacher.submissions.get({ ...C, assignment_id: 1, user_id: 7 })).score).toBe(7);
  });

  it.each([
    ['a criterion the rubric lacks', { user_id: 9, assessment_type: 'grading', criterion_style: { points: 1 } }, 400],
    ['points that are no number', { user_id: 9, assessment_type: 'grading', criterion_method: { points: 'x' } }, 400],
    ['an assessment type outside the three', { user_id: 9, assessment_type: 'vibes' }, 400],
    ['no assessment type', { user_id: 9, criterion_method: { points: 1 } }, 400],
    ['no student', { assessment_type: 'grading' }, 404],
    ['a teacher as the student', { user_id: 3, assessment_type: 'grading' }, 404],
  ])('refuses %s, writing nothing', async (_what, rubric_assessment, status) => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher).ops;
    const f = await failure(
      teacher.rubrics.createAssessment({ ...UNDER, rubric_assessment: rubric_assessment as never }),
    );
    expect(f.status).toBe(status);
    const r = await teacher.rubrics.get({ ...C, id: 1, include: ['assessments'] });
    expect(r.assessments!.map((s) => s.id)).toEqual([1]);
  });

  it('refuses an unknown association or assessment, and the bookmark', async () => {
    const teacher = clientFor(freshMock(), TOKENS.teacher).ops;
    const a = { user_id: 9, assessment_type: 'grading' as const, criterion_method: { points: 1 } };
    expect(
      await statusOf(teacher.rubrics.createAssessment({ ...C, rubric_association_id: 99, rubric_assessment: a })),
    ).toBe(404);
    expect(await statusOf(teacher.rubrics.updateAssessment({ ...UNDER, id: 99, rubric_assessment: a }))).toBe(404);
    const bookmark = await failure(
      teacher.rubrics.createAssessment({ ...C, rubric_association_id: 1, rubric_assessment: a }),
    );
    expect(bookmark.status).toBe(400);
  });

  it('is for who grades the student: not a student, peer reviews being unmodelled; deleting is managing', async () => {
    const mock = freshMock();
    const ops = (token: string) => clientFor(mock, token).ops;
    const review = { user_id: 8, assessment_type: 'peer_review' as const, criterion_method: { points: 5 } };
    expect(await statusOf(ops(TOKENS.student).rubrics.createAssessment({ ...UNDER, rubric_assessment: review }))).toBe(
      401,
    );
    const grading = { user_id: 7, assessment_type: 'grading' as const, criterion_method: { points: 5 } };
    expect(await statusOf(ops(ROLES.designer).rubrics.createAssessment({ ...UNDER, rubric_assessment: grading }))).toBe(
      401,
    );
    expect(await statusOf(ops(TOKENS.ta).rubrics.createAssessment({ ...UNDER, rubric_assessment: grading }))).toBe(
      'ok',
    );
    expect(await statusOf(ops(TOKENS.student).rubrics.deleteAssessment({ ...UNDER, id: 1 }))).toBe(401);
    const gone = await ops(TOKENS.teacher).rubrics.deleteAssessment({ ...UNDER, id: 1 });
    expect(gone).toMatchObject({ id: 1, score: 5 });
    expect(await statusOf(ops(TOKENS.teacher).rubrics.deleteAssessment({ ...UNDER, id: 1 }))).toBe(404);
    // The grade it gave stays.
    expect((await ops(TOKENS.teacher).submissions.get({ ...C, assignment_id: 1, user_id: 7 })).score).toBe(5);
  });
});

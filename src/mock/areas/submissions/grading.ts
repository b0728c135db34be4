// Grading: one submission (a grade, a comment, excused), and many at once in the background
// (update_grades → a Progress). Every change of a grade is a version.
import { interpretGrade } from '../../../spec/grading.js';
import type { Db } from '../../db/open.js';
import { lookup } from '../../db/find.js';
import { badRequest, bool, HttpError, obj, rejected, str, unauthorized, type Handler } from '../../kit.js';
import { submissionNotice } from '../activity/notifications.js';
import type { AssignmentRow } from '../assignments/repo.js';
import { permit, reachOf } from '../access.js';
import { progressJson } from '../progress/present.js';
import { assessSubmission } from '../rubrics/assess.js';
import { applyGrade, gradeFromRubric } from './graded.js';
import { users } from '../../school/users/repo.js';
import { mayComment, mayGrade, submissionsPolicy } from './policy.js';
import { gradable, submissionJson } from './present.js';
import {
  addComment,
  ensureSubmission,
  ensureSubmissionsOf,
  isStudentOf,
  submissionById,
  submissionOf,
} from './repo.js';
import { includes, scope, sectionsFor, assignmentIn, studentIn } from './scope.js';

// ---- grade -------------------------------------------------------------------------------------

/** A grade error in the shape real instances answer it: 400 `{"error": …}`. */
const gradeError = (message: string) => new HttpError(400, { error: message });

/** Grades one submission from a posted grade; returns the new score and grade or throws why not. */
function postedGrade(db: Db, a: AssignmentRow, posted: string): { score: number | null; grade: string | null } {
  const result = interpretGrade(gradable(db, a), posted);
  if ('error' in result) throw gradeError(result.error);
  return result;
}

export const grade: Handler = (ctx) => {
  const scoped = scope(ctx);
  const { course } = scoped;
  const a = assignmentIn(ctx, course);
  const student = studentIn(ctx, scoped, ctx.path.user_id);
  const s = obj(ctx.params, 'submission');
  const rubricParams = obj(ctx.params, 'rubric_assessment');
  const grading = ctx.params.submission !== undefined || ctx.params.rubric_assessment !== undefined;
  // Any grading argument needs the right to grade the student; a comment alone asks less.
  permit(grading ? mayGrade(ctx, course, student) : mayComment(ctx, course, student));
  const now = ctx.now();
  let sub = ensureSubmission(ctx.db, a, student, now);

  const posted = str(s, 'posted_grade');
  const excuse = bool(s, 'excuse');
  if (posted !== undefined && posted.trim() !== '' && excuse)
    throw gradeError('Cannot simultaneously grade and excuse an assignment');
  let change: { score: number | null; grade: string | null; excused?: boolean } | undefined;
  if (excuse) change = { score: null, grade: null, excused: true };
  else if (posted !== undefined) change = postedGrade(ctx.db, a, posted);
  else if (excuse === false && sub.excused) change = { score: sub.score, grade: sub.grade, excused: false };

  if (change) applyGrade(ctx.db, sub, change, ctx.caller.id, now);
  // The rubric after the grade, as canvas-lms assesses: a rubric used for grading then sets the score.
  if (Object.keys(rubricParams).length) {
    sub = submissionById(ctx.db, sub.id)!;
    const assessed = assessSubmission(
      ctx.db,
      rubricParams,
      { assignmentId: a.id, submissionId: sub.id, userId: student, attempt: sub.attempt },
      ctx.caller.id,
      now,
    );
    gradeFromRubric(ctx.db, a, sub.id, assessed, ctx.caller.id, now);
  }

  const c = obj(ctx.params, 'comment');
  const text = str(c, 'text_comment')?.trim();
  const mediaId = str(c, 'media_comment_id')?.trim();
  if (text || mediaId) {
    const mediaType = str(c, 'media_comment_type') ?? 'video';
    if (mediaId && mediaType !== 'audio' && mediaType !== 'video')
      throw rejected('comment[media_comment_type] must be audio or video');
    // comment[group_comment] applies to group assignments only; the mock has none, so it is one comment.
    bool(c, 'group_comment');
    addComment(ctx.db, {
      submissionId: sub.id,
      authorId: ctx.caller.id,
      comment: text ?? '',
      mediaId,
      mediaType: mediaId ? mediaType : null,
      attempt: sub.attempt,
      now,
    });
    if (ctx.caller.id !== sub.user_id) submissionNotice(ctx.db, sub, ctx.caller.id, now);
  }
  sub = submissionById(ctx.db, sub.id)!;
  const json = submissionJson(ctx, sub, [
    'submission_comments',
    ...includes(ctx).filter((i) => i !== 'submission_comments'),
  ]);
  return { ...json, all_submissions: [json] };
};

// ---- many at once ------------------------------------------------------------------------------

interface GradeItem {
  /** The id as `grade_data` named it. */
  raw: string;
  posted?: string;
  comment?: string;
  excuse?: boolean;
}

const NOT_FOUND = "Couldn't find User(s) with API ids";

export const updateGrades: Handler = (ctx) => {
  const scoped = scope(ctx);
  const { course } = scoped;
  const a = assignmentIn(ctx, course);
  if (!a.published) throw unauthorized();
  const data = obj(ctx.params, 'grade_data');
  // Real instances answer this with the bare text; the mock keeps to JSON error bodies.
  if (!Object.keys(data).length) throw badRequest("'grade_data' parameter required");
  const reach = reachOf(ctx, submissionsPolicy.grade, course);
  const items: GradeItem[] = Object.keys(data).map((raw) => {
    const e = obj(data, raw);
    return { raw, posted: str(e, 'posted_grade'), comment: str(e, 'text_comment'), excuse: bool(e, 'excuse') };
  });
  const graderId = ctx.caller.id;
  // The grader's sections: a student outside them (or outside the route's section) is not found.
  const sections = sectionsFor(scoped, reach);
  const scheme = gradable(ctx.db, a);
  // Every student's submission exists before the job runs, so an item only reads its own.
  ensureSubmissionsOf(ctx.db, course.id, [a.id], ctx.now());
  const p = ctx.jobs.start<GradeItem>({
    tag: 'submissions_update',
    context: { type: 'Course', id: course.id },
    userId: null,
    items,
    label: (item) => `'${item.raw}'`,
    apply(db, item, now) {
      const found = lookup(db, users, item.raw);
      if ('reason' in found || !isStudentOf(db, found.row.id, course.id, sections)) throw new Error(NOT_FOUND);
      let sub = submissionOf(db, a.id, found.row.id) ?? ensureSubmission(db, a, found.row.id, now);
      if (item.excuse) applyGrade(db, sub, { score: null, grade: null, excused: true }, graderId, now);
      else if (item.posted !== undefined) {
        const result = interpretGrade(scheme, item.posted);
        if ('error' in result) throw new Error(result.error);
        applyGrade(db, sub, result, graderId, now);
      }
      const text = item.comment?.trim();
      if (text) {
        sub = submissionById(db, sub.id)!;
        addComment(db, { submissionId: sub.id, authorId: graderId, comment: text, attempt: sub.attempt, now });
        submissionNotice(db, sub, graderId, now);
      }
    },
    results: (_db, outcome) => outcome,
  });
  return progressJson(ctx, p);
};

// Submissions: submit (a student, a type the assignment allows), list and read (graders see their
// students', students their own, observers their students'), grade and comment one, and grade many
// in the background (update_grades → a Progress). Every change of a grade is a version.
import type { SubmissionInclude } from '../../../spec/types/submissions.js';
import { interpretGrade, scoreToGrade } from '../../../spec/grading.js';
import type { Db } from '../../db/open.js';
import { lookup } from '../../db/find.js';
import {
  badRequest,
  bool,
  Reply,
  HttpError,
  keysetSource,
  list,
  notFound,
  numericId,
  obj,
  paginate,
  rejected,
  str,
  unauthorized,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { findUser } from '../lookup.js';
import { gradeNotice, submissionNotice } from '../activity/notifications.js';
import { assignmentById, type AssignmentRow } from '../assignments/repo.js';
import { canManageContent, demand, permit, reachOf } from '../access.js';
import { canReadCourse } from '../permissions.js';
import { courseById, type CourseRow } from '../../school/courses/repo.js';
import { startUpload } from '../files/upload.js';
import { attachmentById } from '../files/repo.js';
import { progressJson } from '../progress/present.js';
import { assessSubmission } from '../rubrics/assess.js';
import { sectionById, type SectionRow } from '../../school/sections/repo.js';
import { users } from '../../school/users/repo.js';
import { mayComment, mayGrade, maySubmit, mayUploadFor, mayView, submissionsPolicy, visibility } from './policy.js';
import { courseDay, gradable, submissionJson } from './present.js';
import {
  addAttempt,
  addComment,
  ensureSubmission,
  ensureSubmissionsOf,
  isStudentOf,
  publishedAssignmentIds,
  setGrade,
  studentsQuery,
  submissionById,
  submissionOf,
  submissionsOfAssignmentQuery,
  submissionsOfStudentsQuery,
  submissionsOfUserIn,
  type SubmissionRow,
} from './repo.js';

const INCLUDES: readonly SubmissionInclude[] = [
  'submission_history',
  'submission_comments',
  'rubric_assessment',
  'assignment',
  'user',
  'total_scores',
];

function includes(ctx: MockCtx): SubmissionInclude[] {
  return list(ctx.params, 'include')
    .map(String)
    .filter((i): i is SubmissionInclude => (INCLUDES as readonly string[]).includes(i));
}

/** The course of the route's context, and the section when the route is a section's. */
/** The route's course (and section), which the caller must be able to read: a stranger to the course sees none of its submissions, not an empty list. */
function scope(ctx: MockCtx): { course: CourseRow; section?: SectionRow } {
  const c = ctx.context!;
  const section = c.type === 'section' ? sectionById(ctx.db, c.id)! : undefined;
  const course = courseById(ctx.db, section ? section.course_id : c.id!)!;
  permit(canReadCourse(ctx.db, ctx.caller.id, course));
  return { course, section };
}

/** The sections a list is limited to: the route's section, and the caller's reach. */
function sectionsFor(scoped: { section?: SectionRow }, reach: 'all' | number[]): number[] | undefined {
  if (scoped.section) return reach === 'all' || reach.includes(scoped.section.id) ? [scoped.section.id] : [];
  return reach === 'all' ? undefined : reach;
}

/** The assignment of the path, in the course; an unpublished one only for those who manage content. */
function assignmentIn(ctx: MockCtx, course: CourseRow): AssignmentRow {
  const id = numericId(ctx.path.assignment_id);
  const a = id === undefined ? undefined : assignmentById(ctx.db, id);
  if (!a || a.course_id !== course.id || (!a.published && !canManageContent(ctx, course))) throw notFound();
  return a;
}

/** The student of the path: a student of the course (of the route's section, on a section route). */
function studentIn(ctx: MockCtx, scoped: { course: CourseRow; section?: SectionRow }, raw: string): number {
  const user = findUser(ctx, raw);
  if (!isStudentOf(ctx.db, user.id, scoped.course.id, scoped.section ? [scoped.section.id] : undefined))
    throw notFound();
  return user.id;
}

// ---- submit ------------------------------------------------------------------------------------

/** Scripts, styles, frames, event handlers and javascript: URLs go; the rest of the HTML stays. */
function sanitizeHtml(html: string): string {
  return html
    .replace(/<(script|style|iframe|object|embed)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?(script|style|iframe|object|embed)\b[^>]*>/gi, '')
    .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/(href|src)\s*=\s*("|')\s*javascript:[^"']*\2/gi, '$1=$2#$2');
}

function submissionUrl(raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) throw rejected('Invalid parameters for submission_type online_url. Required: submission[url]');
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `http://${value}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw rejected(`The URL is not valid: ${value}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw rejected('The URL must use http or https');
  return parsed.toString();
}

const submit: Handler = (ctx) => {
  const scoped = scope(ctx);
  const a = assignmentIn(ctx, scoped.course);
  permit(maySubmit(ctx, scoped.course, scoped.section));
  if (a.lock_at && a.lock_at < ctx.now()) throw unauthorized();
  const s = obj(ctx.params, 'submission');
  const type = str(s, 'submission_type');
  const allowed = JSON.parse(a.submission_types) as string[];
  if (
    !type ||
    !['online_text_entry', 'online_url', 'online_upload', 'media_recording'].includes(type) ||
    !allowed.includes(type)
  ) {
    throw rejected('Invalid submission[submission_type] given');
  }
  const now = ctx.now();
  let attempt: Parameters<typeof addAttempt>[2];
  switch (type) {
    case 'online_text_entry': {
      const body = str(s, 'body');
      if (!body?.trim())
        throw rejected('Invalid parameters for submission_type online_text_entry. Required: submission[body]');
      attempt = { type, body: sanitizeHtml(body) };
      break;
    }
    case 'online_url':
      attempt = { type, url: submissionUrl(str(s, 'url')) };
      break;
    case 'online_upload': {
      const ids = list(s, 'file_ids').map((v) => numericId(String(v)));
      const files = ids.map((id) => (id === undefined ? undefined : attachmentById(ctx.db, id)));
      // Files the submitting student uploaded (and finished uploading).
      const usable = files.every(
        (f) => f && f.workflow_state === 'available' && f.context_type === 'User' && f.context_id === ctx.caller.id,
      );
      if (!files.length || !usable) throw rejected('No valid file ids given');
      attempt = { type, attachmentIds: files.map((f) => f!.id) };
      break;
    }
    default: {
      const mediaId = str(s, 'media_comment_id')?.trim();
      if (!mediaId)
        throw rejected(
          'Invalid parameters for submission_type media_recording. Required: submission[media_comment_id]',
        );
      const mediaType = str(s, 'media_comment_type') ?? 'video';
      if (mediaType !== 'audio' && mediaType !== 'video')
        throw rejected('submission[media_comment_type] must be audio or video');
      attempt = { type, mediaId, mediaType };
    }
  }
  const sub = addAttempt(ctx.db, ensureSubmission(ctx.db, a, ctx.caller.id, now), attempt, now);
  const text = str(obj(ctx.params, 'comment'), 'text_comment')?.trim();
  if (text)
    addComment(ctx.db, { submissionId: sub.id, authorId: ctx.caller.id, comment: text, attempt: sub.attempt, now });
  const json = submissionJson(ctx, sub, ['submission_comments']);
  return new Reply(201, json, {
    location: `${ctx.origin}/api/v1/courses/${scoped.course.id}/assignments/${a.id}/submissions/${ctx.caller.id}`,
  });
};

/**
 * Every student has a submission of every assignment, as on real instances: the first page of a
 * list makes the missing ones (unsubmitted), so later pages read what the first one saw.
 */
function firstPage(ctx: MockCtx): boolean {
  const page = str(ctx.params, 'page');
  return page === undefined || page === 'first' || page === '1';
}

// ---- list and read -----------------------------------------------------------------------------

const listOfAssignment: Handler = (ctx) => {
  const scoped = scope(ctx);
  demand(ctx, submissionsPolicy.listAssignment, { course: scoped.course });
  const a = assignmentIn(ctx, scoped.course);
  const v = visibility(ctx, scoped.course);
  if (firstPage(ctx)) ensureSubmissionsOf(ctx.db, scoped.course.id, [a.id], ctx.now());
  // Only those who grade or view grades get here (the policy), so what they see is a set of sections.
  const query = submissionsOfAssignmentQuery(a.id, scoped.course.id, {
    sections: sectionsFor(scoped, v.sections ?? []),
  });
  const inc = includes(ctx);
  return paginate(ctx, keysetSource<SubmissionRow>(ctx.db, query), (s) => submissionJson(ctx, s, inc));
};

/** `student_ids[]`: ids, SIS forms or `all`; omitted, the caller. Each must be one the caller may see. */
function studentIds(ctx: MockCtx, course: CourseRow): number[] | 'all' {
  const raw = list(ctx.params, 'student_ids').map(String);
  if (raw.includes('all')) return 'all';
  if (!raw.length) return [ctx.caller.id];
  return raw.map((r) => {
    const found = lookup(ctx.db, users, r === 'self' ? String(ctx.caller.id) : r);
    if ('reason' in found) throw notFound();
    permit(mayView(ctx, course, found.row.id));
    return found.row.id;
  });
}

const listStudents: Handler = (ctx) => {
  const scoped = scope(ctx);
  const { course } = scoped;
  const v = visibility(ctx, course);
  const ids = studentIds(ctx, course);
  // `all` means everyone the caller may see: a student or an observer gets theirs only.
  const users = ids === 'all' ? v.users : ids;
  const sections = scoped.section
    ? [scoped.section.id]
    : v.users
      ? undefined
      : v.sections === 'all'
        ? undefined
        : v.sections;
  const published = publishedAssignmentIds(ctx.db, course.id);
  const asked = list(ctx.params, 'assignment_ids').map((x) => numericId(String(x)) ?? -1);
  const assignments = asked.length ? published.filter((id) => asked.includes(id)) : published;
  if (firstPage(ctx)) ensureSubmissionsOf(ctx.db, course.id, assignments, ctx.now());
  const inc = includes(ctx);
  if (bool(ctx.params, 'grouped')) {
    const totals = inc.includes('total_scores');
    return paginate(
      ctx,
      keysetSource<{ user_id: number; section_id: number }>(ctx.db, studentsQuery(course.id, { sections, users })),
      (st) => {
        const subs = submissionsOfUserIn(ctx.db, st.user_id, course.id, assignments);
        return {
          user_id: st.user_id,
          section_id: st.section_id,
          submissions: subs.map((s) => submissionJson(ctx, s, inc)),
          ...(totals ? totalScores(ctx.db, subs) : {}),
        };
      },
    );
  }
  return paginate(
    ctx,
    keysetSource<SubmissionRow>(ctx.db, submissionsOfStudentsQuery(course.id, { sections, users, assignments })),
    (s) => submissionJson(ctx, s, inc),
  );
};

/** A student's score as a percentage of the points of graded work (current) and of all work (final). */
function totalScores(
  db: Db,
  subs: SubmissionRow[],
): { computed_current_score: number | null; computed_final_score: number | null } {
  let earned = 0;
  let gradedPoints = 0;
  let allPoints = 0;
  for (const s of subs) {
    const a = assignmentById(db, s.assignment_id)!;
    if (a.grading_type === 'not_graded' || s.excused) continue;
    const points = a.points_possible ?? 0;
    allPoints += points;
    if (s.score !== null) {
      earned += s.score;
      gradedPoints += points;
    }
  }
  const pct = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10000) / 100 : null);
  return { computed_current_score: pct(earned, gradedPoints), computed_final_score: pct(earned, allPoints) };
}

const get: Handler = (ctx) => {
  const scoped = scope(ctx);
  const a = assignmentIn(ctx, scoped.course);
  const student = studentIn(ctx, scoped, ctx.path.user_id);
  permit(mayView(ctx, scoped.course, student));
  return submissionJson(ctx, ensureSubmission(ctx.db, a, student, ctx.now()), includes(ctx));
};

/** Step 1 of a submission file's upload: only the submitting student, for themselves. */
const uploadFile: Handler = (ctx) => {
  const scoped = scope(ctx);
  assignmentIn(ctx, scoped.course);
  const student = studentIn(ctx, scoped, ctx.path.user_id);
  permit(mayUploadFor(ctx, student));
  return startUpload(ctx, { type: 'User', id: ctx.caller.id }, 'submissions');
};

// ---- grade -------------------------------------------------------------------------------------

/** A grade error in the shape real instances answer it: 400 `{"error": …}`. */
const gradeError = (message: string) => new HttpError(400, { error: message });

/** Grades one submission from a posted grade; returns the new score and grade or throws why not. */
function postedGrade(db: Db, a: AssignmentRow, posted: string): { score: number | null; grade: string | null } {
  const result = interpretGrade(gradable(db, a), posted);
  if ('error' in result) throw gradeError(result.error);
  return result;
}

function applyGrade(
  db: Db,
  sub: SubmissionRow,
  change: { score: number | null; grade: string | null; excused?: boolean },
  graderId: number,
  now: string,
): void {
  if (!setGrade(db, sub, { ...change, graderId, now, day: courseDay(now, courseById(db, sub.course_id)!.time_zone) }))
    return;
  const graded = submissionById(db, sub.id)!;
  gradeNotice(db, graded, assignmentById(db, graded.assignment_id)!.name, graderId, now);
}

const grade: Handler = (ctx) => {
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
    if (assessed?.useForGrading && assessed.score !== null && assessed.score !== sub.score)
      applyGrade(
        ctx.db,
        sub,
        { score: assessed.score, grade: scoreToGrade(gradable(ctx.db, a), assessed.score) },
        ctx.caller.id,
        now,
      );
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

const updateGrades: Handler = (ctx) => {
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

export const submissionsHandlers = {
  'submissions.submit': submit,
  'submissions.list': listOfAssignment,
  'submissions.listStudents': listStudents,
  'submissions.get': get,
  'submissions.uploadFile': uploadFile,
  'submissions.grade': grade,
  'grading.updateGrades': updateGrades,
};

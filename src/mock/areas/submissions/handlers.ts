// Submissions: submit (a student, a type the assignment allows), list and read (graders see their
// students', students their own, observers their students'), grade and comment one, and grade many
// in the background (update_grades → a Progress): grading.ts. Every change of a grade is a version.
import { courseScoresOf } from '../assignment-groups/scores.js';
import type { GradedWork } from '../../../spec/course-grades.js';
import type { Db } from '../../db/open.js';
import { lookup } from '../../db/find.js';
import {
  bool,
  Reply,
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
import { assignmentById } from '../assignments/repo.js';
import { demand, permit } from '../access.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { startUpload } from '../files/upload.js';
import { attachmentById } from '../files/repo.js';
import { users } from '../../school/users/repo.js';
import { maySubmit, mayUploadFor, mayView, submissionsPolicy, visibility } from './policy.js';
import { submissionJson } from './present.js';
import {
  addAttempt,
  addComment,
  ensureSubmission,
  ensureSubmissionsOf,
  publishedAssignmentIds,
  studentsQuery,
  submissionsOfAssignmentQuery,
  submissionsOfStudentsQuery,
  submissionsOfUserIn,
  type SubmissionRow,
} from './repo.js';
import { includes, scope, sectionsFor, assignmentIn, studentIn } from './scope.js';
import { grade, updateGrades } from './grading.js';

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
          ...(totals ? totalScores(ctx.db, course.id, subs) : {}),
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

/**
 * A student's score as a percentage, of graded work (current) and of all work (final), as the
 * course computes its grades: by its assignment groups' drop rules, and their weights where it
 * weighs them (assignment-groups' grade calculator).
 */
function totalScores(
  db: Db,
  courseId: number,
  subs: SubmissionRow[],
): { computed_current_score: number | null; computed_final_score: number | null } {
  const work: GradedWork[] = [];
  for (const s of subs) {
    const a = assignmentById(db, s.assignment_id)!;
    if (a.grading_type === 'not_graded') continue;
    work.push({
      assignment_id: a.id,
      group_id: a.assignment_group_id,
      points: a.points_possible ?? 0,
      score: s.score,
      excused: s.excused,
    });
  }
  const scores = courseScoresOf(db, courseId, work);
  return { computed_current_score: scores.current_score, computed_final_score: scores.final_score };
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

export const submissionsHandlers = {
  'submissions.submit': submit,
  'submissions.list': listOfAssignment,
  'submissions.listStudents': listStudents,
  'submissions.get': get,
  'submissions.uploadFile': uploadFile,
  'submissions.grade': grade,
  'grading.updateGrades': updateGrades,
};

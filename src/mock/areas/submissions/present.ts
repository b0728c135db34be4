// Submissions as the API shows them, and the rules of who sees and grades whose.
import type { Attachment } from '../../../spec/types/school.js';
import type {
  GradedAssignment,
  MediaComment,
  Submission,
  SubmissionAttempt,
  SubmissionComment,
  SubmissionInclude,
} from '../../../spec/types/submissions.js';
import { once, type MockCtx } from '../../kit.js';
import { visibility } from './policy.js';
import { assignmentJson } from '../assignments/present.js';
import { assignmentById, gradingSchemeOf, type AssignmentRow } from '../assignments/repo.js';
import { courseById } from '../../school/courses/repo.js';
import { attachmentJson } from '../files/present.js';
import { attachmentById } from '../files/repo.js';
import { briefUserJson } from '../../school/users/present.js';
import { userById } from '../../school/users/repo.js';
import { submissionAssessmentJson } from '../rubrics/present.js';
import { gradingAssessmentOf } from '../rubrics/repo.js';
import { attemptsOf, commentsOf, gradedAttempt, type AttemptRow, type CommentRow, type SubmissionRow } from './repo.js';

// Made on first use, one per zone: building a formatter for a named zone loads ICU's zone data,
// which a command that never dates a submission should not pay for at start-up.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day of a timestamp in a course's time zone (YYYY-MM-DD). */
export function courseDay(iso: string, timeZone: string): string {
  // A job's items share their slice's clock and mostly their course: the last answer serves them all.
  if (iso !== lastDay[0] || timeZone !== lastDay[1]) {
    let format = dayFormats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
      dayFormats.set(timeZone, format);
    }
    lastDay = [iso, timeZone, format.format(new Date(iso))];
  }
  return lastDay[2];
}
let lastDay: [string, string, string] = ['', '', ''];

export function gradable(db: MockCtx['db'], a: AssignmentRow) {
  return { grading_type: a.grading_type, points_possible: a.points_possible, grading_scheme: gradingSchemeOf(db, a) };
}

function mediaJson(ctx: MockCtx, id: string, type: string | null, name: string | null = null): MediaComment {
  return {
    'content-type': type === 'audio' ? 'audio/mp4' : 'video/mp4',
    display_name: name,
    media_id: id,
    media_type: type === 'audio' ? 'audio' : 'video',
    url: `${ctx.origin}/media_objects/${encodeURIComponent(id)}/redirect`,
  };
}

function commentJson(ctx: MockCtx, c: CommentRow): SubmissionComment {
  return {
    id: c.id,
    author_id: c.author_id,
    author_name: c.author_name,
    comment: c.comment,
    created_at: c.created_at,
    edited_at: null,
    author: { id: c.author_id, display_name: c.author_name, html_url: `${ctx.origin}/users/${c.author_id}` },
    ...(c.media_comment_id ? { media_comment: mediaJson(ctx, c.media_comment_id, c.media_comment_type) } : {}),
  };
}

function attachmentsOf(ctx: MockCtx, ids: string | null): Attachment[] | undefined {
  if (!ids) return undefined;
  return (JSON.parse(ids) as number[])
    .map((id) => attachmentById(ctx.db, id))
    .filter((a) => a !== undefined)
    .map((a) => attachmentJson(ctx, a) as Attachment);
}

function isLate(a: AssignmentRow, submittedAt: string | null): boolean {
  return !!(a.due_at && submittedAt && submittedAt > a.due_at);
}

function attemptJson(ctx: MockCtx, s: SubmissionRow, a: AssignmentRow, t: AttemptRow): SubmissionAttempt {
  // A grade belongs to the attempt it was given on: the latest, unless the student resubmitted since.
  const graded =
    s.grade !== null &&
    t.attempt === once(ctx, `graded-attempt:${s.id}`, () => gradedAttempt(ctx.db, s.id) ?? s.attempt);
  return {
    id: s.id,
    user_id: s.user_id,
    assignment_id: s.assignment_id,
    attempt: t.attempt,
    submission_type: t.submission_type as SubmissionAttempt['submission_type'],
    submitted_at: t.submitted_at,
    body: t.body,
    url: t.url,
    score: graded ? s.score : null,
    grade: graded ? s.grade : null,
    workflow_state: graded ? 'graded' : 'submitted',
    late: isLate(a, t.submitted_at),
    ...(t.attachment_ids ? { attachments: attachmentsOf(ctx, t.attachment_ids) } : {}),
  };
}

export function submissionJson(ctx: MockCtx, s: SubmissionRow, include: readonly SubmissionInclude[] = []): Submission {
  const a = once(ctx, `assignment:${s.assignment_id}`, () => assignmentById(ctx.db, s.assignment_id)!);
  const now = ctx.now();
  const late = isLate(a, s.submitted_at);
  const missing =
    !s.submitted_at &&
    s.workflow_state !== 'graded' &&
    !!a.due_at &&
    a.due_at < now &&
    !a.submission_types.includes('none');
  const secondsLate = late ? Math.round((Date.parse(s.submitted_at!) - Date.parse(a.due_at!)) / 1000) : 0;
  const html = `${ctx.origin}/courses/${s.course_id}/assignments/${s.assignment_id}/submissions/${s.user_id}`;
  const json: Submission = {
    id: s.id,
    user_id: s.user_id,
    assignment_id: s.assignment_id,
    course_id: s.course_id,
    attempt: s.attempt,
    body: s.body,
    url: s.url,
    grade: s.grade,
    score: s.score,
    entered_grade: s.grade,
    entered_score: s.score,
    excused: s.excused === 1,
    grade_matches_current_submission: s.grade_matches_current_submission === 1,
    graded_at: s.graded_at,
    grader_id: s.grader_id,
    submission_type: s.submission_type as Submission['submission_type'],
    submitted_at: s.submitted_at,
    workflow_state: s.workflow_state,
    late,
    missing,
    seconds_late: secondsLate,
    late_policy_status: null,
    points_deducted: null,
    html_url: html,
    preview_url: `${html}?preview=1`,
  };
  const files = attachmentsOf(ctx, s.attachment_ids);
  if (files) json.attachments = files;
  if (s.media_comment_id) json.media_comment = mediaJson(ctx, s.media_comment_id, s.media_comment_type);
  if (include.includes('submission_comments'))
    json.submission_comments = commentsOf(ctx.db, s.id).map((c) => commentJson(ctx, c));
  if (include.includes('submission_history')) {
    const attempts = attemptsOf(ctx.db, s.id);
    json.submission_history = attempts.length
      ? attempts.map((t) => attemptJson(ctx, s, a, t))
      : [
          {
            id: s.id,
            user_id: s.user_id,
            assignment_id: s.assignment_id,
            attempt: null,
            submission_type: null,
            submitted_at: null,
            body: null,
            url: null,
            score: s.score,
            grade: s.grade,
            workflow_state: s.workflow_state,
          },
        ];
  }
  if (include.includes('rubric_assessment')) {
    const assessment = gradingAssessmentOf(ctx.db, s.id, s.assignment_id);
    if (assessment) json.rubric_assessment = submissionAssessmentJson(assessment);
  }
  if (include.includes('assignment')) json.assignment = assignmentJson(ctx, a) as GradedAssignment;
  if (include.includes('user')) {
    // Graders see students' logins and SIS ids: what a grading file names them by.
    const withLogin = once(
      ctx,
      `logins:${s.course_id}`,
      () => visibility(ctx, courseById(ctx.db, s.course_id)!).users === undefined,
    );
    json.user = briefUserJson(ctx, userById(ctx.db, s.user_id)!, withLogin);
  }
  return json;
}

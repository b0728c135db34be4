// Gradebook history (BETA): the versions grading writes, by day (in the course's time zone), by
// grader and assignment, and as one feed. Reading it needs manage_grades in the course.
import type { GradedAssignment } from '../../../spec/types/submissions.js';
import type { Grader, HistoryDay, SubmissionHistory, SubmissionVersion } from '../../../spec/types/history.js';
import {
  badRequest,
  bool,
  int,
  keysetSource,
  notFound,
  numericId,
  once,
  paginate,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { findCourse } from '../lookup.js';
import { reachOf } from '../access.js';
import { submissionsPolicy } from './policy.js';
import { assignmentJson } from '../assignments/present.js';
import { assignmentById } from '../assignments/repo.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { userById } from '../../school/users/repo.js';
import { submissionJson } from './present.js';
import {
  feedQuery,
  gradersOfDay,
  gradingDays,
  submissionById,
  versionsOfDay,
  type DayGrader,
  type VersionRow,
} from './repo.js';

function gradingCourse(ctx: MockCtx): CourseRow {
  const course = findCourse(ctx, ctx.path.course_id);
  reachOf(ctx, submissionsPolicy.grade, course);
  return course;
}

/** `YYYY-MM-DD`, a real date. */
function dateParam(raw: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !d || d.toISOString().slice(0, 10) !== raw)
    throw badRequest(`date must be a date as YYYY-MM-DD, not ${JSON.stringify(raw.slice(0, 40))}`);
  return raw;
}

const userName = (ctx: MockCtx, id: number | null) =>
  id === null ? null : once(ctx, `user:${id}`, () => userById(ctx.db, id)?.name ?? null);

function graders(ctx: MockCtx, rows: DayGrader[]): Grader[] {
  const byGrader = new Map<number, Grader>();
  for (const r of rows) {
    let g = byGrader.get(r.grader_id);
    if (!g) {
      g = { id: r.grader_id, name: userName(ctx, r.grader_id) ?? 'Graded on submission', assignments: [] };
      byGrader.set(r.grader_id, g);
    }
    const a = once(ctx, `assignment:${r.assignment_id}`, () => assignmentById(ctx.db, r.assignment_id)!);
    g.assignments.push(assignmentJson(ctx, a) as GradedAssignment);
  }
  return [...byGrader.values()];
}

const days: Handler = (ctx): HistoryDay[] => {
  const course = gradingCourse(ctx);
  const byDay = new Map<string, DayGrader[]>();
  for (const r of gradingDays(ctx.db, course.id)) byDay.set(r.graded_day, [...(byDay.get(r.graded_day) ?? []), r]);
  return [...byDay].map(([date, rows]) => ({ date, graders: graders(ctx, rows) }));
};

const day: Handler = (ctx): Grader[] => {
  const course = gradingCourse(ctx);
  return graders(ctx, gradersOfDay(ctx.db, course.id, dateParam(ctx.path.date)));
};

/** A version as the feed shows it: the submission then, with who graded it and what it is now. */
function versionJson(ctx: MockCtx, v: VersionRow, collated: boolean): SubmissionVersion {
  const current = once(ctx, `submission:${v.submission_id}`, () => submissionById(ctx.db, v.submission_id)!);
  const base = submissionJson(ctx, current);
  const a = once(ctx, `assignment:${v.assignment_id}`, () => assignmentById(ctx.db, v.assignment_id)!);
  const json: SubmissionVersion = {
    ...base,
    attempt: v.attempt,
    workflow_state: v.workflow_state as SubmissionVersion['workflow_state'],
    submission_type: v.submission_type as SubmissionVersion['submission_type'],
    submitted_at: v.submitted_at,
    score: v.score,
    grade: v.grade,
    entered_score: v.score,
    entered_grade: v.grade,
    graded_at: v.graded_at,
    grader_id: v.grader_id,
    grader: userName(ctx, v.grader_id),
    assignment_name: a.name,
    user_name: userName(ctx, v.user_id) ?? '',
    current_grade: current.grade,
    current_graded_at: current.graded_at,
    current_grader: userName(ctx, current.grader_id),
    version_id: v.id,
  };
  if (collated) {
    Object.assign(json, {
      new_grade: v.grade,
      new_score: v.score,
      new_graded_at: v.graded_at,
      new_grader: userName(ctx, v.grader_id),
      previous_grade: v.previous_grade,
      previous_score: v.previous_score,
      previous_graded_at: v.previous_graded_at,
      previous_grader: userName(ctx, v.previous_grader_id),
    });
  }
  return json;
}

const submissions: Handler = (ctx): SubmissionHistory[] => {
  const course = gradingCourse(ctx);
  const date = dateParam(ctx.path.date);
  const grader = numericId(ctx.path.grader_id);
  const assignment = numericId(ctx.path.assignment_id);
  if (grader === undefined || assignment === undefined) throw notFound();
  const a = assignmentById(ctx.db, assignment);
  if (!a || a.course_id !== course.id) throw notFound();
  const bySubmission = new Map<number, SubmissionHistory>();
  for (const v of versionsOfDay(ctx.db, course.id, date, grader, assignment)) {
    let h = bySubmission.get(v.submission_id);
    if (!h) {
      h = { submission_id: v.submission_id, versions: [] };
      bySubmission.set(v.submission_id, h);
    }
    h.versions.push(versionJson(ctx, v, true));
  }
  return [...bySubmission.values()];
};

const feed: Handler = (ctx) => {
  const course = gradingCourse(ctx);
  const assignmentId = int(ctx.params, 'assignment_id');
  const userId = int(ctx.params, 'user_id');
  const query = feedQuery(course.id, { assignmentId, userId, ascending: bool(ctx.params, 'ascending') ?? false });
  return paginate(ctx, keysetSource<VersionRow>(ctx.db, query), (v) => versionJson(ctx, v, false));
};

export const historyHandlers = {
  'history.days': days,
  'history.day': day,
  'history.submissions': submissions,
  'history.feed': feed,
};

// The caller's to-do list: assignments waiting for their grading (teachers and TAs, only the
// students within their reach) and assignments due within the week they have not turned in
// (students), soonest due first; and setting an item aside until it changes, or for good.
import type { TodoItem } from '../../../spec/types/activity.js';
import { HttpError, notFound, numericId, str, type Handler, type MockCtx } from '../../kit.js';
import { reachIn } from '../permissions.js';
import { submissionsPolicy } from '../submissions/policy.js';
import { assignmentJson } from '../assignments/present.js';
import { assignmentById, type AssignmentRow } from '../assignments/repo.js';
import { courseById } from '../../school/courses/repo.js';
import { coursesWhereUserIs, studentsOfSection } from '../../school/enrollments/repo.js';
import { assignmentsNeedingGrading, assignmentsToSubmit, ignore, ignoresOf } from './repo.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;
/** Real instances cap the list; the spec leaves the number open. */
const TODO_LIMIT = 100;
const PURPOSES = ['grading', 'submitting'] as const;
type Purpose = (typeof PURPOSES)[number];

interface Candidate {
  purpose: Purpose;
  assignment: AssignmentRow;
  needsGrading?: number;
  /** What the item looks like now: an ignored item comes back when this changes. */
  marker: string;
}

/** The caller's items as they stand, before ignores. */
function candidates(ctx: MockCtx): Candidate[] {
  const me = ctx.caller.id;
  const out: Candidate[] = [];
  for (const courseId of coursesWhereUserIs(ctx.db, me, ['TeacherEnrollment', 'TaEnrollment'])) {
    const course = courseById(ctx.db, courseId);
    if (!course) continue;
    const reach = reachIn(ctx.db, me, submissionsPolicy.grade, course);
    if (reach !== 'all' && reach.length === 0) continue;
    const students = reach === 'all' ? undefined : [...new Set(reach.flatMap((s) => studentsOfSection(ctx.db, s)))];
    for (const a of assignmentsNeedingGrading(ctx.db, courseId, students)) {
      out.push({
        purpose: 'grading',
        assignment: a,
        needsGrading: a.needs_grading_count,
        marker: `${a.needs_grading_count}:${a.last_submitted_at ?? ''}`,
      });
    }
  }
  const now = ctx.now();
  const until = new Date(Date.parse(now) + WEEK_MS).toISOString();
  const studying = coursesWhereUserIs(ctx.db, me, ['StudentEnrollment']);
  if (studying.length) {
    for (const a of assignmentsToSubmit(ctx.db, me, studying, now, until))
      out.push({ purpose: 'submitting', assignment: a, marker: a.updated_at });
  }
  return out;
}

function itemJson(ctx: MockCtx, c: Candidate): TodoItem {
  const a = c.assignment;
  const asset = `assignment_${a.id}`;
  const ignoreUrl = `${ctx.origin}/api/v1/users/self/todo/${asset}/${c.purpose}`;
  const course = courseById(ctx.db, a.course_id);
  return {
    type: c.purpose,
    assignment: {
      ...assignmentJson(ctx, a),
      ...(c.needsGrading !== undefined ? { needs_grading_count: c.needsGrading } : {}),
    },
    ignore: `${ignoreUrl}?permanent=0`,
    ignore_permanently: `${ignoreUrl}?permanent=1`,
    html_url:
      c.purpose === 'grading'
        ? `${ctx.origin}/courses/${a.course_id}/gradebook/speed_grader?assignment_id=${a.id}`
        : `${ctx.origin}/courses/${a.course_id}/assignments/${a.id}#submit`,
    ...(c.needsGrading !== undefined ? { needs_grading_count: c.needsGrading } : {}),
    context_type: 'course',
    course_id: a.course_id,
    group_id: null,
    context_name: course?.name ?? null,
  };
}

const todo: Handler = (ctx) => {
  const ignored = new Map(ignoresOf(ctx.db, ctx.caller.id).map((i) => [`${i.asset_string}|${i.purpose}`, i]));
  const shown = candidates(ctx).filter((c) => {
    const i = ignored.get(`assignment_${c.assignment.id}|${c.purpose}`);
    return !i || (i.permanent === 0 && i.marker !== c.marker);
  });
  shown.sort(
    (x, y) =>
      (x.assignment.due_at ?? '\uffff').localeCompare(y.assignment.due_at ?? '\uffff') ||
      x.assignment.id - y.assignment.id,
  );
  return shown.slice(0, TODO_LIMIT).map((c) => itemJson(ctx, c));
};

const notIgnored = () => new HttpError(400, { ignored: false });

const ignoreTodo: Handler = (ctx) => {
  const purpose = ctx.path.purpose as Purpose;
  const match = /^assignment_(\d{1,18})$/.exec(ctx.path.asset_string ?? '');
  if (!PURPOSES.includes(purpose) || !match) throw notIgnored();
  const id = numericId(match[1]!);
  const assignment = id === undefined ? undefined : assignmentById(ctx.db, id);
  if (!assignment) throw notFound();
  // The marker of the item as it is now; with no such item on the list, of the assignment itself.
  const current = candidates(ctx).find((c) => c.assignment.id === assignment.id && c.purpose === purpose);
  const permanent = ['1', 'true'].includes(str(ctx.params, 'permanent') ?? '0');
  ignore(ctx.db, {
    user: ctx.caller.id,
    asset: `assignment_${assignment.id}`,
    purpose,
    permanent,
    marker: current?.marker ?? assignment.updated_at,
    now: ctx.now(),
  });
  return { ignored: true };
};

export const todoHandlers = { 'users.todo': todo, 'users.ignoreTodo': ignoreTodo };

// Assignments of a course (supporting endpoints): list, read, create. Unpublished ones are seen
// only by those who may manage the course's content.
import { invalid, list, notFound, numericId, obj, paginate, requireThat, keysetSource, str, bool, timestamp, type Handler, type MockCtx } from '../../kit.js';
import { findCourse } from '../lookup.js';
import { can } from '../permissions.js';
import { readableCourse } from '../courses/handlers.js';
import type { CourseRow } from '../courses/repo.js';
import { DEFAULT_GRADING_SCHEME } from '../../../spec/grading.js';
import { needsGradingCount } from '../submissions/repo.js';
import { assignmentById, assignmentsOfCourseQuery, createAssignment, gradingSchemeOf, type AssignmentRow } from './repo.js';

export const GRADING_TYPES = ['pass_fail', 'percent', 'letter_grade', 'gpa_scale', 'points', 'not_graded'];
export const SUBMISSION_TYPES = [
  'none', 'on_paper', 'online_quiz', 'discussion_topic', 'external_tool', 'online_upload', 'online_text_entry', 'online_url', 'media_recording', 'student_annotation',
];

export function assignmentJson(ctx: Pick<MockCtx, 'origin' | 'db'>, a: AssignmentRow) {
  const letters = a.grading_type === 'letter_grade' || a.grading_type === 'gpa_scale';
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    created_at: a.created_at,
    updated_at: a.updated_at,
    due_at: a.due_at,
    lock_at: a.lock_at,
    unlock_at: a.unlock_at,
    points_possible: a.points_possible,
    grading_type: a.grading_type,
    grading_standard_id: a.grading_standard_id,
    assignment_group_id: a.course_id,
    group_category_id: null,
    automatic_peer_reviews: false,
    grade_group_students_individually: false,
    peer_reviews: false,
    position: a.position,
    course_id: a.course_id,
    submission_types: JSON.parse(a.submission_types) as string[],
    muted: false,
    published: a.published === 1,
    needs_grading_count: needsGradingCount(ctx.db, a.id),
    html_url: `${ctx.origin}/courses/${a.course_id}/assignments/${a.id}`,
    // The letters a letter-graded assignment takes (its grading standard's, or the default scheme),
    // so a client can check grades before sending them.
    ...(letters ? { grading_scheme: gradingSchemeOf(ctx.db, a) ?? [...DEFAULT_GRADING_SCHEME] } : {}),
  };
}

function canManageContent(ctx: MockCtx, course: CourseRow): boolean {
  return can(ctx.db, ctx.caller.id, 'manage_content', { course });
}

const listAssignments: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const query = assignmentsOfCourseQuery(course.id, { withUnpublished: canManageContent(ctx, course), term: str(ctx.params, 'search_term') });
  return paginate(ctx, keysetSource<AssignmentRow>(ctx.db, query), (a) => assignmentJson(ctx, a));
};

const create: Handler = (ctx) => {
  const course = findCourse(ctx, ctx.path.course_id);
  requireThat(canManageContent(ctx, course));
  const a = obj(ctx.params, 'assignment');
  const name = str(a, 'name')?.trim();
  if (!name) throw invalid('assignment', 'name', 'blank', "can't be blank");
  const gradingType = str(a, 'grading_type') ?? 'points';
  if (!GRADING_TYPES.includes(gradingType)) throw invalid('assignment', 'grading_type', 'inclusion', `must be one of ${GRADING_TYPES.join(', ')}`);
  const types = list(a, 'submission_types').map(String);
  const submissionTypes = types.length ? types : ['none'];
  const unknown = submissionTypes.filter((t) => !SUBMISSION_TYPES.includes(t));
  if (unknown.length) throw invalid('assignment', 'submission_types', 'inclusion', `unknown submission types: ${unknown.join(', ')}`);
  const pointsRaw = str(a, 'points_possible');
  const points = pointsRaw === undefined || pointsRaw === '' ? 0 : Number(pointsRaw);
  if (!Number.isFinite(points) || points < 0) throw invalid('assignment', 'points_possible', 'invalid', 'must be a number greater than or equal to 0');
  const standardRaw = str(a, 'grading_standard_id');
  const standard = standardRaw ? numericId(standardRaw) : undefined;
  if (standardRaw && standard === undefined) throw invalid('assignment', 'grading_standard_id', 'invalid', 'must be an integer');
  const id = createAssignment(ctx.db, {
    course: course.id,
    name,
    description: str(a, 'description') ?? null,
    points,
    gradingType,
    submissionTypes,
    dueAt: timestamp(a, 'due_at') ?? null,
    lockAt: timestamp(a, 'lock_at') ?? null,
    unlockAt: timestamp(a, 'unlock_at') ?? null,
    gradingStandardId: standard ?? null,
    published: bool(a, 'published') ?? true,
    now: ctx.now(),
  });
  return assignmentJson(ctx, assignmentById(ctx.db, id)!);
};

const get: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const id = numericId(ctx.path.id);
  const row = id === undefined ? undefined : assignmentById(ctx.db, id);
  if (!row || row.course_id !== course.id || (!row.published && !canManageContent(ctx, course))) throw notFound();
  return assignmentJson(ctx, row);
};

export const assignmentsHandlers = {
  'assignments.list': listAssignments,
  'assignments.create': create,
  'assignments.get': get,
};

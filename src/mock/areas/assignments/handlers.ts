// Assignments of a course (supporting endpoints): list, read, create, change, delete. Unpublished
// ones are seen only by those who may manage the course's content, who alone may write them.
import type { ParamsObject } from '../../decode.js';
import {
  badRequest,
  invalid,
  list,
  notFound,
  numericId,
  obj,
  paginate,
  keysetSource,
  str,
  bool,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { deleteTopic } from '../discussions/repo.js';
import { findCourse } from '../lookup.js';
import { groupById } from '../assignment-groups/repo.js';
import { canManageContent, permit, readableCourse } from '../access.js';
import {
  assignmentById,
  assignmentsOfCourseQuery,
  carriersOf,
  changeAssignment,
  createAssignment,
  deleteAssignment,
  hasStudentSubmissions,
  type AssignmentChange,
  type AssignmentRow,
} from './repo.js';
import { assignmentJson } from './present.js';

export const GRADING_TYPES = ['pass_fail', 'percent', 'letter_grade', 'gpa_scale', 'points', 'not_graded'];
export const SUBMISSION_TYPES = [
  'none',
  'on_paper',
  'online_quiz',
  'discussion_topic',
  'external_tool',
  'online_upload',
  'online_text_entry',
  'online_url',
  'media_recording',
  'student_annotation',
];

const listAssignments: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const query = assignmentsOfCourseQuery(course.id, {
    withUnpublished: canManageContent(ctx, course),
    term: str(ctx.params, 'search_term'),
  });
  return paginate(ctx, keysetSource<AssignmentRow>(ctx.db, query), (a) => assignmentJson(ctx, a));
};

/** A new assignment before its parameters are applied, as real instances make one. */
const NEW_ASSIGNMENT: AssignmentChange = {
  name: '',
  description: null,
  points_possible: 0,
  grading_type: 'points',
  submission_types: ['none'],
  due_at: null,
  lock_at: null,
  unlock_at: null,
  grading_standard_id: null,
  published: true,
  // 0: the course's first group (repo.ts's default).
  assignment_group_id: 0,
};

/** `assignment[assignment_group_id]`: a live group of the course, or the group it is in now. */
function groupNamed(ctx: MockCtx, courseId: number, a: ParamsObject, current: number): number {
  const raw = str(a, 'assignment_group_id');
  if (raw === undefined || raw === '') return current;
  const id = numericId(raw);
  if (id === undefined || !groupById(ctx.db, courseId, id))
    throw invalid('assignment', 'assignment_group_id', 'invalid', 'must name an assignment group of the course');
  return id;
}

/** The fields `assignment[...]` names, over `base` (what the assignment is now): create and update check them alike. */
function assignmentFields(a: ParamsObject, base: AssignmentChange): AssignmentChange {
  const next = { ...base };
  const name = str(a, 'name');
  if (name !== undefined) {
    if (!name.trim()) throw invalid('assignment', 'name', 'blank', "can't be blank");
    next.name = name.trim();
  }
  const description = str(a, 'description');
  if (description !== undefined) next.description = description;
  const gradingType = str(a, 'grading_type');
  if (gradingType !== undefined) {
    if (!GRADING_TYPES.includes(gradingType))
      throw invalid('assignment', 'grading_type', 'inclusion', `must be one of ${GRADING_TYPES.join(', ')}`);
    next.grading_type = gradingType;
  }
  if ('submission_types' in a) {
    const types = list(a, 'submission_types').map(String);
    const unknown = types.filter((t) => !SUBMISSION_TYPES.includes(t));
    if (unknown.length)
      throw invalid('assignment', 'submission_types', 'inclusion', `unknown submission types: ${unknown.join(', ')}`);
    next.submission_types = types.length ? types : ['none'];
  }
  const pointsRaw = str(a, 'points_possible');
  if (pointsRaw !== undefined) {
    const points = pointsRaw === '' ? 0 : Number(pointsRaw);
    if (!Number.isFinite(points) || points < 0)
      throw invalid('assignment', 'points_possible', 'invalid', 'must be a number greater than or equal to 0');
    next.points_possible = points;
  }
  const standardRaw = str(a, 'grading_standard_id');
  if (standardRaw !== undefined) {
    const standard = standardRaw === '' ? null : numericId(standardRaw);
    if (standard === undefined) throw invalid('assignment', 'grading_standard_id', 'invalid', 'must be an integer');
    next.grading_standard_id = standard;
  }
  // "" clears a date; a date not named stays.
  for (const field of ['due_at', 'lock_at', 'unlock_at'] as const) {
    if (str(a, field) === '') next[field] = null;
    else next[field] = timestamp(a, field) ?? next[field];
  }
  next.published = bool(a, 'published') ?? next.published;
  return next;
}

const create: Handler = (ctx) => {
  const course = findCourse(ctx, ctx.path.course_id);
  permit(canManageContent(ctx, course));
  const a = obj(ctx.params, 'assignment');
  if (!str(a, 'name')?.trim()) throw invalid('assignment', 'name', 'blank', "can't be blank");
  const v = assignmentFields(a, NEW_ASSIGNMENT);
  const group = groupNamed(ctx, course.id, a, 0);
  const id = createAssignment(ctx.db, {
    groupId: group || undefined,
    course: course.id,
    name: v.name,
    description: v.description,
    points: v.points_possible ?? 0,
    gradingType: v.grading_type,
    submissionTypes: v.submission_types,
    dueAt: v.due_at,
    lockAt: v.lock_at,
    unlockAt: v.unlock_at,
    gradingStandardId: v.grading_standard_id,
    published: v.published,
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

/** A live assignment of the course, for a caller who manages the course's content. */
function managedAssignment(ctx: MockCtx): AssignmentRow {
  const course = findCourse(ctx, ctx.path.course_id);
  permit(canManageContent(ctx, course));
  const id = numericId(ctx.path.id);
  const row = id === undefined ? undefined : assignmentById(ctx.db, id);
  if (!row || row.course_id !== course.id) throw notFound();
  // The mock keeps a quiz's assignment in step from the quiz's side only, and quizzes cannot be
  // deleted here: through this API the quiz's assignment is neither changed nor deleted.
  const { quiz } = carriersOf(ctx.db, row.id);
  if (quiz !== undefined)
    throw badRequest(`assignment ${row.id} is quiz ${quiz}'s: change or ungrade the quiz instead`);
  return row;
}

const update: Handler = (ctx) => {
  const row = managedAssignment(ctx);
  const current: AssignmentChange = {
    name: row.name,
    description: row.description,
    points_possible: row.points_possible,
    grading_type: row.grading_type,
    submission_types: JSON.parse(row.submission_types) as string[],
    due_at: row.due_at,
    lock_at: row.lock_at,
    unlock_at: row.unlock_at,
    grading_standard_id: row.grading_standard_id,
    published: row.published === 1,
    assignment_group_id: row.assignment_group_id,
  };
  const given = obj(ctx.params, 'assignment');
  const next = {
    ...assignmentFields(given, current),
    assignment_group_id: groupNamed(ctx, row.course_id, given, row.assignment_group_id),
  };
  // As real instances rule (the draft-state validation quizzes share): once students have turned
  // work in, it stays published.
  if (current.published && !next.published && hasStudentSubmissions(ctx.db, row)) {
    throw invalid(undefined, 'published', 'invalid', "Can't unpublish if there are student submissions");
  }
  changeAssignment(ctx.db, row.id, next, ctx.now());
  return assignmentJson(ctx, assignmentById(ctx.db, row.id)!);
};

/**
 * Deletes softly: the assignment leaves every list, its submissions and grades stay. A discussion
 * it grades goes with it, as on real instances (deleting a graded topic likewise deletes its
 * assignment).
 */
const remove: Handler = (ctx) => {
  const row = managedAssignment(ctx);
  const now = ctx.now();
  for (const topic of carriersOf(ctx.db, row.id).topics) deleteTopic(ctx.db, topic, now);
  deleteAssignment(ctx.db, row.id, now);
  return { ...assignmentJson(ctx, row), published: false, workflow_state: 'deleted' };
};

export const assignmentsHandlers = {
  'assignments.list': listAssignments,
  'assignments.create': create,
  'assignments.get': get,
  'assignments.update': update,
  'assignments.delete': remove,
};

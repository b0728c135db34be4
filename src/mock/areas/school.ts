// Supporting reads and creates: accounts, courses, assignments, groups — what workflows need to
// find their ids and what provisioning creates.
import type { RouteId } from '../../spec/routes.js';
import {
  badRequest,
  bool,
  invalid,
  list,
  notFound,
  numericId,
  obj,
  paginate,
  requireThat,
  sqlSource,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../kit.js';
import { findAccount, findCourse, rootOf, type AccountRow, type CourseRow } from '../lookup.js';
import { accountCan, canManageCourse, canReadCourse, isAccountAdmin } from '../permissions.js';

// ---- accounts ---------------------------------------------------------------------------------

function accountJson(a: AccountRow) {
  return {
    id: a.id,
    name: a.name,
    uuid: `acct-${a.id}`,
    parent_account_id: a.parent_account_id,
    root_account_id: a.root_account_id,
    sis_account_id: a.sis_account_id,
    workflow_state: a.workflow_state,
    default_time_zone: 'America/Chicago',
  };
}

const listAccounts: Handler = (ctx) => {
  const sql = `SELECT DISTINCT a.* FROM accounts a JOIN account_users au ON au.account_id = a.id
               WHERE au.user_id = ? AND au.workflow_state = 'active' AND a.workflow_state <> 'deleted' ORDER BY a.id`;
  return paginate(ctx, sqlSource<AccountRow>(ctx.db, sql, [ctx.caller.id]), accountJson);
};

const getAccount: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.id);
  requireThat(isAccountAdmin(ctx.db, ctx.caller.id, account.id));
  return accountJson(account);
};

// ---- courses ----------------------------------------------------------------------------------

function courseJson(c: CourseRow, extra: Record<string, unknown> = {}) {
  return {
    id: c.id,
    name: c.name,
    course_code: c.course_code,
    account_id: c.account_id,
    root_account_id: c.root_account_id,
    sis_course_id: c.sis_course_id,
    uuid: `course-${c.id}`,
    workflow_state: c.workflow_state,
    start_at: c.start_at,
    end_at: c.end_at,
    created_at: c.created_at,
    enrollment_term_id: 1,
    default_view: 'modules',
    time_zone: 'America/Chicago',
    ...extra,
  };
}

const ENROLLMENT_TYPES: Record<string, string> = {
  teacher: 'TeacherEnrollment',
  student: 'StudentEnrollment',
  ta: 'TaEnrollment',
  observer: 'ObserverEnrollment',
  designer: 'DesignerEnrollment',
};

const listCourses: Handler = (ctx) => {
  const type = str(ctx.params, 'enrollment_type');
  if (type !== undefined && !ENROLLMENT_TYPES[type]) throw badRequest(`enrollment_type must be one of ${Object.keys(ENROLLMENT_TYPES).join(', ')}`);
  const states = list(ctx.params, 'state').map(String);
  const where = [`e.user_id = ?`, `e.workflow_state IN ('active', 'invited')`, `c.workflow_state <> 'deleted'`];
  const args: unknown[] = [ctx.caller.id];
  if (type) (where.push('e.type = ?'), args.push(ENROLLMENT_TYPES[type]));
  if (states.length) (where.push(`c.workflow_state IN (${states.map(() => '?').join(',')})`), args.push(...states));
  const sql = `SELECT DISTINCT c.* FROM courses c JOIN enrollments e ON e.course_id = c.id WHERE ${where.join(' AND ')} ORDER BY c.id`;
  const enrollmentsOf = ctx.db.prepare(
    `SELECT type, role, workflow_state AS enrollment_state, user_id FROM enrollments WHERE course_id = ? AND user_id = ? AND workflow_state IN ('active','invited')`,
  );
  return paginate(ctx, sqlSource<CourseRow>(ctx.db, sql, args), (c) =>
    courseJson(c, { enrollments: enrollmentsOf.all(c.id, ctx.caller.id).map((e) => ({ ...(e as object), type: String((e as { type: string }).type).replace('Enrollment', '').toLowerCase() })) }),
  );
};

const listAccountCourses: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  requireThat(accountCan(ctx.db, ctx.caller.id, account.id, 'read_course_list'));
  const term = str(ctx.params, 'search_term');
  if (term !== undefined && term.length < 2) throw badRequest('search_term must be at least 2 characters');
  // The account and every account below it.
  const tree = `WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT a.id FROM accounts a JOIN tree ON a.parent_account_id = tree.id)`;
  const where = [`c.account_id IN (SELECT id FROM tree)`, `c.workflow_state <> 'deleted'`];
  const args: unknown[] = [account.id];
  if (term) {
    const like = `%${term.toLowerCase()}%`;
    where.push(`(lower(c.name) LIKE ? OR lower(c.course_code) LIKE ? OR lower(coalesce(c.sis_course_id, '')) LIKE ?)`);
    args.push(like, like, like);
  }
  const sql = `${tree} SELECT c.* FROM courses c WHERE ${where.join(' AND ')} ORDER BY c.id`;
  return paginate(ctx, sqlSource<CourseRow>(ctx.db, sql, args), (c) => courseJson(c));
};

const createCourse: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  requireThat(accountCan(ctx.db, ctx.caller.id, account.id, 'manage_courses'));
  const course = obj(ctx.params, 'course');
  const name = str(course, 'name')?.trim() || 'Unnamed Course';
  const code = str(course, 'course_code')?.trim() || name.slice(0, 20);
  const sis = str(course, 'sis_course_id')?.trim() || undefined;
  const root = rootOf(account);
  if (sis !== undefined) {
    requireThat(accountCan(ctx.db, ctx.caller.id, account.id, 'manage_sis'));
    if (ctx.db.prepare(`SELECT 1 FROM courses WHERE root_account_id = ? AND sis_course_id = ?`).get(root, sis)) {
      throw invalid('course', 'sis_source_id', 'taken', `SIS ID "${sis}" is already in use`);
    }
  }
  const start = timestamp(course, 'start_at');
  const end = timestamp(course, 'end_at');
  if (start && end && start > end) throw invalid('course', 'conclude_at', 'invalid', 'end date must be after the start date');
  const now = ctx.now();
  const state = bool(ctx.params, 'offer') ? 'available' : 'unpublished';
  const { lastInsertRowid } = ctx.db
    .prepare(
      `INSERT INTO courses (account_id, root_account_id, name, course_code, sis_course_id, workflow_state, start_at, end_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(account.id, root, name, code, sis ?? null, state, start ?? null, end ?? null, now);
  const id = Number(lastInsertRowid);
  // Every course has a default section that enrollments land in.
  ctx.db
    .prepare(`INSERT INTO course_sections (course_id, root_account_id, name, default_section, created_at) VALUES (?, ?, ?, 1, ?)`)
    .run(id, root, name, now);
  return courseJson(ctx.db.prepare(`SELECT * FROM courses WHERE id = ?`).get(id) as CourseRow);
};

const getCourse: Handler = (ctx) => {
  const course = findCourse(ctx, ctx.path.id);
  requireThat(canReadCourse(ctx, course));
  return courseJson(course);
};

// ---- assignments ------------------------------------------------------------------------------

interface AssignmentRow {
  id: number;
  course_id: number;
  name: string;
  description: string | null;
  points_possible: number | null;
  grading_type: string;
  submission_types: string;
  due_at: string | null;
  lock_at: string | null;
  unlock_at: string | null;
  grading_standard_id: number | null;
  position: number;
  published: number;
  created_at: string;
  updated_at: string;
}

export const GRADING_TYPES = ['pass_fail', 'percent', 'letter_grade', 'gpa_scale', 'points', 'not_graded'];
export const SUBMISSION_TYPES = [
  'none', 'on_paper', 'online_quiz', 'discussion_topic', 'external_tool', 'online_upload', 'online_text_entry', 'online_url', 'media_recording', 'student_annotation',
];

function assignmentJson(ctx: MockCtx, a: AssignmentRow) {
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
    needs_grading_count: 0,
    html_url: `${ctx.origin}/courses/${a.course_id}/assignments/${a.id}`,
  };
}

function courseFromPath(ctx: MockCtx): CourseRow {
  const course = findCourse(ctx, ctx.path.course_id);
  requireThat(canReadCourse(ctx, course));
  return course;
}

const listAssignments: Handler = (ctx) => {
  const course = courseFromPath(ctx);
  const term = str(ctx.params, 'search_term');
  const staff = canManageCourse(ctx, course);
  const where = ['course_id = ?'];
  const args: unknown[] = [course.id];
  if (!staff) where.push('published = 1');
  if (term) (where.push('lower(name) LIKE ?'), args.push(`%${term.toLowerCase()}%`));
  const sql = `SELECT * FROM assignments WHERE ${where.join(' AND ')} ORDER BY position, id`;
  return paginate(ctx, sqlSource<AssignmentRow>(ctx.db, sql, args), (a) => assignmentJson(ctx, a));
};

const createAssignment: Handler = (ctx) => {
  const course = findCourse(ctx, ctx.path.course_id);
  requireThat(canManageCourse(ctx, course));
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
  const published = bool(a, 'published') ?? true;
  const position = (ctx.db.prepare(`SELECT coalesce(max(position), 0) + 1 AS p FROM assignments WHERE course_id = ?`).get(course.id) as { p: number }).p;
  const now = ctx.now();
  const { lastInsertRowid } = ctx.db
    .prepare(
      `INSERT INTO assignments (course_id, name, description, points_possible, grading_type, submission_types, due_at, lock_at, unlock_at, grading_standard_id, position, published, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      course.id, name, str(a, 'description') ?? null, points, gradingType, JSON.stringify(submissionTypes),
      timestamp(a, 'due_at') ?? null, timestamp(a, 'lock_at') ?? null, timestamp(a, 'unlock_at') ?? null,
      standard ?? null, position, published ? 1 : 0, now, now,
    );
  return assignmentJson(ctx, ctx.db.prepare(`SELECT * FROM assignments WHERE id = ?`).get(Number(lastInsertRowid)) as AssignmentRow);
};

const getAssignment: Handler = (ctx) => {
  const course = courseFromPath(ctx);
  const id = numericId(ctx.path.id);
  const row = id === undefined ? undefined : (ctx.db.prepare(`SELECT * FROM assignments WHERE id = ? AND course_id = ?`).get(id, course.id) as AssignmentRow | undefined);
  if (!row || (!row.published && !canManageCourse(ctx, course))) throw notFound();
  return assignmentJson(ctx, row);
};

// ---- groups -----------------------------------------------------------------------------------

const listGroups: Handler = (ctx) => {
  const course = courseFromPath(ctx);
  const sql = `SELECT g.*, (SELECT count(*) FROM group_memberships m WHERE m.group_id = g.id AND m.workflow_state = 'accepted') AS members_count
               FROM groups g WHERE g.course_id = ? AND g.workflow_state <> 'deleted' ORDER BY g.id`;
  return paginate(ctx, sqlSource<Record<string, unknown>>(ctx.db, sql, [course.id]), (g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    course_id: g.course_id,
    context_type: 'Course',
    members_count: g.members_count,
    is_public: false,
    join_level: 'invitation_only',
    created_at: g.created_at,
    html_url: `${ctx.origin}/groups/${g.id}`,
  }));
};

export const schoolHandlers: Partial<Record<RouteId, Handler>> = {
  'accounts.list': listAccounts,
  'accounts.get': getAccount,
  'courses.list': listCourses,
  'courses.listAccount': listAccountCourses,
  'courses.create': createCourse,
  'courses.get': getCourse,
  'assignments.list': listAssignments,
  'assignments.create': createAssignment,
  'assignments.get': getAssignment,
  'groups.list': listGroups,
};

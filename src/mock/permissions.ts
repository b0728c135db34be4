// Who may do what. Account rights come from admin roles on the account or any account above it;
// course rights from the caller's active enrollments.
import type { Db } from './db/open.js';
import type { MockCtx } from './kit.js';

export type AccountPermission =
  | 'read_roster'
  | 'manage_user_logins'
  | 'manage_sis'
  | 'manage_courses'
  | 'manage_account_memberships'
  | 'become_user'
  | 'view_statistics'
  | 'manage_grades'
  | 'read_course_list';

/** `*` grants everything. Custom roles name theirs. */
export const ALL_PERMISSIONS = '*';

function accountChain(db: Db, accountId: number): number[] {
  const chain: number[] = [];
  let current: number | null = accountId;
  while (current !== null && chain.length < 32) {
    chain.push(current);
    const row = db.prepare(`SELECT parent_account_id FROM accounts WHERE id = ?`).get(current) as { parent_account_id: number | null } | undefined;
    current = row?.parent_account_id ?? null;
  }
  return chain;
}

export function accountPermissions(db: Db, userId: number, accountId: number): Set<string> {
  const chain = accountChain(db, accountId);
  const rows = db
    .prepare(
      `SELECT r.permissions FROM account_users au JOIN roles r ON r.name = au.role
       WHERE au.user_id = ? AND au.workflow_state = 'active' AND au.account_id IN (${chain.map(() => '?').join(',')})`,
    )
    .all(userId, ...chain) as { permissions: string }[];
  return new Set(rows.flatMap((r) => JSON.parse(r.permissions) as string[]));
}

export function accountCan(db: Db, userId: number, accountId: number, permission: AccountPermission): boolean {
  const perms = accountPermissions(db, userId, accountId);
  return perms.has(ALL_PERMISSIONS) || perms.has(permission);
}

export function isAccountAdmin(db: Db, userId: number, accountId: number): boolean {
  return accountPermissions(db, userId, accountId).size > 0;
}

/** Active enrollment types of a user in a course. */
export function courseRoles(db: Db, userId: number, courseId: number): Set<string> {
  const rows = db
    .prepare(`SELECT type FROM enrollments WHERE user_id = ? AND course_id = ? AND workflow_state IN ('active', 'invited')`)
    .all(userId, courseId) as { type: string }[];
  return new Set(rows.map((r) => r.type));
}

const STAFF = ['TeacherEnrollment', 'TaEnrollment', 'DesignerEnrollment'];

/** Teachers, TAs and designers of the course, or admins of its account. */
export function canManageCourse(ctx: MockCtx, course: { id: number; account_id: number }): boolean {
  const roles = courseRoles(ctx.db, ctx.caller.id, course.id);
  return STAFF.some((t) => roles.has(t)) || accountCan(ctx.db, ctx.caller.id, course.account_id, 'manage_courses');
}

/** Anyone enrolled in the course, or an admin over it. */
export function canReadCourse(ctx: MockCtx, course: { id: number; account_id: number }): boolean {
  return courseRoles(ctx.db, ctx.caller.id, course.id).size > 0 || isAccountAdmin(ctx.db, ctx.caller.id, course.account_id);
}

/** Two users share a course when both hold an active or invited enrollment in it. */
export function shareACourse(db: Db, a: number, b: number): boolean {
  return !!db
    .prepare(
      `SELECT 1 FROM enrollments e1 JOIN enrollments e2 ON e1.course_id = e2.course_id
       WHERE e1.user_id = ? AND e2.user_id = ? AND e1.workflow_state IN ('active','invited') AND e2.workflow_state IN ('active','invited') LIMIT 1`,
    )
    .get(a, b);
}

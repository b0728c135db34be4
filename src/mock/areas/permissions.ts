// Who may do what, as data: roles (built-in and custom, each with a base type and a permission set)
// held through account admin rows and course enrollments, and one question, `can`, that every area
// asks. Account roles apply to the account and everything below it; a course role applies in its
// course, and only to its own section when the enrollment is limited to it. The roles are held in
// several areas' tables, so this sits above their repositories and below every handler that asks.
import type { Db } from '../db/open.js';
import { accountById, accountChain, rootOf } from '../school/accounts/repo.js';
import { activeAdminRoles } from './admins/repo.js';
import { activeCourseRoles, isInCourse } from '../school/enrollments/repo.js';

export const PERMISSIONS = [
  // accounts
  'manage_account_settings',
  'manage_account_memberships',
  /** Reading and changing the account's roles ("Permissions - manage"). */
  'manage_role_overrides',
  'manage_user_logins',
  'manage_sis',
  'read_sis',
  'become_user',
  'view_statistics',
  'read_course_list',
  'manage_courses',
  // courses (also grantable to admins)
  'read_roster',
  'manage_students',
  'manage_admin_users',
  'manage_sections',
  'manage_grades',
  'view_all_grades',
  'manage_content',
  'read_course_content',
  'moderate_forum',
  'post_to_forum',
  'create_announcement',
  'send_messages',
  /** Messaging a course or section as a whole ("Send messages to the entire class"). */
  'send_messages_all',
  // outcomes
  'manage_outcomes',
  /** Changing global outcomes: the site admin's, held on the instance's root account. */
  'manage_global_outcomes',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Grants every permission (the built-in AccountAdmin role). */
export const ALL = '*';

/**
 * One row of an area's policy: who may do an action, asked of the target the handler names (an
 * account and its chain, a course, a section of it). A list: any one of its permissions allows it.
 * The long form adds who else may: `self`, the caller acting on their own record, whatever they
 * hold; `admin`, anyone holding an admin role on the target's account or above it; `member`,
 * anyone enrolled in the target course (active or invited), whatever the enrollment grants.
 */
export type Rule =
  | readonly Permission[]
  | { readonly anyOf: readonly Permission[]; readonly self?: true; readonly admin?: true; readonly member?: true };

export type PermissionContext =
  | { account: { id: number } }
  /** `sections`: the sections the action touches (a student's, a section being edited); a
   *  section-limited enrollment grants nothing outside them. */
  | { course: { id: number; account_id: number }; sections?: readonly number[] };

export function permissionsIn(db: Db, userId: number, context: PermissionContext): Set<string> {
  const granted = new Set<string>();
  const accountId = 'account' in context ? context.account.id : context.course.account_id;
  for (const role of activeAdminRoles(db, userId, accountChain(db, accountId)))
    for (const p of role.permissions) granted.add(p);
  if ('course' in context) {
    for (const role of activeCourseRoles(db, userId, context.course.id)) {
      if (role.limited && context.sections && !context.sections.includes(role.sectionId)) continue;
      for (const p of role.permissions) granted.add(p);
    }
  }
  return granted;
}

/**
 * Do these held permissions (one role's, or all a user holds somewhere) grant any one of `anyOf`?
 * The one place the rule is written, so a role read row by row and the union of a user's roles
 * answer alike; `ALL` grants every permission.
 */
export function grantsAny(held: Iterable<string>, anyOf: readonly Permission[]): boolean {
  const wanted: readonly string[] = anyOf;
  for (const p of held) if (p === ALL || wanted.includes(p)) return true;
  return false;
}

export function can(db: Db, userId: number, permission: Permission, context: PermissionContext): boolean {
  return canAny(db, userId, [permission], context);
}

/** Does the user hold any one of `permissions` there? One walk of the roles, however many are asked. */
export function canAny(
  db: Db,
  userId: number,
  permissions: readonly Permission[],
  context: PermissionContext,
): boolean {
  return grantsAny(permissionsIn(db, userId, context), permissions);
}

/** Does the rule allow the user there? `owner`: whose record the action touches, for a rule that lets its owner act. */
export function allowedBy(db: Db, userId: number, rule: Rule, context: PermissionContext, owner?: number): boolean {
  if (!('anyOf' in rule)) return canAny(db, userId, rule, context);
  // Cheapest first: most readers of a course are its members, and the admin chain is the dearest walk.
  if (rule.self && owner === userId) return true;
  if (rule.member && 'course' in context && isInCourse(db, userId, context.course.id)) return true;
  if (rule.admin && administers(db, userId, 'account' in context ? context.account.id : context.course.account_id))
    return true;
  return canAny(db, userId, rule.anyOf, context);
}

/** Any admin role at all on the root account or an account below it. */
export function administersUnder(db: Db, userId: number, rootId: number): boolean {
  return activeAdminRoles(db, userId).some((r) => {
    const account = accountById(db, r.accountId);
    return account !== undefined && rootOf(account) === rootId;
  });
}

/** Any admin role at all on the account or above it. */
function administers(db: Db, userId: number, accountId: number): boolean {
  return activeAdminRoles(db, userId, accountChain(db, accountId)).length > 0;
}

/** Reading a course and what every member sees of it: its members and any admin above it. */
export const READ_COURSE: Rule = { anyOf: [], member: true, admin: true };

/** Seeing SIS ids (users', and a course's, its sections' and its enrollments'): reading or managing SIS data. */
export const READ_SIS: Rule = ['read_sis', 'manage_sis'];

export function canReadCourse(db: Db, userId: number, course: { id: number; account_id: number }): boolean {
  return allowedBy(db, userId, READ_COURSE, { course });
}

/**
 * Where in a course any one of the permissions holds: everywhere (an admin, or an enrollment not
 * limited to its section), in some sections only (section-limited enrollments), or nowhere (an
 * empty list).
 */
export function reachIn(
  db: Db,
  userId: number,
  anyOf: readonly Permission[],
  course: { id: number; account_id: number },
): 'all' | number[] {
  if (activeAdminRoles(db, userId, accountChain(db, course.account_id)).some((r) => grantsAny(r.permissions, anyOf)))
    return 'all';
  const sections: number[] = [];
  for (const role of activeCourseRoles(db, userId, course.id)) {
    if (!grantsAny(role.permissions, anyOf)) continue;
    if (!role.limited) return 'all';
    sections.push(role.sectionId);
  }
  return sections;
}

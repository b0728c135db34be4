// Enrollments: a user in a course section with a role (a built-in enrollment type or a custom course
// role of that base type), in a state.
import type { Findable } from '../../db/find.js';
import type { KeysetQuery } from '../../kit.js';
import type { Db } from '../../db/open.js';
import { all, insert, one, placeholders, run } from '../../db/statements.js';
import { rolePermissions } from '../accounts/repo.js';

export interface EnrollmentRow {
  id: number;
  user_id: number;
  course_id: number;
  course_section_id: number;
  root_account_id: number;
  type: string;
  role_id: number;
  workflow_state: string;
  limit_privileges_to_course_section: number;
  associated_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export const enrollments: Findable<EnrollmentRow> = { label: 'enrollment', table: 'enrollments' };

export { ENROLLMENT_STATES } from '../../../spec/vocabulary.js';

export function enrollmentById(db: Db, id: number): EnrollmentRow | undefined {
  return one<EnrollmentRow>(db, `SELECT * FROM enrollments WHERE id = ?`, id);
}

export interface NewEnrollment {
  user: number;
  course: number;
  section: number;
  root: number;
  type: string;
  roleId: number;
  state: string;
  limited?: boolean;
  associatedUser?: number | null;
  now: string;
}

export function createEnrollment(db: Db, e: NewEnrollment): EnrollmentRow {
  const id = insert(
    db,
    'INSERT INTO enrollments (user_id, course_id, course_section_id, root_account_id, type, role_id, workflow_state, ' +
      `limit_privileges_to_course_section, associated_user_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    e.user,
    e.course,
    e.section,
    e.root,
    e.type,
    e.roleId,
    e.state,
    e.limited ? 1 : 0,
    e.associatedUser ?? null,
    e.now,
    e.now,
  );
  return enrollmentById(db, id)!;
}

/** The same user, section and role already enrolled (in a live state): enrolling again returns it. */
export function existingEnrollment(
  db: Db,
  userId: number,
  sectionId: number,
  roleId: number,
  associatedUser: number | null,
): EnrollmentRow | undefined {
  return one<EnrollmentRow>(
    db,
    'SELECT * FROM enrollments WHERE user_id = ? AND course_section_id = ? AND role_id = ? AND ' +
      `coalesce(associated_user_id, 0) = ?
       AND workflow_state NOT IN ('deleted', 'rejected') ORDER BY id LIMIT 1`,
    userId,
    sectionId,
    roleId,
    associatedUser ?? 0,
  );
}

export function setEnrollmentState(db: Db, id: number, state: string, now: string): void {
  run(db, `UPDATE enrollments SET workflow_state = ?, updated_at = ? WHERE id = ?`, state, now, id);
}

export function deleteEnrollmentsOfUser(db: Db, userId: number, now: string): void {
  run(db, `UPDATE enrollments SET workflow_state = 'deleted', updated_at = ? WHERE user_id = ?`, now, userId);
}

/** A cross-listed section's enrollments follow it into its new course. */
export function moveSectionEnrollments(db: Db, sectionId: number, courseId: number, now: string): void {
  run(db, `UPDATE enrollments SET course_id = ?, updated_at = ? WHERE course_section_id = ?`, courseId, now, sectionId);
}

export function liveEnrollmentsInSection(db: Db, sectionId: number): number {
  return one<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM enrollments WHERE course_section_id = ? AND workflow_state NOT IN ('deleted', ` +
      `'rejected')`,
    sectionId,
  )!.n;
}

/** The roles a user holds in a course through active enrollments, with the section each is tied to. */
export function activeCourseRoles(
  db: Db,
  userId: number,
  courseId: number,
): { permissions: string[]; limited: boolean; sectionId: number; type: string }[] {
  return all<{ permissions: string; limited: number; section_id: number; type: string }>(
    db,
    'SELECT r.permissions, e.limit_privileges_to_course_section AS limited, e.course_section_id AS section_id, ' +
      `e.type FROM enrollments e JOIN roles r ON r.id = e.role_id
     WHERE e.user_id = ? AND e.course_id = ? AND e.workflow_state = 'active'`,
    userId,
    courseId,
  ).map((r) => ({ permissions: rolePermissions(r), limited: r.limited === 1, sectionId: r.section_id, type: r.type }));
}

/** Enrollment types a user holds in a course, active or invited (what `courses list` reports). */
export function enrollmentsOfUserInCourse(
  db: Db,
  userId: number,
  courseId: number,
): { type: string; role: string; role_id: number; enrollment_state: string; user_id: number }[] {
  return all(
    db,
    'SELECT e.type, r.name AS role, e.role_id, e.workflow_state AS enrollment_state, e.user_id FROM enrollments e ' +
      `JOIN roles r ON r.id = e.role_id
     WHERE e.course_id = ? AND e.user_id = ? AND e.workflow_state IN ('active', 'invited')`,
    courseId,
    userId,
  );
}

/** Sections of a course a user is in (active or invited). */
export function sectionsOfUserInCourse(db: Db, userId: number, courseId: number): number[] {
  return all<{ s: number }>(
    db,
    'SELECT DISTINCT course_section_id AS s FROM enrollments WHERE user_id = ? AND course_id = ? AND workflow_state ' +
      `IN ('active', 'invited')`,
    userId,
    courseId,
  ).map((r) => r.s);
}

/** Students of a section (active or invited), in sortable-name order. */
export function studentsOfSection(db: Db, sectionId: number): number[] {
  return all<{ user_id: number }>(
    db,
    `SELECT DISTINCT e.user_id, u.sortable_name FROM enrollments e JOIN users u ON u.id = e.user_id
     WHERE e.course_section_id = ? AND e.type = 'StudentEnrollment' AND e.workflow_state IN ('active', 'invited') ` +
      'ORDER BY u.sortable_name, e.user_id',
    sectionId,
  ).map((r) => r.user_id);
}

/** Is the user in the course at all (active or invited)? */
/** Everyone with an active or invited enrolment in the course. */
export function usersInCourse(db: Db, courseId: number): number[] {
  return all<{ user_id: number }>(
    db,
    `SELECT DISTINCT user_id FROM enrollments WHERE course_id = ? AND workflow_state IN ('active', 'invited')`,
    courseId,
  ).map((r) => r.user_id);
}

/** Pending invitations, oldest first. */
export function invitedEnrollments(db: Db): EnrollmentRow[] {
  return all<EnrollmentRow>(db, `SELECT * FROM enrollments WHERE workflow_state = 'invited' ORDER BY id`);
}

export function isInCourse(db: Db, userId: number, courseId: number): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM enrollments WHERE user_id = ? AND course_id = ? AND workflow_state IN ('active', 'invited') ` +
        'LIMIT 1',
      userId,
      courseId,
    ) !== undefined
  );
}

/** Two users share a course when both hold an active or invited enrollment in it. */
export function shareACourse(db: Db, a: number, b: number): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM enrollments e1 JOIN enrollments e2 ON e1.course_id = e2.course_id
       WHERE e1.user_id = ? AND e2.user_id = ? AND e1.workflow_state IN ('active','invited') AND e2.workflow_state ` +
        `IN ('active','invited') LIMIT 1`,
      a,
      b,
    ) !== undefined
  );
}

/** The courses both users are active (or invited) in, with their accounts. */
export function sharedCourses(db: Db, a: number, b: number): { id: number; account_id: number }[] {
  return all<{ id: number; account_id: number }>(
    db,
    'SELECT DISTINCT c.id, c.account_id FROM enrollments e1 JOIN enrollments e2 ON e1.course_id = e2.course_id JOIN ' +
      `courses c ON c.id = e1.course_id
     WHERE e1.user_id = ? AND e2.user_id = ? AND e1.workflow_state IN ('active','invited') AND e2.workflow_state IN ` +
      `('active','invited')`,
    a,
    b,
  );
}

export interface EnrollmentFilter {
  course?: number;
  section?: number;
  user?: number;
  /** Only these sections (what a section-limited caller may see). */
  sectionsIn?: number[];
  types: string[];
  roleIds: number[];
  states: string[];
}

/** Ordered by type, then the user's sortable name, then id, as real instances list them. */
export function enrollmentsQuery(f: EnrollmentFilter): KeysetQuery {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.course !== undefined) {
    where.push('e.course_id = ?');
    args.push(f.course);
  }
  if (f.section !== undefined) {
    where.push('e.course_section_id = ?');
    args.push(f.section);
  }
  if (f.user !== undefined) {
    where.push('e.user_id = ?');
    args.push(f.user);
  }
  if (f.sectionsIn) {
    where.push(`e.course_section_id IN (${placeholders(f.sectionsIn.length) || 'NULL'})`);
    args.push(...f.sectionsIn);
  }
  if (f.roleIds.length) {
    where.push(`e.role_id IN (${placeholders(f.roleIds.length)})`);
    args.push(...f.roleIds);
  } else if (f.types.length) {
    where.push(`e.type IN (${placeholders(f.types.length)})`);
    args.push(...f.types);
  }
  if (f.states.length) {
    where.push(`e.workflow_state IN (${placeholders(f.states.length)})`);
    args.push(...f.states);
  }
  return {
    sql:
      'SELECT e.*, u.sortable_name AS user_sortable_name FROM enrollments e JOIN users u ON u.id = e.user_id ' +
      `WHERE ${where.join(' AND ') || '1'}`,
    args,
    key: ['type', 'user_sortable_name', 'id'],
  };
}

/** Students an observer is linked to in a course. */
export function observeesIn(db: Db, observerId: number, courseId: number): number[] {
  return all<{ u: number }>(
    db,
    'SELECT DISTINCT associated_user_id AS u FROM enrollments WHERE user_id = ? AND course_id = ? AND type = ' +
      `'ObserverEnrollment'
       AND workflow_state IN ('active', 'invited') AND associated_user_id IS NOT NULL`,
    observerId,
    courseId,
  ).map((r) => r.u);
}

/** Courses where the user holds an active enrolment of these types. */
export function coursesWhereUserIs(db: Db, userId: number, types: readonly string[]): number[] {
  return all<{ course_id: number }>(
    db,
    `SELECT DISTINCT course_id FROM enrollments WHERE user_id = ? AND workflow_state = 'active' AND type IN ` +
      `(${placeholders(types.length)}) ORDER BY course_id`,
    userId,
    ...types,
  ).map((r) => r.course_id);
}

/** Courses (not deleted) where the user has an active or invited enrolment. */
export function coursesOfUser(db: Db, userId: number): number[] {
  return all<{ id: number }>(
    db,
    `SELECT DISTINCT e.course_id AS id FROM enrollments e JOIN courses c ON c.id = e.course_id
     WHERE e.user_id = ? AND e.workflow_state IN ('active', 'invited') AND c.workflow_state <> 'deleted'`,
    userId,
  ).map((r) => r.id);
}

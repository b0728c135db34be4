// Who a user may message and how recipients are found: the courses and groups they share, the
// people in them, and the recipient list (contexts first, then people by sortable name).
import type { Db } from '../../db/open.js';
import { all, one, placeholders } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';

export interface ScopeCourse {
  id: number;
  account_id: number;
  name: string;
}

export interface ScopeGroup {
  id: number;
  course_id: number;
  name: string;
}

const inList = (ids: readonly unknown[]) => placeholders(ids.length) || 'NULL';

/** Courses the user is actively enrolled in, or that lie in an account they administer (or below it). */
export function candidateCourses(db: Db, userId: number): ScopeCourse[] {
  return all<ScopeCourse>(
    db,
    `WITH RECURSIVE tree(id) AS (
       SELECT au.account_id FROM account_users au WHERE au.user_id = ? AND au.workflow_state = 'active'
       UNION SELECT a.id FROM accounts a JOIN tree ON a.parent_account_id = tree.id)
     SELECT c.id, c.account_id, c.name FROM courses c
     WHERE c.workflow_state NOT IN ('deleted', 'completed')
       AND (c.account_id IN (SELECT id FROM tree)
            OR EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = c.id AND e.user_id = ? AND e.workflow_state = ` +
      `'active'))
     ORDER BY c.id`,
    userId,
    userId,
  );
}

/** Groups the user is a member of. */
export function groupsOfMember(db: Db, userId: number): ScopeGroup[] {
  return all<ScopeGroup>(
    db,
    `SELECT g.id, g.course_id, g.name FROM groups g JOIN group_memberships m ON m.group_id = g.id
     WHERE m.user_id = ? AND m.workflow_state = 'accepted' AND g.workflow_state <> 'deleted' ORDER BY g.id`,
    userId,
  );
}

export function groupExists(db: Db, id: number): boolean {
  return one(db, `SELECT 1 FROM groups WHERE id = ? AND workflow_state <> 'deleted'`, id) !== undefined;
}

/** Groups of these courses. */
export function groupsOfCourses(db: Db, courseIds: readonly number[]): ScopeGroup[] {
  return all<ScopeGroup>(
    db,
    `SELECT id, course_id, name FROM groups WHERE course_id IN (${inList(courseIds)}) AND workflow_state <> ` +
      `'deleted' ORDER BY id`,
    ...courseIds,
  );
}

/** Sections of these courses (a cross-listed section counts in the course it now lives in). */
export function sectionsOfCourses(
  db: Db,
  courseIds: readonly number[],
): { id: number; course_id: number; name: string }[] {
  return all(
    db,
    `SELECT id, course_id, name FROM course_sections WHERE course_id IN (${inList(courseIds)}) AND workflow_state ` +
      `<> 'deleted' ORDER BY id`,
    ...courseIds,
  );
}

/** Groups of a course with a member enrolled in one of these sections. */
export function groupsWithMembersIn(db: Db, courseId: number, sectionIds: readonly number[]): ScopeGroup[] {
  return all<ScopeGroup>(
    db,
    `SELECT g.id, g.course_id, g.name FROM groups g WHERE g.course_id = ? AND g.workflow_state <> 'deleted'
       AND EXISTS (SELECT 1 FROM group_memberships m JOIN enrollments e ON e.user_id = m.user_id AND e.course_id = ` +
      `g.course_id
                   WHERE m.group_id = g.id AND m.workflow_state = 'accepted' AND e.workflow_state IN ('active', ` +
      `'invited')
                     AND e.course_section_id IN (${inList(sectionIds)}))
     ORDER BY g.id`,
    courseId,
    ...sectionIds,
  );
}

/** Those who observe the user, in any course. */
export function observersOf(db: Db, userId: number): number[] {
  return all<{ user_id: number }>(
    db,
    `SELECT DISTINCT user_id FROM enrollments WHERE associated_user_id = ? AND type = 'ObserverEnrollment' AND ` +
      `workflow_state IN ('active', 'invited') ORDER BY user_id`,
    userId,
  ).map((r) => r.user_id);
}

/**
 * The enrollments a sender sees, course by course, as real instances reckon who may be messaged:
 * whole courses, courses seen only in the sender's sections (every messaging role they hold there
 * is limited to its section), and courses where they may reach only the instructors, themself and
 * the students they observe (an observer, or anyone enrolled without the right to send messages).
 */
export interface Audience {
  full: readonly number[];
  sections: readonly { course: number; sections: readonly number[] }[];
  restricted: readonly { course: number; users: readonly number[] }[];
  /** Where the sender is a student, other students' observers are out of sight… */
  studentIn: readonly number[];
  /** …but not those who observe the sender. */
  observers: readonly number[];
}

export const NO_AUDIENCE: Audience = { full: [], sections: [], restricted: [], studentIn: [], observers: [] };

/** The audience within one course. */
export function audienceIn(a: Audience, courseId: number): Audience {
  return {
    full: a.full.filter((c) => c === courseId),
    sections: a.sections.filter((s) => s.course === courseId),
    restricted: a.restricted.filter((r) => r.course === courseId),
    studentIn: a.studentIn.filter((c) => c === courseId),
    observers: a.observers,
  };
}

/**
 * Groups whose members a sender sees: all of them, or (in a course seen by section) those enrolled in the sender's
 * sections.
 */
export interface GroupAudience {
  full: readonly number[];
  sections: readonly { group: number; course: number; sections: readonly number[] }[];
}

export const NO_GROUPS: GroupAudience = { full: [], sections: [] };

/**
 * Where a recipient list draws people from: enrollments the sender sees (optionally of some types or sections) and
 * group members.
 */
export interface PeopleSource {
  audience: Audience;
  /** Enrollment types (StudentEnrollment, …); all when absent. */
  types?: readonly string[];
  /** Only these sections of those courses. */
  sections?: readonly number[];
  groups: GroupAudience;
  /** These users as well (one a shared conversation makes reachable). */
  users?: readonly number[];
}

const LIVE_ENROLLMENT = `IN ('active', 'invited')`;

/** The enrollments (alias `e`) an audience sees, or undefined when it sees none. */
function visibleEnrollments(a: Audience, e = 'e'): { sql: string; args: unknown[] } | undefined {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (a.full.length) {
    parts.push(`${e}.course_id IN (${inList(a.full)})`);
    args.push(...a.full);
  }
  for (const s of a.sections) {
    parts.push(`(${e}.course_id = ? AND ${e}.course_section_id IN (${inList(s.sections)}))`);
    args.push(s.course, ...s.sections);
  }
  for (const r of a.restricted) {
    parts.push(
      `(${e}.course_id = ? AND (${e}.type IN ('TeacherEnrollment', 'TaEnrollment') OR ${e}.user_id IN ` +
        `(${inList(r.users)})))`,
    );
    args.push(r.course, ...r.users);
  }
  if (parts.length === 0) return undefined;
  let sql = parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
  if (a.studentIn.length) {
    sql +=
      ` AND (${e}.type <> 'ObserverEnrollment' OR ${e}.course_id NOT IN (${inList(a.studentIn)}) OR ${e}` +
      `.user_id IN (${inList(a.observers)}))`;
    args.push(...a.studentIn, ...a.observers);
  }
  return { sql, args };
}

/** The memberships (alias `m`) a group audience sees, or undefined when it sees none. */
function visibleMemberships(g: GroupAudience, m = 'm'): { sql: string; args: unknown[] } | undefined {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (g.full.length) {
    parts.push(`${m}.group_id IN (${inList(g.full)})`);
    args.push(...g.full);
  }
  for (const s of g.sections) {
    parts.push(
      `(${m}.group_id = ? AND EXISTS (SELECT 1 FROM enrollments ge WHERE ge.user_id = ${m}.user_id AND ge.course_id ` +
        `= ? AND ge.course_section_id IN (${inList(s.sections)}) AND ge.workflow_state ${LIVE_ENROLLMENT}))`,
    );
    args.push(s.group, s.course, ...s.sections);
  }
  if (parts.length === 0) return undefined;
  return { sql: parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`, args };
}

function peopleWhere(src: PeopleSource): { sql: string; args: unknown[] } {
  const ors: string[] = [];
  const args: unknown[] = [];
  const enrolled = visibleEnrollments(src.audience);
  if (enrolled) {
    const where = [`e.workflow_state ${LIVE_ENROLLMENT}`, enrolled.sql];
    args.push(...enrolled.args);
    if (src.types) {
      where.push(`e.type IN (${inList(src.types)})`);
      args.push(...src.types);
    }
    if (src.sections) {
      where.push(`e.course_section_id IN (${inList(src.sections)})`);
      args.push(...src.sections);
    }
    ors.push(`u.id IN (SELECT e.user_id FROM enrollments e WHERE ${where.join(' AND ')})`);
  }
  const members = visibleMemberships(src.groups);
  if (members) {
    ors.push(
      `u.id IN (SELECT m.user_id FROM group_memberships m WHERE m.workflow_state = 'accepted' AND ${members.sql})`,
    );
    args.push(...members.args);
  }
  if (src.users?.length) {
    ors.push(`u.id IN (${inList(src.users)})`);
    args.push(...src.users);
  }
  return { sql: ors.length ? `(${ors.join(' OR ')})` : '0', args };
}

/** The live users a source holds, in id order. */
export function peopleOf(db: Db, src: PeopleSource): number[] {
  const w = peopleWhere(src);
  return all<{ id: number }>(
    db,
    `SELECT u.id FROM users u WHERE u.workflow_state <> 'deleted' AND ${w.sql} ORDER BY u.id`,
    ...w.args,
  ).map((r) => r.id);
}

/** Which of these users a source holds. */
export function peopleAmong(db: Db, src: PeopleSource, userIds: readonly number[]): Set<number> {
  if (userIds.length === 0) return new Set();
  const w = peopleWhere(src);
  return new Set(
    all<{ id: number }>(
      db,
      `SELECT u.id FROM users u WHERE u.id IN (${inList(userIds)}) AND u.workflow_state <> 'deleted' AND ${w.sql}`,
      ...userIds,
      ...w.args,
    ).map((r) => r.id),
  );
}

export function countPeople(db: Db, src: PeopleSource): number {
  const w = peopleWhere(src);
  return one<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM users u WHERE u.workflow_state <> 'deleted' AND ${w.sql}`,
    ...w.args,
  )!.n;
}

/** A user's enrollment types in the courses a source sees them in, and the groups of it they belong to. */
export function commonContextsOf(
  db: Db,
  userId: number,
  src: PeopleSource,
): { courses: { course_id: number; type: string }[]; groups: number[] } {
  const enrolled = visibleEnrollments(src.audience);
  const members = visibleMemberships(src.groups);
  return {
    courses: enrolled
      ? all(
          db,
          'SELECT DISTINCT e.course_id, e.type FROM enrollments e WHERE e.user_id = ? AND e.workflow_state ' +
            `${LIVE_ENROLLMENT} AND ${enrolled.sql} ORDER BY e.course_id, e.type`,
          userId,
          ...enrolled.args,
        )
      : [],
    groups: members
      ? all<{ group_id: number }>(
          db,
          'SELECT DISTINCT m.group_id FROM group_memberships m WHERE m.user_id = ? AND m.workflow_state = ' +
            `'accepted' AND ${members.sql} ORDER BY m.group_id`,
          userId,
          ...members.args,
        ).map((r) => r.group_id)
      : [],
  };
}

export interface RecipientRow {
  ord: number;
  sort: string;
  ref: string;
  kind: 'course' | 'section' | 'group' | 'user' | 'synthetic';
  rid: number;
  /** A section's or group's course. */
  course_id: number | null;
  name: string;
}

export interface RecipientQuery {
  contexts?: { courses: readonly number[]; sections: readonly number[]; groups: readonly number[] };
  /** Synthetic contexts (`course_1_teachers`, `course_1_sections`), listed first in the order given. */
  synthetic?: readonly { ref: string; name: string }[];
  people?: PeopleSource;
  /** Every term must be a case-insensitive substring of the name. */
  terms: readonly string[];
  excludeUsers: readonly number[];
  excludeContexts: readonly string[];
}

/** Contexts first (by name), then people (by sortable name), case-insensitively: one list, a keyset over the union. */
export function recipientsQuery(q: RecipientQuery): KeysetQuery {
  const parts: string[] = [];
  const args: unknown[] = [];
  // The trigram index serves each %term% (terms under three characters are scanned).
  const match = (expr: string) =>
    q.terms.map(() => ` AND ${expr} IN (SELECT rowid FROM recipient_names WHERE name LIKE ?)`).join('');
  const termArgs = q.terms.map((t) => `%${t}%`);
  (q.synthetic ?? []).forEach((x, i) => {
    // '!' sorts before any lower-cased name: synthetic contexts come first, in their own order.
    parts.push(`SELECT 0 AS ord, ? AS sort, ? AS ref, 'synthetic' AS kind, 0 AS rid, NULL AS course_id, ? AS name`);
    args.push(`!${String(i).padStart(2, '0')}`, x.ref, x.name);
  });
  if (q.contexts) {
    const c = q.contexts;
    // (An empty NOT IN list would be NOT IN (NULL), which nothing passes.)
    const excl = (ref: string) => (q.excludeContexts.length ? ` AND ${ref} NOT IN (${inList(q.excludeContexts)})` : '');
    const exclArgs = q.excludeContexts;
    parts.push(
      `SELECT 0 AS ord, lower(x.name) AS sort, 'course_' || x.id AS ref, 'course' AS kind, x.id AS rid, ` +
        `NULL AS course_id, x.name AS name FROM courses x
                WHERE x.id IN (${inList(c.courses)})${excl(`'course_' || x.id`)}${match('x.id * 4 + 1')}`,
    );
    args.push(...c.courses, ...exclArgs, ...termArgs);
    parts.push(
      `SELECT 0 AS ord, lower(x.name) AS sort, 'section_' || x.id AS ref, 'section' AS kind, x.id AS rid, ` +
        `x.course_id AS course_id, x.name AS name FROM course_sections x
                WHERE x.id IN (${inList(c.sections)}) AND x.workflow_state <> 'deleted'${excl(`'section_' || x.id`)}` +
        `${match('x.id * 4 + 2')}`,
    );
    args.push(...c.sections, ...exclArgs, ...termArgs);
    parts.push(
      `SELECT 0 AS ord, lower(x.name) AS sort, 'group_' || x.id AS ref, 'group' AS kind, x.id AS rid, ` +
        `x.course_id AS course_id, x.name AS name FROM groups x
                WHERE x.id IN (${inList(c.groups)}) AND x.workflow_state <> 'deleted'${excl(`'group_' || x.id`)}` +
        `${match('x.id * 4 + 3')}`,
    );
    args.push(...c.groups, ...exclArgs, ...termArgs);
  }
  if (q.people) {
    const w = peopleWhere(q.people);
    parts.push(
      `SELECT 1 AS ord, lower(u.sortable_name) AS sort, printf('user_%012d', u.id) AS ref, 'user' AS kind, ` +
        `u.id AS rid, NULL AS course_id, u.name AS name FROM users u
                WHERE u.workflow_state <> 'deleted' AND ${w.sql}` +
        `${q.excludeUsers.length ? ` AND u.id NOT IN (${inList(q.excludeUsers)})` : ''}${match('u.id * 4')}`,
    );
    args.push(...w.args, ...q.excludeUsers, ...termArgs);
  }
  if (parts.length === 0)
    parts.push(
      `SELECT 0 AS ord, '' AS sort, '' AS ref, 'user' AS kind, 0 AS rid, NULL AS course_id, '' AS name WHERE 0`,
    );
  return { sql: parts.join('\nUNION ALL\n'), args, key: ['ord', 'sort', 'ref'] };
}

// Groups of a course and their members.
import type { Findable } from '../../db/find.js';
import type { KeysetQuery } from '../../kit.js';
import type { Db } from '../../db/open.js';
import { all, insert, one } from '../../db/statements.js';

export interface GroupRow {
  id: number;
  course_id: number;
  group_category_id: number | null;
  name: string;
  description: string | null;
  workflow_state: string;
  created_at: string;
  members_count: number;
}

export const groups: Findable<GroupRow> = {
  label: 'group',
  table: 'groups',
  deleted: (g) => g.workflow_state === 'deleted',
};

export function createGroupCategory(db: Db, c: { id?: number; course: number; name: string; now: string }): number {
  return insert(
    db,
    `INSERT INTO group_categories (id, course_id, name, created_at) VALUES (?, ?, ?, ?)`,
    c.id ?? null,
    c.course,
    c.name,
    c.now,
  );
}

/** A group set of this course, or undefined. */
export function groupCategoryOfCourse(db: Db, id: number, courseId: number): { id: number; name: string } | undefined {
  return one(db, `SELECT id, name FROM group_categories WHERE id = ? AND course_id = ?`, id, courseId);
}

/** The live groups of a group set, in id order. */
export function groupsOfCategory(db: Db, categoryId: number): number[] {
  return all<{ id: number }>(
    db,
    `SELECT id FROM groups WHERE group_category_id = ? AND workflow_state <> 'deleted' ORDER BY id`,
    categoryId,
  ).map((r) => r.id);
}

export function createGroup(
  db: Db,
  g: { id?: number; course: number; category?: number | null; name: string; description?: string | null; now: string },
): number {
  return insert(
    db,
    `INSERT INTO groups (id, course_id, group_category_id, name, description, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    g.id ?? null,
    g.course,
    g.category ?? null,
    g.name,
    g.description ?? null,
    g.now,
  );
}

export function addMember(db: Db, groupId: number, userId: number): void {
  insert(db, `INSERT INTO group_memberships (group_id, user_id) VALUES (?, ?)`, groupId, userId);
}

export function groupsOfCourseQuery(courseId: number): KeysetQuery {
  return {
    sql:
      'SELECT g.*, (SELECT count(*) FROM group_memberships m WHERE m.group_id = g.id AND m.workflow_state = ' +
      `'accepted') AS members_count
          FROM groups g WHERE g.course_id = ? AND g.workflow_state <> 'deleted'`,
    args: [courseId],
    key: ['id'],
  };
}

/** The group's accepted members. */
export function membersOfGroup(db: Db, groupId: number): number[] {
  return all<{ user_id: number }>(
    db,
    `SELECT user_id FROM group_memberships WHERE group_id = ? AND workflow_state = 'accepted'`,
    groupId,
  ).map((r) => r.user_id);
}

/** The groups of a course the user is an accepted member of. */
export function groupsOfUser(db: Db, userId: number, courseId: number): number[] {
  return all<{ id: number }>(
    db,
    'SELECT g.id FROM groups g JOIN group_memberships m ON m.group_id = g.id WHERE m.user_id = ? AND g.course_id = ' +
      `? AND m.workflow_state = 'accepted' AND g.workflow_state <> 'deleted'`,
    userId,
    courseId,
  ).map((r) => r.id);
}

/** Every group the user is an accepted member of, in any course. */
export function allGroupsOfUser(db: Db, userId: number): number[] {
  return all<{ id: number }>(
    db,
    `SELECT DISTINCT m.group_id AS id FROM group_memberships m JOIN groups g ON g.id = m.group_id
     WHERE m.user_id = ? AND m.workflow_state = 'accepted' AND g.workflow_state <> 'deleted'`,
    userId,
  ).map((r) => r.id);
}

export function isGroupMember(db: Db, groupId: number, userId: number): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM group_memberships WHERE group_id = ? AND user_id = ? AND workflow_state = 'accepted'`,
      groupId,
      userId,
    ) !== undefined
  );
}

// Assignment groups of a course and whether the course weighs them. The only SQL of the area; the
// assignments table's assignment_group_id names a group.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';
import type { GradingRules } from '../../../spec/types/pages.js';

export interface AssignmentGroupRow {
  id: number;
  course_id: number;
  name: string;
  position: number;
  group_weight: number;
  rules: string;
  sis_source_id: string | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export const rulesOf = (g: Pick<AssignmentGroupRow, 'rules'>) => JSON.parse(g.rules) as GradingRules;

export function groupById(db: Db, courseId: number, id: number): AssignmentGroupRow | undefined {
  return one<AssignmentGroupRow>(
    db,
    `SELECT * FROM assignment_groups WHERE id = ? AND course_id = ? AND workflow_state <> 'deleted'`,
    id,
    courseId,
  );
}

export function groupsOfCourse(db: Db, courseId: number): AssignmentGroupRow[] {
  return all<AssignmentGroupRow>(
    db,
    `SELECT * FROM assignment_groups WHERE course_id = ? AND workflow_state <> 'deleted' ORDER BY position, id`,
    courseId,
  );
}

export function groupsQuery(courseId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM assignment_groups WHERE course_id = ? AND workflow_state <> 'deleted'`,
    args: [courseId],
    key: ['position', 'id'],
  };
}

export function createGroup(
  db: Db,
  g: { id?: number; courseId: number; name: string; weight: number; rules: GradingRules; now: string },
): number {
  const position = one<{ p: number }>(
    db,
    'SELECT coalesce(max(position), 0) + 1 AS p FROM assignment_groups WHERE course_id = ? AND workflow_state <> ' +
      `'deleted'`,
    g.courseId,
  )!.p;
  return insert(
    db,
    'INSERT INTO assignment_groups (id, course_id, name, position, group_weight, rules, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    g.id ?? null,
    g.courseId,
    g.name,
    position,
    g.weight,
    JSON.stringify(g.rules),
    g.now,
    g.now,
  );
}

/**
 * The group new assignments of the course land in: its first, or, in a course with none, a new
 * "Assignments" group, as real instances make one.
 */
export function defaultGroupOf(db: Db, courseId: number, now: string): number {
  return (
    groupsOfCourse(db, courseId)[0]?.id ?? createGroup(db, { courseId, name: 'Assignments', weight: 0, rules: {}, now })
  );
}

export function changeGroup(
  db: Db,
  g: AssignmentGroupRow,
  c: { name: string; weight: number; rules: GradingRules; position?: number },
  now: string,
): void {
  run(
    db,
    `UPDATE assignment_groups SET name = ?, group_weight = ?, rules = ?, updated_at = ? WHERE id = ?`,
    c.name,
    c.weight,
    JSON.stringify(c.rules),
    now,
    g.id,
  );
  if (c.position !== undefined) moveTo(db, g, c.position);
}

/** Puts a group at a position (1 is first), the others keeping their order around it, numbered 1… again. */
function moveTo(db: Db, g: AssignmentGroupRow, position: number): void {
  const others = groupsOfCourse(db, g.course_id).filter((x) => x.id !== g.id);
  const at = Math.min(Math.max(position, 1), others.length + 1) - 1;
  const order = [...others.slice(0, at).map((x) => x.id), g.id, ...others.slice(at).map((x) => x.id)];
  for (const [i, id] of order.entries()) run(db, `UPDATE assignment_groups SET position = ? WHERE id = ?`, i + 1, id);
}

/**
 * Deletes a group: its live assignments move to `moveTo`, or are deleted with it (softly, their
 * submissions kept), as real instances do. Reads and writes the assignments table.
 */
export function deleteGroup(db: Db, g: AssignmentGroupRow, moveTo: number | undefined, now: string): void {
  if (moveTo !== undefined)
    run(
      db,
      'UPDATE assignments SET assignment_group_id = ?, updated_at = ? WHERE assignment_group_id = ? AND deleted_at ' +
        'IS NULL',
      moveTo,
      now,
      g.id,
    );
  else
    run(
      db,
      'UPDATE assignments SET published = 0, deleted_at = ?, updated_at = ? WHERE assignment_group_id = ? AND ' +
        'deleted_at IS NULL',
      now,
      now,
      g.id,
    );
  run(db, `UPDATE assignment_groups SET workflow_state = 'deleted', updated_at = ? WHERE id = ?`, now, g.id);
}

/** The ids of a group's live assignments, in their order (published only, unless `withUnpublished`). */
export function assignmentIdsOfGroup(db: Db, groupId: number, withUnpublished: boolean): number[] {
  return all<{ id: number }>(
    db,
    'SELECT id FROM assignments WHERE assignment_group_id = ? AND deleted_at IS NULL ' +
      `${withUnpublished ? '' : 'AND published = 1'} ORDER BY position, id`,
    groupId,
  ).map((r) => r.id);
}

export function weighsGroups(db: Db, courseId: number): boolean {
  return (
    one<{ w: number }>(db, `SELECT apply_group_weights AS w FROM course_group_weighting WHERE course_id = ?`, courseId)
      ?.w === 1
  );
}

export function setWeighsGroups(db: Db, courseId: number, on: boolean): void {
  run(
    db,
    `INSERT INTO course_group_weighting (course_id, apply_group_weights) VALUES (?, ?)
       ON CONFLICT (course_id) DO UPDATE SET apply_group_weights = excluded.apply_group_weights`,
    courseId,
    on ? 1 : 0,
  );
}

/**
 * What a student's course grade is computed from: each published, graded assignment's group, points and the student's
 * score.
 */
export function gradedWorkOf(
  db: Db,
  courseId: number,
  userId: number,
): { assignment_id: number; group_id: number; points: number; score: number | null; excused: number }[] {
  return all(
    db,
    `SELECT a.id AS assignment_id, a.assignment_group_id AS group_id, coalesce(a.points_possible, 0) AS points,
            s.score AS score, coalesce(s.excused, 0) AS excused
       FROM assignments a
       JOIN assignment_groups g ON g.id = a.assignment_group_id AND g.workflow_state <> 'deleted'
       LEFT JOIN submissions s ON s.assignment_id = a.id AND s.user_id = ?
      WHERE a.course_id = ? AND a.deleted_at IS NULL AND a.published = 1 AND a.grading_type <> 'not_graded'
      ORDER BY a.id`,
    userId,
    courseId,
  );
}

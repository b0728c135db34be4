// Assignments of a course, in their position order.
import { containsLike } from '../../db/contains.js';
import type { Db } from '../../db/open.js';
import type { KeysetQuery } from '../../kit.js';
import { all, insert, one, run } from '../../db/statements.js';
import { defaultGroupOf } from '../assignment-groups/repo.js';

export interface AssignmentRow {
  id: number;
  course_id: number;
  assignment_group_id: number;
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
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A live assignment: a deleted one is gone for every reader, as on real instances. */
export function assignmentById(db: Db, id: number): AssignmentRow | undefined {
  return one<AssignmentRow>(db, `SELECT * FROM assignments WHERE id = ? AND deleted_at IS NULL`, id);
}

export interface NewAssignment {
  id?: number;
  course: number;
  name: string;
  description: string | null;
  points: number;
  gradingType: string;
  submissionTypes: string[];
  dueAt?: string | null;
  lockAt?: string | null;
  unlockAt?: string | null;
  gradingStandardId?: number | null;
  /** The course's first group unless named. */
  groupId?: number;
  published: boolean;
  now: string;
}

/** Appends the assignment after the course's last one. */
export function createAssignment(db: Db, a: NewAssignment): number {
  const position = one<{ p: number }>(
    db,
    `SELECT coalesce(max(position), 0) + 1 AS p FROM assignments WHERE course_id = ?`,
    a.course,
  )!.p;
  return insert(
    db,
    'INSERT INTO assignments (id, course_id, assignment_group_id, name, description, points_possible, grading_type, ' +
      `submission_types, due_at, lock_at, unlock_at, grading_standard_id, position, published, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    a.id ?? null,
    a.course,
    a.groupId ?? defaultGroupOf(db, a.course, a.now),
    a.name,
    a.description,
    a.points,
    a.gradingType,
    JSON.stringify(a.submissionTypes),
    a.dueAt ?? null,
    a.lockAt ?? null,
    a.unlockAt ?? null,
    a.gradingStandardId ?? null,
    position,
    a.published ? 1 : 0,
    a.now,
    a.now,
  );
}

export function assignmentsOfCourseQuery(
  courseId: number,
  o: { withUnpublished: boolean; term?: string },
): KeysetQuery {
  const where = ['course_id = ?', 'deleted_at IS NULL'];
  const args: unknown[] = [courseId];
  if (!o.withUnpublished) where.push('published = 1');
  if (o.term) {
    // One course's assignments are few: a scan, with the term's own % and _ matched literally.
    const { operator, pattern } = containsLike(o.term);
    where.push(`name ${operator}`);
    args.push(pattern);
  }
  return { sql: `SELECT * FROM assignments WHERE ${where.join(' AND ')}`, args, key: ['position', 'id'] };
}

/** A letter scheme of a course (a grading standard): names with lower bounds, highest first. */
export function createGradingStandard(
  db: Db,
  g: { id?: number; courseId: number; title: string; scheme: { name: string; value: number }[]; now: string },
): number {
  return insert(
    db,
    `INSERT INTO grading_standards (id, context_type, context_id, title, scheme, created_at) VALUES (?, 'Course', ` +
      '?, ?, ?, ?)',
    g.id ?? null,
    g.courseId,
    g.title,
    JSON.stringify(g.scheme),
    g.now,
  );
}

/** The scheme an assignment names, or undefined (then the default scheme applies). */
export function gradingSchemeOf(
  db: Db,
  a: Pick<AssignmentRow, 'grading_standard_id'>,
): { name: string; value: number }[] | undefined {
  if (a.grading_standard_id === null) return undefined;
  const row = one<{ scheme: string }>(db, `SELECT scheme FROM grading_standards WHERE id = ?`, a.grading_standard_id);
  return row ? (JSON.parse(row.scheme) as { name: string; value: number }[]) : undefined;
}

/**
 * Deletes an assignment as real instances do: the row stays, unpublished and marked deleted, so its
 * submissions and grades are kept (every query for published assignments leaves it out).
 */
export function deleteAssignment(db: Db, id: number, now: string): void {
  run(db, `UPDATE assignments SET published = 0, deleted_at = ?, updated_at = ? WHERE id = ?`, now, now, id);
}

/** Changes what another record (a graded quiz) keeps in step: names, dates, points and publication. */
export function updateAssignment(
  db: Db,
  id: number,
  a: Pick<NewAssignment, 'name' | 'description' | 'points' | 'dueAt' | 'lockAt' | 'unlockAt' | 'published' | 'now'>,
): void {
  run(
    db,
    'UPDATE assignments SET name = ?, description = ?, points_possible = ?, due_at = ?, lock_at = ?, unlock_at = ?, ' +
      'published = ?, updated_at = ? WHERE id = ?',
    a.name,
    a.description,
    a.points,
    a.dueAt ?? null,
    a.lockAt ?? null,
    a.unlockAt ?? null,
    a.published ? 1 : 0,
    a.now,
    id,
  );
}

/** Sets an assignment's points: a rubric that grades it sets them to its own (canvas-lms's rubric_association.rb). */
export function setPointsPossible(db: Db, id: number, points: number, now: string): void {
  run(db, `UPDATE assignments SET points_possible = ?, updated_at = ? WHERE id = ?`, points, now, id);
}

/** Puts an assignment in another group of its course (what a graded quiz's group says). */
export function moveToGroup(db: Db, id: number, groupId: number): void {
  run(db, `UPDATE assignments SET assignment_group_id = ? WHERE id = ?`, groupId, id);
}

/** An assignment's own fields, as the assignments API sets them. */
export interface AssignmentChange {
  name: string;
  description: string | null;
  points_possible: number | null;
  grading_type: string;
  submission_types: string[];
  due_at: string | null;
  lock_at: string | null;
  unlock_at: string | null;
  grading_standard_id: number | null;
  published: boolean;
  assignment_group_id: number;
}

export function changeAssignment(db: Db, id: number, a: AssignmentChange, now: string): void {
  run(
    db,
    'UPDATE assignments SET name = ?, description = ?, points_possible = ?, grading_type = ?, submission_types = ?, ' +
      `due_at = ?, lock_at = ?, unlock_at = ?,
       grading_standard_id = ?, published = ?, assignment_group_id = ?, updated_at = ? WHERE id = ?`,
    a.name,
    a.description,
    a.points_possible,
    a.grading_type,
    JSON.stringify(a.submission_types),
    a.due_at,
    a.lock_at,
    a.unlock_at,
    a.grading_standard_id,
    a.published ? 1 : 0,
    a.assignment_group_id,
    now,
    id,
  );
}

/**
 * A student has turned something in for the assignment (a submission with a type, as real instances
 * count them): then it cannot be unpublished. Reads the submissions and enrollments tables.
 */
export function hasStudentSubmissions(db: Db, a: Pick<AssignmentRow, 'id' | 'course_id'>): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM submissions s WHERE s.assignment_id = ? AND s.submission_type IS NOT NULL
         AND EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = ? AND e.user_id = s.user_id AND e.type = ` +
        `'StudentEnrollment' AND e.workflow_state NOT IN ('deleted', 'rejected'))
       LIMIT 1`,
      a.id,
      a.course_id,
    ) !== undefined
  );
}

/** The live quiz and discussion topics an assignment grades. Reads the quizzes and discussion_topics tables. */
export function carriersOf(db: Db, assignmentId: number): { quiz?: number; topics: number[] } {
  const quiz = one<{ id: number }>(
    db,
    `SELECT id FROM quizzes WHERE assignment_id = ? AND workflow_state <> 'deleted' ORDER BY id LIMIT 1`,
    assignmentId,
  );
  const topics = all<{ id: number }>(
    db,
    `SELECT id FROM discussion_topics WHERE assignment_id = ? AND workflow_state <> 'deleted' ORDER BY id`,
    assignmentId,
  );
  return { ...(quiz ? { quiz: quiz.id } : {}), topics: topics.map((t) => t.id) };
}

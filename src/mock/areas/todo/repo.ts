// What is on a user's plate: assignments waiting for their grading or their submission, and the
// items they set aside.
import type { Db } from '../../db/open.js';
import { all, placeholders, run } from '../../db/statements.js';
import type { AssignmentRow } from '../assignments/repo.js';
import { NEEDS_GRADING } from '../submissions/repo.js';

/**
 * Published assignments of a course with submissions waiting for grading from these students (all, when `students` is
 * absent).
 */
export function assignmentsNeedingGrading(
  db: Db,
  courseId: number,
  students?: readonly number[],
): (AssignmentRow & { needs_grading_count: number; last_submitted_at: string | null })[] {
  const among = students ? `AND s.user_id IN (${placeholders(students.length)})` : '';
  return all(
    db,
    `SELECT a.*, count(*) AS needs_grading_count, max(s.submitted_at) AS last_submitted_at
     FROM assignments a JOIN submissions s ON s.assignment_id = a.id
     WHERE a.course_id = ? AND a.published = 1 AND ${NEEDS_GRADING} ${among}
     GROUP BY a.id ORDER BY a.due_at IS NULL, a.due_at, a.id`,
    courseId,
    ...(students ?? []),
  );
}

/**
 * Published assignments of these courses due in [from, until) that take a submission and the user has not turned in.
 */
export function assignmentsToSubmit(
  db: Db,
  userId: number,
  courses: readonly number[],
  from: string,
  until: string,
): AssignmentRow[] {
  return all<AssignmentRow>(
    db,
    `SELECT a.* FROM assignments a
     LEFT JOIN submissions s ON s.assignment_id = a.id AND s.user_id = ?
     WHERE a.course_id IN (${placeholders(courses.length)}) AND a.published = 1 AND a.due_at >= ? AND a.due_at < ?
       AND a.submission_types NOT IN ('["none"]', '["on_paper"]')
       AND (s.id IS NULL OR (s.workflow_state = 'unsubmitted' AND s.excused = 0))
     ORDER BY a.due_at, a.id`,
    userId,
    ...courses,
    from,
    until,
  );
}

export interface IgnoreRow {
  asset_string: string;
  purpose: string;
  permanent: number;
  marker: string;
}

export function ignoresOf(db: Db, userId: number): IgnoreRow[] {
  return all<IgnoreRow>(
    db,
    `SELECT asset_string, purpose, permanent, marker FROM todo_ignores WHERE user_id = ?`,
    userId,
  );
}

export function ignore(
  db: Db,
  i: { user: number; asset: string; purpose: string; permanent: boolean; marker: string; now: string },
): void {
  run(
    db,
    `INSERT INTO todo_ignores (user_id, asset_string, purpose, permanent, marker, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, asset_string, purpose) DO UPDATE SET permanent = max(permanent, excluded.permanent), ` +
      'marker = excluded.marker, created_at = excluded.created_at',
    i.user,
    i.asset,
    i.purpose,
    i.permanent ? 1 : 0,
    i.marker,
    i.now,
  );
}

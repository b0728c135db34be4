// Submissions, their attempts and comments, and the versions grading writes
// (what gradebook history reads).
import type { Db } from '../../db/open.js';
import type { KeysetQuery } from '../../kit.js';
import { all, insert, one, placeholders, run } from '../../db/statements.js';

export interface SubmissionRow {
  id: number;
  assignment_id: number;
  user_id: number;
  course_id: number;
  workflow_state: 'unsubmitted' | 'submitted' | 'graded' | 'pending_review';
  submission_type: string | null;
  body: string | null;
  url: string | null;
  /** JSON array of attachment ids. */
  attachment_ids: string | null;
  media_comment_id: string | null;
  media_comment_type: string | null;
  attempt: number | null;
  submitted_at: string | null;
  score: number | null;
  grade: string | null;
  graded_at: string | null;
  grader_id: number | null;
  excused: number;
  grade_matches_current_submission: number;
  created_at: string;
  updated_at: string;
}

export interface AttemptRow {
  submission_id: number;
  attempt: number;
  submission_type: string;
  body: string | null;
  url: string | null;
  attachment_ids: string | null;
  media_comment_id: string | null;
  media_comment_type: string | null;
  submitted_at: string;
}

export interface CommentRow {
  id: number;
  submission_id: number;
  author_id: number;
  author_name: string;
  comment: string;
  media_comment_id: string | null;
  media_comment_type: string | null;
  attempt: number | null;
  created_at: string;
}

export interface VersionRow {
  id: number;
  submission_id: number;
  course_id: number;
  assignment_id: number;
  user_id: number;
  attempt: number | null;
  workflow_state: string;
  submission_type: string | null;
  submitted_at: string | null;
  score: number | null;
  grade: string | null;
  graded_at: string;
  grader_id: number;
  graded_day: string;
  previous_score: number | null;
  previous_grade: string | null;
  previous_graded_at: string | null;
  previous_grader_id: number | null;
}

/** Students of a course (or of some of its sections) whose submissions the course keeps. */
const STUDENTS =
  `SELECT user_id FROM enrollments WHERE course_id = ? AND type = 'StudentEnrollment' AND ` +
  `workflow_state IN ('active', 'invited', 'completed')`;

function studentFilter(courseId: number, sections?: readonly number[]): { sql: string; args: unknown[] } {
  if (!sections) return { sql: STUDENTS, args: [courseId] };
  return {
    sql: `${STUDENTS} AND course_section_id IN (${placeholders(sections.length) || 'NULL'})`,
    args: [courseId, ...sections],
  };
}

/**
 * The enrollment states of a course's current students, whose submissions an assignment's list
 * shows: real instances build it from `student_enrollments`, which leave out concluded, inactive,
 * deleted and rejected ones. A list across students (`…/students/submissions`) keeps concluded ones.
 */
const CURRENT = `NOT IN ('completed', 'inactive', 'deleted', 'rejected')`;
const KEPT = `IN ('active', 'invited', 'completed')`;

/** `EXISTS (…)`: the row's user (`<alias>.user_id`) is a student of the course: one indexed probe a row. */
function studentExists(
  alias: string,
  courseId: number,
  sections?: readonly number[],
  current = false,
): { sql: string; args: unknown[] } {
  const inSections = sections ? ` AND e.course_section_id IN (${placeholders(sections.length) || 'NULL'})` : '';
  return {
    sql:
      `EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = ? AND e.user_id = ${alias}.user_id AND e.type = ` +
      `'StudentEnrollment'
      AND e.workflow_state ${current ? CURRENT : KEPT}${inSections})`,
    args: [courseId, ...(sections ?? [])],
  };
}

/**
 * A submission (as `s`) waits for grading when it was turned in and its grade, if any, is for an
 * earlier attempt. `graded` with a stale grade is how databases written before resubmissions went
 * back to `submitted` hold one.
 */
export const NEEDS_GRADING =
  `s.excused = 0 AND (s.workflow_state IN ('submitted', 'pending_review') OR ` +
  `(s.workflow_state = 'graded' AND s.grade_matches_current_submission = 0))`;

/** How many of an assignment's submissions wait for grading. */
export function needsGradingCount(db: Db, assignmentId: number): number {
  return one<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM submissions s WHERE s.assignment_id = ? AND ${NEEDS_GRADING}`,
    assignmentId,
  )!.n;
}

export function isStudentOf(db: Db, userId: number, courseId: number, sections?: readonly number[]): boolean {
  const f = studentFilter(courseId, sections);
  return one(db, `${f.sql} AND user_id = ? LIMIT 1`, ...f.args, userId) !== undefined;
}

/** A student who may submit: an active enrollment (in one of the sections, when given). */
export function isActiveStudentOf(db: Db, userId: number, courseId: number, sections?: readonly number[]): boolean {
  const f = studentFilter(courseId, sections);
  return one(db, `${f.sql} AND user_id = ? AND workflow_state = 'active' LIMIT 1`, ...f.args, userId) !== undefined;
}

/** The attempt the submission's current grade was given on (what its last version recorded). */
export function gradedAttempt(db: Db, submissionId: number): number | null | undefined {
  return one<{ attempt: number | null }>(
    db,
    `SELECT attempt FROM submission_versions WHERE submission_id = ? ORDER BY id DESC LIMIT 1`,
    submissionId,
  )?.attempt;
}

export function submissionOf(db: Db, assignmentId: number, userId: number): SubmissionRow | undefined {
  return one<SubmissionRow>(
    db,
    `SELECT * FROM submissions WHERE assignment_id = ? AND user_id = ?`,
    assignmentId,
    userId,
  );
}

export function submissionById(db: Db, id: number): SubmissionRow | undefined {
  return one<SubmissionRow>(db, `SELECT * FROM submissions WHERE id = ?`, id);
}

/** The submission of a student, made (unsubmitted) if it is not there yet. */
export function ensureSubmission(
  db: Db,
  a: { id: number; course_id: number },
  userId: number,
  now: string,
): SubmissionRow {
  run(
    db,
    'INSERT OR IGNORE INTO submissions (assignment_id, user_id, course_id, created_at, updated_at) VALUES (?, ?, ?, ' +
      '?, ?)',
    a.id,
    userId,
    a.course_id,
    now,
    now,
  );
  return submissionOf(db, a.id, userId)!;
}

/**
 * Every student of the course gets their (unsubmitted) submission of the assignments, as real instances keep one each.
 */
export function ensureSubmissionsOf(db: Db, courseId: number, assignmentIds: readonly number[], now: string): void {
  if (!assignmentIds.length) return;
  run(
    db,
    `INSERT OR IGNORE INTO submissions (assignment_id, user_id, course_id, created_at, updated_at)
     SELECT a.id, s.user_id, ?, ?, ? FROM assignments a, (${STUDENTS}) s WHERE a.id IN ` +
      `(${placeholders(assignmentIds.length)})`,
    courseId,
    now,
    now,
    courseId,
    ...assignmentIds,
  );
}

/** Submissions of one assignment by current students of the course (or of some sections), by user id. */
export function submissionsOfAssignmentQuery(
  assignmentId: number,
  courseId: number,
  o: { sections?: readonly number[] },
): KeysetQuery {
  const f = studentExists('s', courseId, o.sections, true);
  return {
    sql: `SELECT s.* FROM submissions s WHERE s.assignment_id = ? AND ${f.sql}`,
    args: [assignmentId, ...f.args],
    key: ['user_id'],
  };
}

/** Submissions of some students across some assignments of a course, by student then assignment. */
export function submissionsOfStudentsQuery(
  courseId: number,
  o: { sections?: readonly number[]; users?: readonly number[]; assignments: readonly number[] },
): KeysetQuery {
  const f = studentExists('s', courseId, o.sections);
  const where = ['s.course_id = ?', f.sql, `s.assignment_id IN (${placeholders(o.assignments.length) || 'NULL'})`];
  const args: unknown[] = [courseId, ...f.args, ...o.assignments];
  if (o.users) {
    where.push(`s.user_id IN (${placeholders(o.users.length) || 'NULL'})`);
    args.push(...o.users);
  }
  return { sql: `SELECT s.* FROM submissions s WHERE ${where.join(' AND ')}`, args, key: ['user_id', 'assignment_id'] };
}

/** Students of a course (or of some sections), one row each, by user id: what `grouped` pages over. */
export function studentsQuery(
  courseId: number,
  o: { sections?: readonly number[]; users?: readonly number[] },
): KeysetQuery {
  const f = studentFilter(courseId, o.sections);
  const where = [
    `e.course_id = ?`,
    `e.type = 'StudentEnrollment'`,
    `e.workflow_state IN ('active', 'invited', 'completed')`,
    `e.user_id IN (${f.sql})`,
  ];
  const args: unknown[] = [courseId, ...f.args];
  if (o.users) {
    where.push(`e.user_id IN (${placeholders(o.users.length) || 'NULL'})`);
    args.push(...o.users);
  }
  return {
    sql:
      `SELECT e.user_id, min(e.course_section_id) AS section_id FROM enrollments e WHERE ${where.join(' AND ')} ` +
      'GROUP BY e.user_id',
    args,
    key: ['user_id'],
  };
}

export function submissionsOfUserIn(
  db: Db,
  userId: number,
  courseId: number,
  assignmentIds: readonly number[],
): SubmissionRow[] {
  return all<SubmissionRow>(
    db,
    'SELECT * FROM submissions WHERE user_id = ? AND course_id = ? AND assignment_id IN ' +
      `(${placeholders(assignmentIds.length) || 'NULL'}) ORDER BY assignment_id`,
    userId,
    courseId,
    ...assignmentIds,
  );
}

export interface NewAttempt {
  type: string;
  body?: string | null;
  url?: string | null;
  attachmentIds?: number[] | null;
  mediaId?: string | null;
  mediaType?: string | null;
}

/**
 * A new attempt: the submission holds it, and its history keeps it. As on real instances, a graded
 * submission goes back to `submitted` (waiting for a grader again) and keeps its grade, which no
 * longer matches: the grade is the earlier attempt's until someone grades this one.
 */
export function addAttempt(db: Db, sub: SubmissionRow, a: NewAttempt, now: string): SubmissionRow {
  const attempt = (sub.attempt ?? 0) + 1;
  const files = a.attachmentIds ? JSON.stringify(a.attachmentIds) : null;
  // The grade held, not the state: a second resubmission finds the state `submitted` already.
  const holdsGrade = sub.grade !== null || sub.score !== null;
  run(
    db,
    `UPDATE submissions SET workflow_state = 'submitted', submission_type = ?, body = ?, url = ?, attachment_ids = ` +
      `?, media_comment_id = ?, media_comment_type = ?,
       attempt = ?, submitted_at = ?, grade_matches_current_submission = ?, updated_at = ? WHERE id = ?`,
    a.type,
    a.body ?? null,
    a.url ?? null,
    files,
    a.mediaId ?? null,
    a.mediaType ?? null,
    attempt,
    now,
    holdsGrade ? 0 : 1,
    now,
    sub.id,
  );
  run(
    db,
    'INSERT INTO submission_attempts (submission_id, attempt, submission_type, body, url, attachment_ids, ' +
      `media_comment_id, media_comment_type, submitted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    sub.id,
    attempt,
    a.type,
    a.body ?? null,
    a.url ?? null,
    files,
    a.mediaId ?? null,
    a.mediaType ?? null,
    now,
  );
  return submissionById(db, sub.id)!;
}

export function attemptsOf(db: Db, submissionId: number): AttemptRow[] {
  return all<AttemptRow>(
    db,
    `SELECT * FROM submission_attempts WHERE submission_id = ? ORDER BY attempt`,
    submissionId,
  );
}

export interface GradeChange {
  score: number | null;
  grade: string | null;
  excused?: boolean;
  graderId: number;
  now: string;
  /** graded_at's day in the course's time zone. */
  day: string;
}

/**
 * Sets a grade. A grade equal to the one held changes nothing and writes no version;
so sending the
 * same grade again (a retried request, a re-run of a file) leaves the history as it was — unless the
 * student resubmitted since: then the same grade grades the new attempt;
which is a change.
 */
export function setGrade(db: Db, sub: SubmissionRow, g: GradeChange): boolean {
  const excused = g.excused ? 1 : 0;
  if (
    sub.score === g.score &&
    sub.grade === g.grade &&
    sub.excused === excused &&
    sub.grade_matches_current_submission === 1
  )
    return false;
  const state = g.grade !== null || excused ? 'graded' : sub.submitted_at ? 'submitted' : 'unsubmitted';
  run(
    db,
    'UPDATE submissions SET score = ?, grade = ?, excused = ?, workflow_state = ?, graded_at = ?, grader_id = ?, ' +
      'grade_matches_current_submission = 1, updated_at = ? WHERE id = ?',
    g.score,
    g.grade,
    excused,
    state,
    g.now,
    g.graderId,
    g.now,
    sub.id,
  );
  insert(
    db,
    'INSERT INTO submission_versions (submission_id, course_id, assignment_id, user_id, attempt, workflow_state, ' +
      `submission_type, submitted_at, score, grade,
       graded_at, grader_id, graded_day, previous_score, previous_grade, previous_graded_at, previous_grader_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    sub.id,
    sub.course_id,
    sub.assignment_id,
    sub.user_id,
    sub.attempt,
    state,
    sub.submission_type,
    sub.submitted_at,
    g.score,
    g.grade,
    g.now,
    g.graderId,
    g.day,
    sub.score,
    sub.grade,
    sub.graded_at,
    sub.grader_id,
  );
  return true;
}

export function addComment(
  db: Db,
  c: {
    submissionId: number;
    authorId: number;
    comment: string;
    mediaId?: string | null;
    mediaType?: string | null;
    attempt: number | null;
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO submission_comments (submission_id, author_id, comment, media_comment_id, media_comment_type, ' +
      'attempt, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    c.submissionId,
    c.authorId,
    c.comment,
    c.mediaId ?? null,
    c.mediaType ?? null,
    c.attempt,
    c.now,
  );
}

export function commentsOf(db: Db, submissionId: number): CommentRow[] {
  return all<CommentRow>(
    db,
    'SELECT c.*, u.name AS author_name FROM submission_comments c JOIN users u ON u.id = c.author_id WHERE ' +
      'c.submission_id = ? ORDER BY c.id',
    submissionId,
  );
}

export function publishedAssignmentIds(db: Db, courseId: number): number[] {
  return all<{ id: number }>(
    db,
    `SELECT id FROM assignments WHERE course_id = ? AND published = 1 ORDER BY position, id`,
    courseId,
  ).map((r) => r.id);
}

// ---- gradebook history --------------------------------------------------------------------------

export interface DayGrader {
  graded_day: string;
  grader_id: number;
  assignment_id: number;
}

/** The history leaves out the versions of deleted assignments (kept, as their grades are, but shown to no one). */
const OF_LIVE_ASSIGNMENT = `assignment_id NOT IN (SELECT id FROM assignments WHERE deleted_at IS NOT NULL)`;

/** Days with grading, newest first, each with its graders and their assignments. */
export function gradingDays(db: Db, courseId: number): DayGrader[] {
  return all<DayGrader>(
    db,
    'SELECT DISTINCT graded_day, grader_id, assignment_id FROM submission_versions WHERE course_id = ? AND ' +
      `${OF_LIVE_ASSIGNMENT} ORDER BY graded_day DESC, grader_id, assignment_id`,
    courseId,
  );
}

export function gradersOfDay(db: Db, courseId: number, day: string): DayGrader[] {
  return all<DayGrader>(
    db,
    'SELECT DISTINCT graded_day, grader_id, assignment_id FROM submission_versions WHERE course_id = ? AND ' +
      `graded_day = ? AND ${OF_LIVE_ASSIGNMENT} ORDER BY grader_id, assignment_id`,
    courseId,
    day,
  );
}

/** One grader's versions of one assignment on one day, newest first. */
export function versionsOfDay(
  db: Db,
  courseId: number,
  day: string,
  graderId: number,
  assignmentId: number,
): VersionRow[] {
  return all<VersionRow>(
    db,
    'SELECT * FROM submission_versions WHERE course_id = ? AND graded_day = ? AND grader_id = ? AND assignment_id = ' +
      '? ORDER BY graded_at DESC, id DESC',
    courseId,
    day,
    graderId,
    assignmentId,
  );
}

/** The feed: every version of the course, newest first (or oldest first), by assignment and/or student. */
export function feedQuery(
  courseId: number,
  o: { assignmentId?: number; userId?: number; ascending: boolean },
): KeysetQuery {
  const where = ['course_id = ?', OF_LIVE_ASSIGNMENT];
  const args: unknown[] = [courseId];
  if (o.assignmentId !== undefined) {
    where.push('assignment_id = ?');
    args.push(o.assignmentId);
  }
  if (o.userId !== undefined) {
    where.push('user_id = ?');
    args.push(o.userId);
  }
  return {
    sql: `SELECT * FROM submission_versions WHERE ${where.join(' AND ')}`,
    args,
    key: ['graded_at', 'id'],
    descending: !o.ascending,
  };
}

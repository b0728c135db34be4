// Courses: what enrollments, sections, assignments and groups hang from.
import { containsLike, indexable } from '../../db/contains.js';
import { accountById } from '../accounts/repo.js';
import { numericId, type Findable } from '../../db/find.js';
import type { KeysetQuery } from '../../kit.js';
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';

export interface CourseRow {
  id: number;
  account_id: number;
  root_account_id: number;
  name: string;
  course_code: string;
  sis_course_id: string | null;
  workflow_state: string;
  start_at: string | null;
  end_at: string | null;
  time_zone: string;
  created_at: string;
  /** Null only for a moment in a database being carried over (schema.ts's `carried`). */
  enrollment_term_id: number | null;
  integration_id: string | null;
}

export const courses: Findable<CourseRow> = {
  label: 'course',
  table: 'courses',
  sis: { sis_course_id: `SELECT id FROM courses WHERE sis_course_id = ? ORDER BY id LIMIT 1` },
  deleted: (c) => c.workflow_state === 'deleted',
};

export function courseById(db: Db, id: number): CourseRow | undefined {
  return one<CourseRow>(db, `SELECT * FROM courses WHERE id = ?`, id);
}

/**
 * Another course of the root account holds this SIS or integration id (`except`: the course being
 * changed): each is unique within a root account.
 */
export function courseIdTaken(
  db: Db,
  rootAccountId: number,
  column: 'sis_course_id' | 'integration_id',
  value: string,
  except?: number,
): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM courses WHERE root_account_id = ? AND ${column} = ? AND id <> ?`,
      rootAccountId,
      value,
      except ?? -1,
    ) !== undefined
  );
}

export function createCourse(
  db: Db,
  c: {
    id?: number;
    account: number;
    root: number;
    name: string;
    code: string;
    sis?: string | null;
    state: string;
    startAt?: string | null;
    endAt?: string | null;
    timeZone?: string;
    /** Its term; without one, the root account's default term. */
    term?: number;
    integrationId?: string | null;
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO courses (id, account_id, root_account_id, name, course_code, sis_course_id, workflow_state, ' +
      'start_at, end_at, time_zone, created_at, enrollment_term_id, integration_id) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    // Without a zone of its own, the course keeps its root account's default.
    c.id ?? null,
    c.account,
    c.root,
    c.name,
    c.code,
    c.sis ?? null,
    c.state,
    c.startAt ?? null,
    c.endAt ?? null,
    c.timeZone ?? accountById(db, c.root)!.default_time_zone,
    c.now,
    c.term ?? defaultTermOf(db, c.root, c.now),
    c.integrationId ?? null,
  );
}

export type CourseChange = Pick<
  CourseRow,
  | 'name'
  | 'course_code'
  | 'sis_course_id'
  | 'workflow_state'
  | 'start_at'
  | 'end_at'
  | 'time_zone'
  | 'enrollment_term_id'
  | 'integration_id'
>;

export function updateCourse(db: Db, id: number, c: CourseChange): void {
  run(
    db,
    'UPDATE courses SET name = ?, course_code = ?, sis_course_id = ?, workflow_state = ?, start_at = ?, end_at = ?, ' +
      'time_zone = ?, enrollment_term_id = ?, integration_id = ? WHERE id = ?',
    c.name,
    c.course_code,
    c.sis_course_id,
    c.workflow_state,
    c.start_at,
    c.end_at,
    c.time_zone,
    c.enrollment_term_id,
    c.integration_id,
    id,
  );
}

/**
 * A student of the course has a score or a grade on one of its live assignments: what keeps real
 * instances from unpublishing a course. (Reads the enrollments, assignments and submissions tables.)
 */
export function hasGradedStudentWork(db: Db, courseId: number): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM submissions s
         JOIN assignments a ON a.id = s.assignment_id AND a.deleted_at IS NULL
        WHERE s.course_id = ? AND (s.score IS NOT NULL OR s.grade IS NOT NULL)
          AND EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = s.course_id AND e.user_id = s.user_id AND ` +
        `e.type = 'StudentEnrollment' AND e.workflow_state NOT IN ('deleted', 'rejected'))
        LIMIT 1`,
      courseId,
    ) !== undefined
  );
}

/** Courses a user is enrolled in (active or invited), optionally of one enrollment type and course states. */
export function coursesOfUserQuery(userId: number, type?: string, states: string[] = []): KeysetQuery {
  const enrolled = [`e.course_id = c.id`, `e.user_id = ?`, `e.workflow_state IN ('active', 'invited')`];
  const args: unknown[] = [userId];
  if (type) {
    enrolled.push('e.type = ?');
    args.push(type);
  }
  const where = [
    `c.workflow_state <> 'deleted'`,
    `EXISTS (SELECT 1 FROM enrollments e WHERE ${enrolled.join(' AND ')})`,
  ];
  if (states.length) {
    where.push(`c.workflow_state IN (${states.map(() => '?').join(',')})`);
    args.push(...states);
  }
  return { sql: `SELECT c.* FROM courses c WHERE ${where.join(' AND ')}`, args, key: ['id'] };
}

/**
 * Courses of an account and every account below it, optionally in one enrollment term (`termId`)
 * and matching a term in the name, the code or the SIS id: a term of 3 characters or more is read
 * from the trigram index, a shorter one by LIKE. A term's own % and _ are matched literally.
 */
export function coursesOfAccountTreeQuery(accountId: number, term?: string, termId?: number): KeysetQuery {
  const where = [`c.account_id IN (SELECT id FROM tree)`, `c.workflow_state <> 'deleted'`];
  const args: unknown[] = [accountId];
  if (termId !== undefined) {
    where.push('c.enrollment_term_id = ?');
    args.push(termId);
  }
  if (term) {
    const { operator, pattern } = containsLike(term);
    const matches = (table: string) =>
      ['name', 'course_code', 'sis_course_id'].map((column) => `${table}${column} ${operator}`).join(' OR ');
    where.push(
      indexable(term) ? `c.id IN (SELECT rowid FROM course_search WHERE ${matches('')})` : `(${matches('c.')})`,
    );
    args.push(pattern, pattern, pattern);
  }
  return {
    sql:
      'WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT a.id FROM accounts a JOIN tree ON ' +
      `a.parent_account_id = tree.id)
          SELECT c.* FROM courses c WHERE ${where.join(' AND ')}`,
    args,
    key: ['id'],
  };
}

// ---- terms: a root account's enrollment terms, what a course is in ------------------------------

export interface TermRow {
  id: number;
  root_account_id: number;
  name: string;
  sis_term_id: string | null;
  workflow_state: string;
  start_at: string | null;
  end_at: string | null;
  created_at: string;
}

/** The name of the term every root account has, which a course gets when it is given none. */
export const DEFAULT_TERM_NAME = 'Default Term';

export function termBySis(db: Db, rootId: number, sis: string): TermRow | undefined {
  return one<TermRow>(db, `SELECT * FROM enrollment_terms WHERE root_account_id = ? AND sis_term_id = ?`, rootId, sis);
}

function termById(db: Db, rootId: number, id: number): TermRow | undefined {
  return one<TermRow>(db, `SELECT * FROM enrollment_terms WHERE root_account_id = ? AND id = ?`, rootId, id);
}

/** A term of the root account, named as the API names one: by its id or as `sis_term_id:X`. */
export function findTerm(db: Db, rootId: number, ref: string): TermRow | undefined {
  const id = numericId(ref);
  return ref.startsWith('sis_term_id:')
    ? termBySis(db, rootId, ref.slice('sis_term_id:'.length))
    : id === undefined
      ? undefined
      : termById(db, rootId, id);
}

/** A live term of the root account, named as `findTerm` names one. */
export function liveTerm(db: Db, rootId: number, ref: string): TermRow | undefined {
  const term = findTerm(db, rootId, ref);
  return term && term.workflow_state !== 'deleted' ? term : undefined;
}

/**
 * A root account's terms in Canvas's order, the latest start first (a term with no dates before
 * any), then the latest end, then the oldest: keyed descending on the start, the end and the
 * negated id. No state given is every state.
 */
export function termsOfRootQuery(rootId: number, states: readonly string[]): KeysetQuery {
  const byState = states.length ? ` AND workflow_state IN (${states.map(() => '?').join(', ')})` : '';
  return {
    sql:
      `SELECT *, coalesce(start_at, '~') AS start_key, coalesce(end_at, '~') AS end_key, -id AS id_key ` +
      `FROM enrollment_terms WHERE root_account_id = ?${byState}`,
    args: [rootId, ...states],
    key: ['start_key', 'end_key', 'id_key'],
    descending: true,
  };
}

/**
 * The root account's default term: its first live term of that name, made when it has none, as
 * Canvas's Account#default_enrollment_term does.
 */
function defaultTermOf(db: Db, rootId: number, now: string): number {
  const found = one<{ id: number }>(
    db,
    `SELECT id FROM enrollment_terms WHERE root_account_id = ? AND name = ? AND workflow_state = 'active' ` +
      'ORDER BY id LIMIT 1',
    rootId,
    DEFAULT_TERM_NAME,
  );
  if (found) return found.id;
  return insert(
    db,
    `INSERT INTO enrollment_terms (root_account_id, name, workflow_state, created_at) VALUES (?, ?, 'active', ?)`,
    rootId,
    DEFAULT_TERM_NAME,
    now,
  );
}

/**
 * Why a term may not be deleted, as Canvas's EnrollmentTerm#check_if_deletable says: it is the
 * default term, or a course not deleted is in it.
 */
export function termUndeletable(db: Db, term: TermRow): string | undefined {
  // Canvas's default_term? is any term of that name.
  if (term.name === DEFAULT_TERM_NAME) return 'Cannot delete the default term';
  const course = one(
    db,
    `SELECT 1 FROM courses WHERE enrollment_term_id = ? AND workflow_state <> 'deleted' LIMIT 1`,
    term.id,
  );
  return course ? 'Cannot delete a term with active courses' : undefined;
}

/** What a term's create or update sets: only what it names. */
export interface TermChange {
  name?: string;
  sis_term_id?: string | null;
  start_at?: string | null;
  end_at?: string | null;
  workflow_state?: 'active' | 'deleted';
}

export function createTerm(db: Db, rootId: number, t: TermChange, now: string): number {
  return insert(
    db,
    'INSERT INTO enrollment_terms (root_account_id, name, sis_term_id, workflow_state, start_at, end_at, created_at) ' +
      "VALUES (?, ?, ?, 'active', ?, ?, ?)",
    rootId,
    t.name ?? '',
    t.sis_term_id ?? null,
    t.start_at ?? null,
    t.end_at ?? null,
    now,
  );
}

export function updateTerm(db: Db, id: number, t: TermChange): void {
  const set = Object.entries(t).filter(([, v]) => v !== undefined);
  if (!set.length) return;
  run(
    db,
    `UPDATE enrollment_terms SET ${set.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`,
    ...set.map(([, v]) => v),
    id,
  );
}

export type TermOverrides = Record<string, { start_at: string | null; end_at: string | null }>;

export function termOverrides(db: Db, termId: number): TermOverrides {
  const rows = all<{ enrollment_type: string; start_at: string | null; end_at: string | null }>(
    db,
    'SELECT enrollment_type, start_at, end_at FROM enrollment_term_overrides WHERE term_id = ? ORDER BY ' +
      'enrollment_type',
    termId,
  );
  return Object.fromEntries(rows.map((r) => [r.enrollment_type, { start_at: r.start_at, end_at: r.end_at }]));
}

/** Sets the dates of each enrollment type named, as Canvas's EnrollmentTerm#set_overrides does. */
export function setTermOverrides(db: Db, termId: number, overrides: TermOverrides): void {
  for (const [type, dates] of Object.entries(overrides))
    run(
      db,
      'INSERT INTO enrollment_term_overrides (term_id, enrollment_type, start_at, end_at) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (term_id, enrollment_type) DO UPDATE SET start_at = excluded.start_at, end_at = excluded.end_at',
      termId,
      type,
      dates.start_at,
      dates.end_at,
    );
}

export function deleteTermOverride(db: Db, termId: number, type: string): void {
  run(db, 'DELETE FROM enrollment_term_overrides WHERE term_id = ? AND enrollment_type = ?', termId, type);
}

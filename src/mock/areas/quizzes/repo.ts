// Quizzes of a course, their students' attempts, and the assignment a graded quiz carries.
import { containsLike, indexable } from '../../db/contains.js';
import type { Db } from '../../db/open.js';
import type { KeysetQuery } from '../../kit.js';
import { insert, one, run } from '../../db/statements.js';
import { createAssignment, deleteAssignment, moveToGroup, updateAssignment } from '../assignments/repo.js';

export interface QuizRow {
  id: number;
  course_id: number;
  title: string;
  description: string | null;
  quiz_type: string;
  assignment_group_id: number | null;
  assignment_id: number | null;
  time_limit: number | null;
  shuffle_answers: number;
  hide_results: string | null;
  show_correct_answers: number;
  allowed_attempts: number;
  scoring_policy: string | null;
  one_question_at_a_time: number;
  cant_go_back: number;
  access_code: string | null;
  ip_filter: string | null;
  due_at: string | null;
  lock_at: string | null;
  unlock_at: string | null;
  published: number;
  question_count: number;
  points_possible: number | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

/** The settable columns of a quiz. */
export type QuizValues = Omit<
  QuizRow,
  'id' | 'course_id' | 'assignment_id' | 'workflow_state' | 'created_at' | 'updated_at'
>;

const COLUMNS = [
  'title',
  'description',
  'quiz_type',
  'assignment_group_id',
  'time_limit',
  'shuffle_answers',
  'hide_results',
  'show_correct_answers',
  'allowed_attempts',
  'scoring_policy',
  'one_question_at_a_time',
  'cant_go_back',
  'access_code',
  'ip_filter',
  'due_at',
  'lock_at',
  'unlock_at',
  'published',
  'question_count',
  'points_possible',
] as const satisfies readonly (keyof QuizValues)[];

export function quizById(db: Db, id: number): QuizRow | undefined {
  return one<QuizRow>(db, `SELECT * FROM quizzes WHERE id = ? AND workflow_state <> 'deleted'`, id);
}

export function createQuiz(db: Db, course: number, v: QuizValues, now: string, id?: number): number {
  return insert(
    db,
    `INSERT INTO quizzes (id, course_id, ${COLUMNS.join(', ')}, created_at, updated_at) VALUES (?, ?, ` +
      `${COLUMNS.map(() => '?').join(', ')}, ?, ?)`,
    id ?? null,
    course,
    ...COLUMNS.map((c) => v[c]),
    now,
    now,
  );
}

export function updateQuiz(db: Db, id: number, v: QuizValues, now: string): void {
  run(
    db,
    `UPDATE quizzes SET ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`,
    ...COLUMNS.map((c) => v[c]),
    now,
    id,
  );
}

/**
 * Keeps a graded quiz's assignment in step with it (made on first need, named and dated like the
 * quiz); a quiz that is no longer graded loses its assignment.
 */
export function syncQuizAssignment(db: Db, quiz: QuizRow, graded: boolean, now: string): void {
  if (!graded) {
    if (quiz.assignment_id !== null) {
      run(db, `UPDATE quizzes SET assignment_id = NULL WHERE id = ?`, quiz.id);
      deleteAssignment(db, quiz.assignment_id, now);
    }
    return;
  }
  if (quiz.assignment_id === null) {
    const id = createAssignment(db, {
      course: quiz.course_id,
      name: quiz.title,
      description: quiz.description,
      points: quiz.points_possible ?? 0,
      gradingType: 'points',
      submissionTypes: ['online_quiz'],
      dueAt: quiz.due_at,
      lockAt: quiz.lock_at,
      unlockAt: quiz.unlock_at,
      groupId: quiz.assignment_group_id ?? undefined,
      published: quiz.published === 1,
      now,
    });
    run(db, `UPDATE quizzes SET assignment_id = ? WHERE id = ?`, id, quiz.id);
    return;
  }
  if (quiz.assignment_group_id !== null) moveToGroup(db, quiz.assignment_id, quiz.assignment_group_id);
  updateAssignment(db, quiz.assignment_id, {
    name: quiz.title,
    description: quiz.description,
    points: quiz.points_possible ?? 0,
    dueAt: quiz.due_at,
    lockAt: quiz.lock_at,
    unlockAt: quiz.unlock_at,
    published: quiz.published === 1,
    now,
  });
}

/** Students have started or submitted the quiz. */
export function hasStudentSubmissions(db: Db, quizId: number): boolean {
  return one(db, `SELECT 1 FROM quiz_submissions WHERE quiz_id = ? LIMIT 1`, quizId) !== undefined;
}

export function addQuizSubmission(
  db: Db,
  s: {
    quiz: number;
    user: number;
    state: 'untaken' | 'complete';
    score?: number | null;
    startedAt: string;
    finishedAt?: string | null;
  },
): number {
  return insert(
    db,
    'INSERT INTO quiz_submissions (quiz_id, user_id, workflow_state, score, started_at, finished_at) VALUES (?, ?, ' +
      '?, ?, ?, ?)',
    s.quiz,
    s.user,
    s.state,
    s.score ?? null,
    s.startedAt,
    s.finishedAt ?? null,
  );
}

/**
 * A course's quizzes in id order (quizzes_course serves it), published ones only unless asked;
 * a search term of 3 characters or more is read from the trigram index, a shorter one by LIKE.
 */
export function quizzesOfCourseQuery(courseId: number, o: { withUnpublished: boolean; term?: string }): KeysetQuery {
  const where = [`q.course_id = ?`, `q.workflow_state <> 'deleted'`];
  const args: unknown[] = [courseId];
  if (!o.withUnpublished) where.push('q.published = 1');
  if (o.term) {
    const { operator, pattern } = containsLike(o.term);
    where.push(
      indexable(o.term) ? `q.id IN (SELECT rowid FROM quiz_search WHERE title ${operator})` : `q.title ${operator}`,
    );
    args.push(pattern);
  }
  return { sql: `SELECT q.* FROM quizzes q WHERE ${where.join(' AND ')}`, args, key: ['id'] };
}

/** A new quiz's values before its parameters are applied, as real instances create one. */
export const QUIZ_DEFAULTS: QuizValues = {
  title: 'Unnamed Quiz',
  description: null,
  quiz_type: 'assignment',
  assignment_group_id: null,
  time_limit: null,
  shuffle_answers: 0,
  hide_results: null,
  show_correct_answers: 1,
  allowed_attempts: 1,
  scoring_policy: null,
  one_question_at_a_time: 0,
  cant_go_back: 0,
  access_code: null,
  ip_filter: null,
  due_at: null,
  lock_at: null,
  unlock_at: null,
  published: 0,
  question_count: 0,
  points_possible: null,
};

// Quizzes of each type: a practice quiz and a survey in BIO-101; in CHEM-201 the graded ones, with
// their assignments, and the midterm with students' attempts (so it cannot be unpublished).
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { addQuizSubmission, createQuiz, QUIZ_DEFAULTS, quizById, syncQuizAssignment, type QuizValues } from './repo.js';

const base: QuizValues = { ...QUIZ_DEFAULTS, title: '', quiz_type: 'practice_quiz', published: 1 };

export const SEED_QUIZZES: (Partial<QuizValues> & { id: number; course: number; title: string })[] = [
  {
    id: 1,
    course: 1,
    title: 'Cell Biology Check-in',
    quiz_type: 'practice_quiz',
    question_count: 5,
    points_possible: 5,
    shuffle_answers: 1,
    allowed_attempts: -1,
    scoring_policy: 'keep_latest',
  },
  {
    id: 2,
    course: 1,
    title: 'Course Feedback Survey',
    quiz_type: 'survey',
    question_count: 8,
    hide_results: 'always',
    show_correct_answers: 0,
  },
  {
    id: 3,
    course: 2,
    title: 'Midterm Exam',
    quiz_type: 'assignment',
    assignment_group_id: 2,
    time_limit: 45,
    allowed_attempts: 2,
    scoring_policy: 'keep_highest',
    question_count: 20,
    points_possible: 25,
    one_question_at_a_time: 1,
    cant_go_back: 1,
    access_code: 'chirality',
    ip_filter: '192.168.1.0/24',
    due_at: '2026-10-05T23:59:00Z',
    description: '<p>Stereochemistry, substitution and elimination.</p>',
  },
  {
    id: 4,
    course: 2,
    title: 'Lab Safety Graded Survey',
    quiz_type: 'graded_survey',
    assignment_group_id: 2,
    question_count: 6,
    points_possible: 6,
    published: 0,
  },
];

export function seedQuizzes(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  for (const { id, course, ...fields } of SEED_QUIZZES) {
    createQuiz(db, course, { ...base, ...fields }, now, id);
    syncQuizAssignment(
      db,
      quizById(db, id)!,
      fields.quiz_type === 'assignment' || fields.quiz_type === 'graded_survey',
      now,
    );
  }
  // Sam has submitted the midterm; Sofia has started it.
  addQuizSubmission(db, {
    quiz: 3,
    user: 7,
    state: 'complete',
    score: 21,
    startedAt: '2026-10-01T15:00:00Z',
    finishedAt: '2026-10-01T15:38:00Z',
  });
  addQuizSubmission(db, { quiz: 3, user: 8, state: 'untaken', startedAt: '2026-10-05T20:10:00Z' });
}

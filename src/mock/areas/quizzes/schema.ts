import { trigramIndex } from '../../db/trigram-index.js';

export const schema = `
CREATE TABLE quizzes (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  title TEXT NOT NULL,
  description TEXT,
  quiz_type TEXT NOT NULL,
  assignment_group_id INTEGER,
  assignment_id INTEGER REFERENCES assignments(id),
  time_limit INTEGER,
  shuffle_answers INTEGER NOT NULL DEFAULT 0,
  hide_results TEXT,
  show_correct_answers INTEGER NOT NULL DEFAULT 1,
  allowed_attempts INTEGER NOT NULL DEFAULT 1,
  scoring_policy TEXT,
  one_question_at_a_time INTEGER NOT NULL DEFAULT 0,
  cant_go_back INTEGER NOT NULL DEFAULT 0,
  access_code TEXT,
  ip_filter TEXT,
  due_at TEXT,
  lock_at TEXT,
  unlock_at TEXT,
  published INTEGER NOT NULL DEFAULT 0,
  question_count INTEGER NOT NULL DEFAULT 0,
  points_possible REAL,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX quizzes_course ON quizzes(course_id, id);

-- A student's attempts at a quiz: started (untaken) or submitted (complete). A quiz with any of them
-- cannot be unpublished.
CREATE TABLE quiz_submissions (
  id INTEGER PRIMARY KEY,
  quiz_id INTEGER NOT NULL REFERENCES quizzes(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  attempt INTEGER NOT NULL DEFAULT 1,
  workflow_state TEXT NOT NULL,
  score REAL,
  started_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX quiz_submissions_quiz ON quiz_submissions(quiz_id);

-- What quizzes list --search matches (the title), indexed by trigrams so that a %term% match is an
-- index read; kept current by triggers, whoever writes.
${trigramIndex('quiz_search', 'quizzes', ['title']).schema}`;

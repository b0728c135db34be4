export const schema = `
-- An assignment's submissions, with their attempts, comments and versions, go when it is deleted
-- (a graded discussion's assignment, when the topic is).
-- One submission per student and assignment, made when a student submits, is graded, or is first
-- listed. Its attempts are kept in submission_attempts; every change of its grade is a version.
CREATE TABLE submissions (
  id INTEGER PRIMARY KEY,
  assignment_id INTEGER NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  course_id INTEGER NOT NULL REFERENCES courses(id),
  workflow_state TEXT NOT NULL DEFAULT 'unsubmitted',
  submission_type TEXT,
  body TEXT,
  url TEXT,
  attachment_ids TEXT,
  media_comment_id TEXT,
  media_comment_type TEXT,
  attempt INTEGER,
  submitted_at TEXT,
  score REAL,
  grade TEXT,
  graded_at TEXT,
  grader_id INTEGER,
  excused INTEGER NOT NULL DEFAULT 0,
  grade_matches_current_submission INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (assignment_id, user_id)
);
CREATE INDEX submissions_user ON submissions(user_id, course_id, assignment_id);

CREATE TABLE submission_attempts (
  submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  submission_type TEXT NOT NULL,
  body TEXT,
  url TEXT,
  attachment_ids TEXT,
  media_comment_id TEXT,
  media_comment_type TEXT,
  submitted_at TEXT NOT NULL,
  PRIMARY KEY (submission_id, attempt)
);

CREATE TABLE submission_comments (
  id INTEGER PRIMARY KEY,
  submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  comment TEXT NOT NULL,
  media_comment_id TEXT,
  media_comment_type TEXT,
  attempt INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX submission_comments_submission ON submission_comments(submission_id, id);

-- Gradebook history: one row per change of a submission's grade, with the grade before it.
-- graded_day is the day of graded_at in the course's time zone.
CREATE TABLE submission_versions (
  id INTEGER PRIMARY KEY,
  submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
  course_id INTEGER NOT NULL,
  assignment_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  attempt INTEGER,
  workflow_state TEXT NOT NULL,
  submission_type TEXT,
  submitted_at TEXT,
  score REAL,
  grade TEXT,
  graded_at TEXT NOT NULL,
  grader_id INTEGER NOT NULL,
  graded_day TEXT NOT NULL,
  previous_score REAL,
  previous_grade TEXT,
  previous_graded_at TEXT,
  previous_grader_id INTEGER
);
CREATE INDEX submission_versions_feed ON submission_versions(course_id, graded_at, id);
CREATE INDEX submission_versions_assignment ON submission_versions(course_id, assignment_id, graded_at, id);
CREATE INDEX submission_versions_user ON submission_versions(course_id, user_id, graded_at, id);
CREATE INDEX submission_versions_day ON submission_versions(course_id, graded_day, grader_id, assignment_id);
CREATE INDEX submission_versions_submission ON submission_versions(submission_id, id);
`;

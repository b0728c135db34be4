export const schema = `
CREATE TABLE assignments (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  name TEXT NOT NULL,
  description TEXT,
  points_possible REAL,
  grading_type TEXT NOT NULL DEFAULT 'points',
  submission_types TEXT NOT NULL DEFAULT '["none"]',
  due_at TEXT,
  lock_at TEXT,
  unlock_at TEXT,
  grading_standard_id INTEGER,
  position INTEGER NOT NULL,
  published INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX assignments_course ON assignments(course_id, position);
`;

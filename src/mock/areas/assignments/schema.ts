export const schema = `
CREATE TABLE assignments (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  -- The group it counts in (assignment-groups' table): the course's first unless named.
  assignment_group_id INTEGER NOT NULL REFERENCES assignment_groups(id),
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
  -- Deleting keeps the row, unpublished, and its students' submissions and grades with it.
  deleted_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX assignments_course ON assignments(course_id, position);
CREATE INDEX assignments_group ON assignments(assignment_group_id, position);
-- Letter schemes (grading standards) a letter-graded assignment names by grading_standard_id:
-- [{"name":"A","value":0.94},…], highest lower bound first.
CREATE TABLE grading_standards (
  id INTEGER PRIMARY KEY,
  context_type TEXT NOT NULL,
  context_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  scheme TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

export const schema = `
-- A course's assignment groups, in position order. rules: {"drop_lowest":n,"drop_highest":n,"never_drop":[ids]}.
CREATE TABLE assignment_groups (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  group_weight REAL NOT NULL DEFAULT 0,
  rules TEXT NOT NULL DEFAULT '{}',
  sis_source_id TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'available',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX assignment_groups_course ON assignment_groups(course_id, position);
-- Whether a course's final grade weighs its groups (apply_assignment_group_weights).
CREATE TABLE course_group_weighting (
  course_id INTEGER PRIMARY KEY REFERENCES courses(id),
  apply_group_weights INTEGER NOT NULL DEFAULT 0
);
`;

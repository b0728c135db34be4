export const schema = `
CREATE TABLE enrollments (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  course_id INTEGER NOT NULL REFERENCES courses(id),
  course_section_id INTEGER NOT NULL REFERENCES course_sections(id),
  root_account_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  role_id INTEGER NOT NULL REFERENCES roles(id),
  workflow_state TEXT NOT NULL,
  limit_privileges_to_course_section INTEGER NOT NULL DEFAULT 0,
  associated_user_id INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX enrollments_course ON enrollments(course_id, user_id);
CREATE INDEX enrollments_section ON enrollments(course_section_id);
CREATE INDEX enrollments_user ON enrollments(user_id);
`;

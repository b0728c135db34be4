export const schema = `
CREATE TABLE courses (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  root_account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  course_code TEXT NOT NULL,
  sis_course_id TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'available',
  start_at TEXT,
  end_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX courses_sis ON courses(root_account_id, sis_course_id) WHERE sis_course_id IS NOT NULL;
CREATE INDEX courses_account ON courses(account_id, id);
`;

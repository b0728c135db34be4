export const schema =
  `
CREATE TABLE course_sections (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  nonxlist_course_id INTEGER REFERENCES courses(id),
  root_account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  sis_section_id TEXT,
  start_at TEXT,
  end_at TEXT,
  default_section INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX course_sections_sis ON course_sections(root_account_id, sis_section_id) WHERE sis_section_id IS ` +
  `NOT NULL AND workflow_state <> 'deleted';
CREATE INDEX course_sections_course ON course_sections(course_id, id);
`;

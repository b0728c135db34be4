import { trigramIndex } from '../../db/trigram-index.js';

/** search_term's match on a name, a code or an SIS id: a trigram index per column. */
export const searchIndex = trigramIndex('course_search', 'courses', ['name', 'course_code', 'sis_course_id']);

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
  -- Its own zone, or its root account's default when it was created: what its days are counted in.
  time_zone TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX courses_sis ON courses(root_account_id, sis_course_id) WHERE sis_course_id IS NOT NULL;
CREATE INDEX courses_account ON courses(account_id, id);
${searchIndex.schema}`;

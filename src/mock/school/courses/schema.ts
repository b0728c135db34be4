import { trigramIndex } from '../../db/trigram-index.js';
import { DEFAULT_TERM_NAME } from './repo.js';

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
  created_at TEXT NOT NULL,
  -- Its term: the one it was given, else its root account's default term (repo.ts).
  enrollment_term_id INTEGER REFERENCES enrollment_terms(id),
  integration_id TEXT
);
CREATE UNIQUE INDEX courses_sis ON courses(root_account_id, sis_course_id) WHERE sis_course_id IS NOT NULL;
CREATE UNIQUE INDEX courses_integration ON courses(root_account_id, integration_id) WHERE integration_id IS NOT NULL;
CREATE INDEX courses_account ON courses(account_id, id);

-- A root account's enrollment terms: its default term, and those terms.csv makes.
CREATE TABLE enrollment_terms (
  id INTEGER PRIMARY KEY,
  root_account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  sis_term_id TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  start_at TEXT,
  end_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX enrollment_terms_sis ON enrollment_terms(root_account_id, sis_term_id)
  WHERE sis_term_id IS NOT NULL;
-- The dates a term gives one enrollment type in place of its own (Canvas's enrollment_dates_overrides).
CREATE TABLE enrollment_term_overrides (
  term_id INTEGER NOT NULL REFERENCES enrollment_terms(id),
  enrollment_type TEXT NOT NULL,
  start_at TEXT,
  end_at TEXT,
  PRIMARY KEY (term_id, enrollment_type)
);
${searchIndex.schema}`;

/**
 * Courses carried from a database made before courses had terms get their root account's default
 * term, made where it has none (repo.ts).
 */
export const carried =
  `
INSERT INTO enrollment_terms (root_account_id, name, workflow_state, created_at)
  SELECT DISTINCT c.root_account_id, '${DEFAULT_TERM_NAME}', 'active', strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    FROM courses c
   WHERE c.enrollment_term_id IS NULL AND NOT EXISTS (SELECT 1 FROM enrollment_terms t
     WHERE t.root_account_id = c.root_account_id AND t.name = '${DEFAULT_TERM_NAME}' AND t.workflow_state = 'active');
UPDATE courses SET enrollment_term_id = (SELECT min(t.id) FROM enrollment_terms t
   WHERE t.root_account_id = courses.root_account_id AND t.name = '${DEFAULT_TERM_NAME}' AND t.workflow_state = ` +
  `'active')
 WHERE enrollment_term_id IS NULL;
`;

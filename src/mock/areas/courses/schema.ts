/** The triggers that keep course_search current; a bulk load of new courses drops them and indexes once at the end. */
const searchTriggers = `CREATE TRIGGER course_search_insert AFTER INSERT ON courses BEGIN
  INSERT INTO course_search (rowid, name, course_code, sis_course_id) VALUES (new.id, new.name, new.course_code, new.sis_course_id);
END;
CREATE TRIGGER course_search_update AFTER UPDATE OF name, course_code, sis_course_id ON courses BEGIN
  DELETE FROM course_search WHERE rowid = new.id;
  INSERT INTO course_search (rowid, name, course_code, sis_course_id) VALUES (new.id, new.name, new.course_code, new.sis_course_id);
END;
CREATE TRIGGER course_search_delete AFTER DELETE ON courses BEGIN
  DELETE FROM course_search WHERE rowid = old.id;
END;
`;

/** course_search as a bulk load fills it: the new courses. */
export const searchIndex = {
  triggers: searchTriggers,
  fills: [{ table: 'courses', fill: `INSERT INTO course_search (rowid, name, course_code, sis_course_id) SELECT id, name, course_code, sis_course_id FROM courses WHERE id > ?` }],
};

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
-- A trigram index per column serves search_term's %term% match on a name, a code or an SIS id.
CREATE VIRTUAL TABLE course_search USING fts5(name, course_code, sis_course_id, tokenize = 'trigram');
${searchTriggers}`;

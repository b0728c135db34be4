export const schema = `
-- A course's modules, in position order. prerequisites: a JSON array of module ids.
CREATE TABLE context_modules (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  unlock_at TEXT,
  require_sequential_progress INTEGER NOT NULL DEFAULT 0,
  prerequisites TEXT NOT NULL DEFAULT '[]',
  publish_final_grade INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT NOT NULL DEFAULT 'unpublished',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX context_modules_course ON context_modules(course_id, position, id);

-- The items of a module: content of the course (content_id, or page_url for a page), a link, a
-- header. requirement: must_view, must_contribute, must_submit, min_score or must_mark_done.
CREATE TABLE module_items (
  id INTEGER PRIMARY KEY,
  module_id INTEGER NOT NULL REFERENCES context_modules(id),
  course_id INTEGER NOT NULL REFERENCES courses(id),
  position INTEGER NOT NULL,
  title TEXT NOT NULL,
  indent INTEGER NOT NULL DEFAULT 0,
  type TEXT NOT NULL,
  content_id INTEGER,
  page_url TEXT,
  external_url TEXT,
  new_tab INTEGER NOT NULL DEFAULT 0,
  requirement TEXT,
  min_score REAL,
  published INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX module_items_module ON module_items(module_id, position, id);

-- What a user did to an item that no other record keeps: viewed it (read) or marked it done.
CREATE TABLE module_item_actions (
  item_id INTEGER NOT NULL REFERENCES module_items(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  action TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (item_id, user_id, action)
);

-- The modules a student has had unlocked: they stay so when prerequisites or requirements change
-- afterwards, until the module is relocked (as Canvas keeps a progression).
CREATE TABLE module_unlocks (
  module_id INTEGER NOT NULL REFERENCES context_modules(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (module_id, user_id)
);`;

export const schema = `
-- A course's pages. workflow_state: active (published), unpublished, deleted. The slug in use is
-- url; every slug a page was ever known by stays in wiki_page_lookups, so old links keep working.
CREATE TABLE wiki_pages (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  url TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT,
  editing_roles TEXT NOT NULL DEFAULT 'teachers',
  workflow_state TEXT NOT NULL DEFAULT 'unpublished',
  front_page INTEGER NOT NULL DEFAULT 0,
  publish_at TEXT,
  user_id INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX wiki_pages_course ON wiki_pages(course_id, id);
CREATE TABLE wiki_page_lookups (
  course_id INTEGER NOT NULL REFERENCES courses(id),
  slug TEXT NOT NULL,
  page_id INTEGER NOT NULL REFERENCES wiki_pages(id),
  PRIMARY KEY (course_id, slug)
);
-- Each saved change of a page's title, body or slug, numbered from 1 per page.
CREATE TABLE wiki_page_revisions (
  page_id INTEGER NOT NULL REFERENCES wiki_pages(id),
  number INTEGER NOT NULL,
  url TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT,
  user_id INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (page_id, number)
);
`;

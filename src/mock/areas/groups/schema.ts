export const schema = `
-- Group sets: a course's way of splitting its students into groups (a group discussion names one).
CREATE TABLE group_categories (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE groups (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  group_category_id INTEGER REFERENCES group_categories(id),
  name TEXT NOT NULL,
  description TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'available',
  created_at TEXT NOT NULL
);
CREATE INDEX groups_course ON groups(course_id, id);

CREATE TABLE group_memberships (
  id INTEGER PRIMARY KEY,
  group_id INTEGER NOT NULL REFERENCES groups(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  workflow_state TEXT NOT NULL DEFAULT 'accepted'
);
CREATE INDEX group_memberships_group ON group_memberships(group_id, user_id);
`;

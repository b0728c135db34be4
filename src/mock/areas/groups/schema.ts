export const schema = `
CREATE TABLE groups (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
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

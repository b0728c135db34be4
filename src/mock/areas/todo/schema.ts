export const schema = `
-- To-do items a user set aside: until the item changes (its marker then differs), or for good.
CREATE TABLE todo_ignores (
  user_id INTEGER NOT NULL REFERENCES users(id),
  asset_string TEXT NOT NULL,
  purpose TEXT NOT NULL CHECK (purpose IN ('grading', 'submitting')),
  permanent INTEGER NOT NULL DEFAULT 0,
  marker TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, asset_string, purpose)
);
`;

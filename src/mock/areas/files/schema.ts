export const schema = `
CREATE TABLE attachments (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL,
  context_type TEXT NOT NULL,
  context_id INTEGER NOT NULL,
  folder_path TEXT NOT NULL,
  display_name TEXT NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB,
  workflow_state TEXT NOT NULL,
  upload_token TEXT UNIQUE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX attachments_context ON attachments(context_type, context_id);
`;

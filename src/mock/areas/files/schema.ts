// A file's bytes are rows of attachment_chunks (about a mebibyte each) under the receipt its step 2
// was given, so that no request has to hold a whole file to store or send it. A receipt stays in
// upload_receipts while its bytes arrive, with the process receiving them: bytes the attachment
// never adopted, of a request that failed or of a server that died, are found and removed.
// AUTOINCREMENT: a receipt id is never given twice, even after the newest receipt is removed.
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
  declared_size INTEGER,
  receipt INTEGER,
  workflow_state TEXT NOT NULL,
  upload_token TEXT UNIQUE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX attachments_context ON attachments(context_type, context_id);
CREATE TABLE upload_receipts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  attachment_id INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  started_at TEXT NOT NULL
);
CREATE TABLE attachment_chunks (
  receipt INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (receipt, seq)
);
`;

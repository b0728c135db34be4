export const schema = `
-- Background work a request started (bulk grading, async messages, conversation batch updates):
-- the job runner of the serving process moves it through queued → running → completed | failed.
CREATE TABLE progress (
  id INTEGER PRIMARY KEY,
  context_type TEXT NOT NULL,
  context_id INTEGER NOT NULL,
  user_id INTEGER REFERENCES users(id),
  tag TEXT NOT NULL,
  completion REAL,
  workflow_state TEXT NOT NULL DEFAULT 'queued',
  message TEXT,
  results TEXT,
  -- The process whose job runner moves it; a Progress left unfinished by a process that is gone is failed.
  runner_pid INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

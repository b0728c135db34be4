export const schema = `
-- Calendar events of a course, a group or a user: what the dashboard's "Coming up" lists.
CREATE TABLE calendar_events (
  id INTEGER PRIMARY KEY,
  context_type TEXT NOT NULL CHECK (context_type IN ('Course', 'Group', 'User')),
  context_id INTEGER NOT NULL,
  user_id INTEGER REFERENCES users(id),
  title TEXT NOT NULL,
  description TEXT,
  start_at TEXT,
  end_at TEXT,
  location_name TEXT,
  location_address TEXT,
  all_day INTEGER NOT NULL DEFAULT 0,
  all_day_date TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX calendar_events_context ON calendar_events(context_type, context_id, start_at);
`;

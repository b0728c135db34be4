export const schema =
  `
-- What each user's activity stream holds: one item per asset (a topic, a conversation, a
-- submission, a notification), shown to each of its users through an instance with their read state.
CREATE TABLE stream_items (
  id INTEGER PRIMARY KEY,
  asset_type TEXT NOT NULL,
  asset_id INTEGER NOT NULL,
  context_type TEXT,
  context_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX stream_items_asset ON stream_items(asset_type, asset_id);

CREATE TABLE stream_item_instances (
  user_id INTEGER NOT NULL REFERENCES users(id),
  stream_item_id INTEGER NOT NULL REFERENCES stream_items(id),
  read INTEGER NOT NULL DEFAULT 0,
  hidden INTEGER NOT NULL DEFAULT 0,
  -- The item's updated_at as this user last saw it change: the stream's order, newest first.
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, stream_item_id)
);
CREATE INDEX stream_item_instances_order ON stream_item_instances(user_id, hidden, updated_at DESC, stream_item_id ` +
  `DESC);

-- Notifications the other areas produce (enrolment invitations, grades, announcements): each one is
-- a Message item in its user's stream.
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  notification_category TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  url TEXT,
  context_type TEXT,
  context_id INTEGER,
  -- The asset the notice is about (an Announcement, …): it shows only to whom the asset shows.
  about_type TEXT,
  about_id INTEGER,
  created_at TEXT NOT NULL
);
`;

// Conversations: a thread of messages among participants, each participant with their own view of
// it (read state, star, subscription, the messages still visible to them). Async sends are batches.
export const schema = `
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY,
  subject TEXT,
  private INTEGER NOT NULL DEFAULT 0,
  -- Sorted participant ids of a private conversation, so that one between the same two people is reused.
  private_key TEXT,
  context_code TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX conversations_private ON conversations(private_key) WHERE private_key IS NOT NULL;

-- The contexts a conversation belongs to (course_N, group_N): what filter[] matches.
CREATE TABLE conversation_tags (
  conversation_id INTEGER NOT NULL REFERENCES conversations(id),
  tag TEXT NOT NULL,
  PRIMARY KEY (conversation_id, tag)
);
CREATE INDEX conversation_tags_tag ON conversation_tags(tag, conversation_id);

-- One participant's view: message_count and last_message_at count only the messages they still see.
CREATE TABLE conversation_participants (
  conversation_id INTEGER NOT NULL REFERENCES conversations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  workflow_state TEXT NOT NULL DEFAULT 'unread',
  starred INTEGER NOT NULL DEFAULT 0,
  subscribed INTEGER NOT NULL DEFAULT 1,
  message_count INTEGER NOT NULL DEFAULT 0,
  last_message_at TEXT,
  last_authored_at TEXT,
  PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX conversation_participants_inbox ON conversation_participants(user_id, last_message_at, conversation_id);

-- A message; conversation_id is NULL for the root message of an async batch.
CREATE TABLE conversation_messages (
  id INTEGER PRIMARY KEY,
  conversation_id INTEGER REFERENCES conversations(id),
  author_id INTEGER NOT NULL REFERENCES users(id),
  body TEXT NOT NULL,
  generated INTEGER NOT NULL DEFAULT 0,
  media_comment_id TEXT,
  media_comment_type TEXT,
  -- JSON arrays of ids.
  attachment_ids TEXT NOT NULL DEFAULT '[]',
  forwarded_message_ids TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);
CREATE INDEX conversation_messages_conversation ON conversation_messages(conversation_id, id);

-- Who still sees a message (remove_messages and delete take rows out of here, for the caller only).
CREATE TABLE conversation_message_participants (
  message_id INTEGER NOT NULL REFERENCES conversation_messages(id),
  conversation_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, user_id, message_id)
);

-- An async send to many recipients, delivered in the background: created → sending → sent | error.
CREATE TABLE conversation_batches (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  root_message_id INTEGER NOT NULL REFERENCES conversation_messages(id),
  subject TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'created',
  recipient_count INTEGER NOT NULL,
  sent_count INTEGER NOT NULL DEFAULT 0,
  group_conversation INTEGER NOT NULL DEFAULT 0,
  context_code TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  progress_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX conversation_batches_user ON conversation_batches(user_id, workflow_state, id);
`;

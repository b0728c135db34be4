import { trigramIndex } from '../../db/trigram-index.js';

export const schema = `
-- A user's collection item (a pin of something worth discussing): the third context topics live in.
CREATE TABLE collection_items (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);

-- Topics and announcements. workflow_state: active, unpublished (a draft) or deleted; posted_at is
-- when it was (or will be, with delayed_post_at) posted. activity_at orders recent_activity.
CREATE TABLE discussion_topics (
  id INTEGER PRIMARY KEY,
  context_type TEXT NOT NULL,
  context_id INTEGER NOT NULL,
  user_id INTEGER REFERENCES users(id),
  title TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  discussion_type TEXT NOT NULL DEFAULT 'side_comment',
  workflow_state TEXT NOT NULL DEFAULT 'active',
  is_announcement INTEGER NOT NULL DEFAULT 0,
  require_initial_post INTEGER NOT NULL DEFAULT 0,
  pinned INTEGER NOT NULL DEFAULT 0,
  locked INTEGER NOT NULL DEFAULT 0,
  podcast_enabled INTEGER NOT NULL DEFAULT 0,
  podcast_has_student_posts INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL,
  delayed_post_at TEXT,
  lock_at TEXT,
  posted_at TEXT,
  last_reply_at TEXT,
  activity_at TEXT NOT NULL,
  assignment_id INTEGER,
  root_topic_id INTEGER REFERENCES discussion_topics(id),
  -- A course topic split by a group set: one topic per group of it, each naming this one as its root.
  group_category_id INTEGER,
  -- The full view's cache: bumped by every write to the thread; stale (503) until the wall-clock ms.
  view_version INTEGER NOT NULL DEFAULT 0,
  view_stale_until INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX discussion_topics_position ON discussion_topics(context_type, context_id, position, id);
CREATE INDEX discussion_topics_activity ON discussion_topics(context_type, context_id, activity_at, id);
CREATE INDEX discussion_topics_root ON discussion_topics(root_topic_id);

-- What search_term matches (titles), by trigrams; kept current by triggers.
${trigramIndex('discussion_topic_search', 'discussion_topics', ['title']).schema}
-- Entries and replies: root_entry_id is the top-level entry a reply belongs to (itself for none).
CREATE TABLE discussion_entries (
  id INTEGER PRIMARY KEY,
  topic_id INTEGER NOT NULL REFERENCES discussion_topics(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  parent_id INTEGER REFERENCES discussion_entries(id),
  root_entry_id INTEGER REFERENCES discussion_entries(id),
  message TEXT NOT NULL,
  attachment_id INTEGER REFERENCES attachments(id),
  editor_id INTEGER REFERENCES users(id),
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX discussion_entries_top ON discussion_entries(topic_id, parent_id, created_at, id);
CREATE INDEX discussion_entries_root ON discussion_entries(root_entry_id, created_at, id);
CREATE INDEX discussion_entries_author ON discussion_entries(topic_id, user_id);

-- The sections a section-specific course topic is for; a topic with no row here is for the whole course.
CREATE TABLE discussion_topic_sections (
  topic_id INTEGER NOT NULL REFERENCES discussion_topics(id),
  section_id INTEGER NOT NULL REFERENCES course_sections(id),
  PRIMARY KEY (topic_id, section_id)
) WITHOUT ROWID;

-- Per-user state of a topic: its read state, and a subscription chosen (1/0) or not (NULL).
CREATE TABLE discussion_participants (
  topic_id INTEGER NOT NULL REFERENCES discussion_topics(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  read_state TEXT,
  subscribed INTEGER,
  PRIMARY KEY (topic_id, user_id)
) WITHOUT ROWID;

-- Per-user read state of an entry; forced: set by hand, so viewing does not change it.
CREATE TABLE discussion_entry_participants (
  entry_id INTEGER NOT NULL REFERENCES discussion_entries(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  read_state TEXT NOT NULL,
  forced INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (entry_id, user_id)
) WITHOUT ROWID;

-- The full view's cached structure of a topic: the thread as of view_version.
CREATE TABLE discussion_views (
  topic_id INTEGER PRIMARY KEY REFERENCES discussion_topics(id),
  version INTEGER NOT NULL,
  max_entry_id INTEGER NOT NULL,
  view TEXT NOT NULL
);
`;

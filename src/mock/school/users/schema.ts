/** The searchable text of user `u`: names, live logins with their SIS ids, and channel addresses. */
const SEARCH_TEXT =
  `u.name || ' ' || u.sortable_name
  || ' ' || coalesce((SELECT group_concat(p.unique_id || ' ' || coalesce(p.sis_user_id, ''), ' ') FROM pseudonyms p ` +
  `WHERE p.user_id = u.id AND p.workflow_state <> 'deleted'), '')
  || ' ' || coalesce((SELECT group_concat(c.address, ' ') FROM communication_channels c WHERE c.user_id = u.id), '')`;

/** The triggers that keep user_search current; a bulk load of new users drops them and indexes once at the end. */
const searchTriggers = `CREATE TRIGGER user_search_user_insert AFTER INSERT ON users BEGIN
  INSERT INTO user_search (rowid, text) VALUES (new.id, new.name || ' ' || new.sortable_name);
END;
CREATE TRIGGER user_search_user_update AFTER UPDATE OF name, sortable_name ON users BEGIN
  DELETE FROM user_search WHERE rowid = new.id;
  INSERT INTO user_search (rowid, text) SELECT id, ${SEARCH_TEXT} FROM users u WHERE u.id = new.id;
END;
CREATE TRIGGER user_search_login_insert AFTER INSERT ON pseudonyms BEGIN
  DELETE FROM user_search WHERE rowid = new.user_id;
  INSERT INTO user_search (rowid, text) SELECT id, ${SEARCH_TEXT} FROM users u WHERE u.id = new.user_id;
END;
CREATE TRIGGER user_search_login_update AFTER UPDATE ON pseudonyms BEGIN
  DELETE FROM user_search WHERE rowid = new.user_id;
  INSERT INTO user_search (rowid, text) SELECT id, ${SEARCH_TEXT} FROM users u WHERE u.id = new.user_id;
END;
CREATE TRIGGER user_search_channel_insert AFTER INSERT ON communication_channels BEGIN
  DELETE FROM user_search WHERE rowid = new.user_id;
  INSERT INTO user_search (rowid, text) SELECT id, ${SEARCH_TEXT} FROM users u WHERE u.id = new.user_id;
END;
`;

/** user_search as a bulk load fills it: the new users, with their logins and addresses. */
export const searchIndex = {
  triggers: searchTriggers,
  fills: [
    {
      table: 'users',
      fill: `INSERT INTO user_search (rowid, text) SELECT id, ${SEARCH_TEXT} FROM users u WHERE u.id > ?`,
    },
  ],
};

export const schema =
  `
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  short_name TEXT NOT NULL,
  sortable_name TEXT NOT NULL,
  time_zone TEXT,
  locale TEXT,
  birthdate TEXT,
  avatar_url TEXT,
  public_profile INTEGER NOT NULL DEFAULT 1,
  manual_mark_as_read INTEGER NOT NULL DEFAULT 0,
  pronouns TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'registered',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX users_sortable ON users(sortable_name, id);

CREATE TABLE pseudonyms (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  unique_id TEXT NOT NULL,
  sis_user_id TEXT,
  integration_id TEXT,
  authentication_provider_id TEXT,
  password TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX pseudonyms_login ON pseudonyms(account_id, lower(unique_id)) WHERE workflow_state <> 'deleted';
CREATE UNIQUE INDEX pseudonyms_sis ON pseudonyms(account_id, sis_user_id) WHERE sis_user_id IS NOT NULL AND ` +
  `workflow_state <> 'deleted';
CREATE INDEX pseudonyms_user ON pseudonyms(user_id);

CREATE TABLE communication_channels (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL,
  address TEXT NOT NULL,
  position INTEGER NOT NULL,
  workflow_state TEXT NOT NULL DEFAULT 'unconfirmed'
);
CREATE INDEX communication_channels_user ON communication_channels(user_id, position);

CREATE TABLE access_tokens (
  token TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  purpose TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE follows (
  follower_id INTEGER NOT NULL REFERENCES users(id),
  followed_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (follower_id, followed_id)
);

CREATE TABLE page_views (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  user_agent TEXT,
  http_method TEXT NOT NULL,
  controller TEXT NOT NULL,
  action TEXT NOT NULL,
  context_type TEXT,
  context_id INTEGER,
  interaction_seconds REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX page_views_user ON page_views(user_id, created_at, id);

-- What users list --search matches (names, logins, SIS ids, email addresses), indexed by trigrams so
-- that a %term% match is an index read; kept current by triggers, whoever writes.
CREATE VIRTUAL TABLE user_search USING fts5(text, tokenize = 'trigram');
${searchTriggers}`;

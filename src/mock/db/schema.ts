// The mock's SQLite schema. Bump SCHEMA_VERSION when it changes; an older database is rebuilt.
export const SCHEMA_VERSION = 1;

export const schema = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  parent_account_id INTEGER REFERENCES accounts(id),
  root_account_id INTEGER,
  sis_account_id TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'active'
);

CREATE TABLE roles (
  name TEXT PRIMARY KEY,
  base_role_type TEXT NOT NULL,
  permissions TEXT NOT NULL
);

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
  workflow_state TEXT NOT NULL DEFAULT 'registered',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE pseudonyms (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  unique_id TEXT NOT NULL,
  sis_user_id TEXT,
  password TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX pseudonyms_login ON pseudonyms(account_id, lower(unique_id)) WHERE workflow_state <> 'deleted';
CREATE UNIQUE INDEX pseudonyms_sis ON pseudonyms(account_id, sis_user_id) WHERE sis_user_id IS NOT NULL AND workflow_state <> 'deleted';
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

CREATE TABLE account_users (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  role TEXT NOT NULL REFERENCES roles(name),
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);

CREATE TABLE courses (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  root_account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  course_code TEXT NOT NULL,
  sis_course_id TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'available',
  start_at TEXT,
  end_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX courses_sis ON courses(root_account_id, sis_course_id) WHERE sis_course_id IS NOT NULL;

CREATE TABLE course_sections (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  nonxlist_course_id INTEGER REFERENCES courses(id),
  root_account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  sis_section_id TEXT,
  start_at TEXT,
  end_at TEXT,
  default_section INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX course_sections_sis ON course_sections(root_account_id, sis_section_id) WHERE sis_section_id IS NOT NULL;

CREATE TABLE enrollments (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  course_id INTEGER NOT NULL REFERENCES courses(id),
  course_section_id INTEGER NOT NULL REFERENCES course_sections(id),
  root_account_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  role TEXT NOT NULL,
  workflow_state TEXT NOT NULL,
  limit_privileges_to_course_section INTEGER NOT NULL DEFAULT 0,
  associated_user_id INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX enrollments_course ON enrollments(course_id, user_id);
CREATE INDEX enrollments_user ON enrollments(user_id);

CREATE TABLE assignments (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  name TEXT NOT NULL,
  description TEXT,
  points_possible REAL,
  grading_type TEXT NOT NULL DEFAULT 'points',
  submission_types TEXT NOT NULL DEFAULT '["none"]',
  due_at TEXT,
  lock_at TEXT,
  unlock_at TEXT,
  grading_standard_id INTEGER,
  position INTEGER NOT NULL,
  published INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX assignments_course ON assignments(course_id, position);

CREATE TABLE groups (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  name TEXT NOT NULL,
  description TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'available',
  created_at TEXT NOT NULL
);

CREATE TABLE group_memberships (
  id INTEGER PRIMARY KEY,
  group_id INTEGER NOT NULL REFERENCES groups(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  workflow_state TEXT NOT NULL DEFAULT 'accepted'
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

// Outcome groups form one tree per context (global, an account, a course); outcomes are owned by a
// context and linked into groups of related contexts; alignments (to an assignment or a rubric)
// keep an outcome from being deleted with its last link.
export const schema =
  `
CREATE TABLE outcome_groups (
  id INTEGER PRIMARY KEY,
  context_type TEXT,
  context_id INTEGER,
  parent_id INTEGER REFERENCES outcome_groups(id),
  title TEXT NOT NULL,
  description TEXT,
  vendor_guid TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX outcome_groups_root ON outcome_groups(coalesce(context_type, ''), coalesce(context_id, 0)) WHERE ` +
  `parent_id IS NULL AND workflow_state = 'active';
CREATE INDEX outcome_groups_children ON outcome_groups(parent_id, title, id) WHERE workflow_state = 'active';

CREATE TABLE outcomes (
  id INTEGER PRIMARY KEY,
  context_type TEXT,
  context_id INTEGER,
  title TEXT NOT NULL,
  display_name TEXT,
  description TEXT,
  vendor_guid TEXT,
  mastery_points REAL,
  points_possible REAL,
  ratings TEXT,
  calculation_method TEXT NOT NULL,
  calculation_int INTEGER,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- A link carries its outcome's title, so that a group's links in title order are one index read.
CREATE TABLE outcome_links (
  id INTEGER PRIMARY KEY,
  group_id INTEGER NOT NULL REFERENCES outcome_groups(id),
  outcome_id INTEGER NOT NULL REFERENCES outcomes(id),
  outcome_title TEXT NOT NULL,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX outcome_links_once ON outcome_links(group_id, outcome_id) WHERE workflow_state = 'active';
CREATE INDEX outcome_links_group ON outcome_links(group_id, outcome_title, id) WHERE workflow_state = 'active';
CREATE INDEX outcome_links_outcome ON outcome_links(outcome_id) WHERE workflow_state = 'active';

CREATE TABLE outcome_alignments (
  id INTEGER PRIMARY KEY,
  outcome_id INTEGER NOT NULL REFERENCES outcomes(id),
  content_type TEXT NOT NULL,
  content_id INTEGER NOT NULL,
  title TEXT NOT NULL
);
CREATE INDEX outcome_alignments_outcome ON outcome_alignments(outcome_id);
`;

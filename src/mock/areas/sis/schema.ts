export const schema = `
-- SIS imports (Canvas's SisBatch): one upload of SIS CSVs, applied by the job runner of the serving
-- process, created → importing → imported | imported_with_messages | failed_with_messages | aborted.
CREATE TABLE sis_batches (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  user_id INTEGER REFERENCES users(id),
  workflow_state TEXT NOT NULL DEFAULT 'created',
  progress INTEGER NOT NULL DEFAULT 0,
  -- JSON: batch_mode, batch_mode_term_id, override_sis_stickiness, diffing_data_set_identifier, change_threshold.
  options TEXT NOT NULL,
  -- JSON: the kinds of file supplied, the rows per kind, the [file, message] warnings and errors.
  supplied TEXT NOT NULL DEFAULT '[]',
  counts TEXT NOT NULL DEFAULT '{}',
  warnings TEXT NOT NULL DEFAULT '[]',
  errors TEXT NOT NULL DEFAULT '[]',
  -- JSON: the rows as read, by kind (what a later import of the same data set diffs against).
  rows TEXT NOT NULL DEFAULT '{}',
  diffing_data_set_identifier TEXT,
  diffed_against_import_id INTEGER,
  diffing_threshold_exceeded INTEGER NOT NULL DEFAULT 0,
  -- The job's Progress: a server that stopped mid-import leaves it failed (jobs.ts), and so the import.
  progress_id INTEGER REFERENCES progress(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ended_at TEXT
);
CREATE INDEX sis_batches_account ON sis_batches(account_id, id);
CREATE INDEX sis_batches_data_set ON sis_batches(account_id, diffing_data_set_identifier, id);

-- What SIS imports made or last touched: batch mode deletes, within a term, what the batch no
-- longer names. A course's row carries its term; a section's or enrollment's, its course.
CREATE TABLE sis_records (
  kind TEXT NOT NULL,
  record_id INTEGER NOT NULL,
  course_id INTEGER,
  term_id INTEGER,
  batch_id INTEGER NOT NULL REFERENCES sis_batches(id),
  PRIMARY KEY (kind, record_id)
);
CREATE INDEX sis_records_course ON sis_records(course_id, kind);
`;

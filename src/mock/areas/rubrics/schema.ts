// A course's rubrics (criteria and their ratings as JSON, as canvas-lms serializes them), their
// associations (to the course as a bookmark, to an assignment for grading), and the assessments
// made with them of submissions. An assignment has at most one active grading association.
export const schema = `
CREATE TABLE rubrics (
  id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(id),
  title TEXT NOT NULL,
  data TEXT NOT NULL,
  points_possible REAL NOT NULL,
  free_form_criterion_comments INTEGER NOT NULL DEFAULT 0,
  hide_score_total INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX rubrics_course ON rubrics(course_id, id);

CREATE TABLE rubric_associations (
  id INTEGER PRIMARY KEY,
  rubric_id INTEGER NOT NULL REFERENCES rubrics(id),
  course_id INTEGER NOT NULL REFERENCES courses(id),
  association_type TEXT NOT NULL,
  association_id INTEGER NOT NULL,
  use_for_grading INTEGER NOT NULL DEFAULT 0,
  purpose TEXT NOT NULL,
  hide_score_total INTEGER NOT NULL DEFAULT 0,
  hide_points INTEGER NOT NULL DEFAULT 0,
  hide_outcome_results INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE INDEX rubric_associations_rubric ON rubric_associations(rubric_id, id);
CREATE INDEX rubric_associations_object ON rubric_associations(association_type, association_id);

-- One grading assessment per submission and association (canvas-lms keeps grading assessments
-- unique per artifact; the assessor is whoever assessed last); any other type, one per assessor.
CREATE TABLE rubric_assessments (
  id INTEGER PRIMARY KEY,
  rubric_id INTEGER NOT NULL REFERENCES rubrics(id),
  rubric_association_id INTEGER NOT NULL REFERENCES rubric_associations(id),
  submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  assessor_id INTEGER NOT NULL REFERENCES users(id),
  assessment_type TEXT NOT NULL DEFAULT 'grading',
  score REAL,
  data TEXT NOT NULL,
  artifact_attempt INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX rubric_assessments_grading ON rubric_assessments(rubric_association_id, submission_id)
  WHERE assessment_type = 'grading';
CREATE UNIQUE INDEX rubric_assessments_assessor
  ON rubric_assessments(rubric_association_id, submission_id, assessment_type, assessor_id)
  WHERE assessment_type <> 'grading';
CREATE INDEX rubric_assessments_submission ON rubric_assessments(submission_id);
`;

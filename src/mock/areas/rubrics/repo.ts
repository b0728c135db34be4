// Rubrics, their associations and assessments: the only place their SQL lives.
import type { Db } from '../../db/open.js';
import type { KeysetQuery } from '../../kit.js';
import { all, insert, one, run } from '../../db/statements.js';

export interface RatingData {
  id: string;
  description: string;
  long_description: string | null;
  points: number;
}

export interface CriterionData {
  id: string;
  description: string;
  long_description: string | null;
  points: number;
  criterion_use_range: boolean;
  /** A criterion made from an outcome: its points cap the points an assessment gives it. */
  learning_outcome_id?: number;
  ratings: RatingData[];
}

export interface RubricRow {
  id: number;
  course_id: number;
  title: string;
  data: string;
  points_possible: number;
  free_form_criterion_comments: number;
  hide_score_total: number;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export interface AssociationRow {
  id: number;
  rubric_id: number;
  course_id: number;
  association_type: 'Assignment' | 'Course';
  association_id: number;
  use_for_grading: number;
  purpose: 'grading' | 'bookmark';
  hide_score_total: number;
  hide_points: number;
  hide_outcome_results: number;
  workflow_state: string;
  created_at: string;
}

/** One criterion's part of an assessment, as canvas-lms keeps it in the assessment's data. */
export type AssessedRating = {
  criterion_id: string;
  id: string | null;
  points: number | null;
  description: string;
  comments: string | null;
  comments_enabled: boolean;
};

export type AssessmentType = 'grading' | 'peer_review' | 'provisional_grade';

export interface AssessmentRow {
  id: number;
  rubric_id: number;
  rubric_association_id: number;
  submission_id: number;
  user_id: number;
  assessor_id: number;
  assessment_type: AssessmentType;
  score: number | null;
  data: string;
  artifact_attempt: number | null;
  created_at: string;
  updated_at: string;
}

export const criteriaOf = (r: RubricRow): CriterionData[] => JSON.parse(r.data) as CriterionData[];

export function rubricById(db: Db, id: number): RubricRow | undefined {
  return one<RubricRow>(db, `SELECT * FROM rubrics WHERE id = ?`, id);
}

export function createRubric(
  db: Db,
  r: { id?: number; course: number; title: string; criteria: CriterionData[]; freeForm: boolean; now: string },
): number {
  return insert(
    db,
    'INSERT INTO rubrics (id, course_id, title, data, points_possible, free_form_criterion_comments, created_at, ' +
      'updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    r.id ?? null,
    r.course,
    r.title,
    JSON.stringify(r.criteria),
    pointsOf(r.criteria),
    r.freeForm ? 1 : 0,
    r.now,
    r.now,
  );
}

/** A rubric's points: its criteria's, summed. */
export const pointsOf = (criteria: readonly CriterionData[]) => criteria.reduce((n, c) => n + c.points, 0);

export function updateRubric(
  db: Db,
  id: number,
  r: { title: string; criteria: CriterionData[]; freeForm: boolean; now: string },
): void {
  run(
    db,
    'UPDATE rubrics SET title = ?, data = ?, points_possible = ?, free_form_criterion_comments = ?, updated_at = ? ' +
      'WHERE id = ?',
    r.title,
    JSON.stringify(r.criteria),
    pointsOf(r.criteria),
    r.freeForm ? 1 : 0,
    r.now,
    id,
  );
}

/** Deletes a rubric with its associations; its assessments stay, read through no association. */
export function deleteRubric(db: Db, id: number, now: string): void {
  run(db, `UPDATE rubrics SET workflow_state = 'deleted', updated_at = ? WHERE id = ?`, now, id);
  run(db, `UPDATE rubric_associations SET workflow_state = 'deleted' WHERE rubric_id = ?`, id);
}

export function rubricsOfCourseQuery(courseId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM rubrics WHERE course_id = ? AND workflow_state = 'active'`,
    args: [courseId],
    key: ['id'],
  };
}

export function associationById(db: Db, id: number): AssociationRow | undefined {
  return one<AssociationRow>(db, `SELECT * FROM rubric_associations WHERE id = ?`, id);
}

export function associationsOf(db: Db, rubricId: number): AssociationRow[] {
  return all<AssociationRow>(
    db,
    `SELECT * FROM rubric_associations WHERE rubric_id = ? AND workflow_state = 'active' ORDER BY id`,
    rubricId,
  );
}

/** The rubric's association with an object, if it has one. */
export function associationWith(
  db: Db,
  rubricId: number,
  type: AssociationRow['association_type'],
  objectId: number,
): AssociationRow | undefined {
  return one<AssociationRow>(
    db,
    'SELECT * FROM rubric_associations WHERE rubric_id = ? AND association_type = ? AND association_id = ? AND ' +
      `workflow_state = 'active' ORDER BY id LIMIT 1`,
    rubricId,
    type,
    objectId,
  );
}

/** The assignment's active grading association: what assessing one of its submissions uses. */
export function gradingAssociationOf(db: Db, assignmentId: number): AssociationRow | undefined {
  return one<AssociationRow>(
    db,
    `SELECT a.* FROM rubric_associations a JOIN rubrics r ON r.id = a.rubric_id
     WHERE a.association_type = 'Assignment' AND a.association_id = ? AND a.purpose = 'grading'
       AND a.workflow_state = 'active' AND r.workflow_state = 'active' ORDER BY a.id DESC LIMIT 1`,
    assignmentId,
  );
}

export interface AssociationFields {
  use_for_grading: boolean;
  purpose: AssociationRow['purpose'];
  hide_score_total: boolean;
  hide_points: boolean;
  hide_outcome_results: boolean;
}

export function createAssociation(
  db: Db,
  a: {
    id?: number;
    rubric: number;
    course: number;
    type: AssociationRow['association_type'];
    objectId: number;
    fields: AssociationFields;
    now: string;
  },
): number {
  // An assignment is graded by one rubric at a time: a new grading association replaces the old.
  if (a.type === 'Assignment' && a.fields.purpose === 'grading')
    run(
      db,
      `UPDATE rubric_associations SET workflow_state = 'deleted' WHERE association_type = 'Assignment' AND ` +
        `association_id = ? AND purpose = 'grading' AND workflow_state = 'active'`,
      a.objectId,
    );
  return insert(
    db,
    'INSERT INTO rubric_associations (id, rubric_id, course_id, association_type, association_id, use_for_grading, ' +
      'purpose, hide_score_total, hide_points, hide_outcome_results, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ' +
      '?, ?)',
    a.id ?? null,
    a.rubric,
    a.course,
    a.type,
    a.objectId,
    a.fields.use_for_grading ? 1 : 0,
    a.fields.purpose,
    a.fields.hide_score_total ? 1 : 0,
    a.fields.hide_points ? 1 : 0,
    a.fields.hide_outcome_results ? 1 : 0,
    a.now,
  );
}

export function updateAssociation(db: Db, id: number, f: AssociationFields): void {
  run(
    db,
    'UPDATE rubric_associations SET use_for_grading = ?, purpose = ?, hide_score_total = ?, hide_points = ?, ' +
      'hide_outcome_results = ? WHERE id = ?',
    f.use_for_grading ? 1 : 0,
    f.purpose,
    f.hide_score_total ? 1 : 0,
    f.hide_points ? 1 : 0,
    f.hide_outcome_results ? 1 : 0,
    id,
  );
}

/**
 * Writes the submission's assessment under an association: a grading one is kept per submission,
 * any other per submission and assessor (RubricAssociation#assess). Returns its id.
 */
export function saveAssessment(
  db: Db,
  a: {
    rubric: number;
    association: number;
    submission: number;
    user: number;
    assessor: number;
    type?: AssessmentType;
    score: number | null;
    ratings: AssessedRating[];
    attempt: number | null;
    now: string;
  },
): number {
  const type = a.type ?? 'grading';
  const existing = one<{ id: number }>(
    db,
    'SELECT id FROM rubric_assessments WHERE rubric_association_id = ? AND submission_id = ? AND assessment_type = ? ' +
      `AND (assessment_type = 'grading' OR assessor_id = ?)`,
    a.association,
    a.submission,
    type,
    a.assessor,
  );
  if (existing) {
    run(
      db,
      'UPDATE rubric_assessments SET assessor_id = ?, score = ?, data = ?, artifact_attempt = ?, updated_at = ? ' +
        'WHERE id = ?',
      a.assessor,
      a.score,
      JSON.stringify(a.ratings),
      a.attempt,
      a.now,
      existing.id,
    );
    return existing.id;
  }
  return insert(
    db,
    'INSERT INTO rubric_assessments (rubric_id, rubric_association_id, submission_id, user_id, assessor_id, ' +
      'assessment_type, score, data, artifact_attempt, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ' +
      '?, ?)',
    a.rubric,
    a.association,
    a.submission,
    a.user,
    a.assessor,
    type,
    a.score,
    JSON.stringify(a.ratings),
    a.attempt,
    a.now,
    a.now,
  );
}

export function assessmentById(db: Db, id: number): AssessmentRow | undefined {
  return one<AssessmentRow>(db, `SELECT * FROM rubric_assessments WHERE id = ?`, id);
}

export function deleteAssessment(db: Db, id: number): void {
  run(db, `DELETE FROM rubric_assessments WHERE id = ?`, id);
}

/** Deletes one association (its assessments stay, as canvas-lms keeps them). */
export function deleteAssociation(db: Db, id: number): void {
  run(db, `UPDATE rubric_associations SET workflow_state = 'deleted' WHERE id = ?`, id);
}

/** An assignment is graded by one rubric at a time: its other grading associations go. */
export function retireOtherGrading(db: Db, assignmentId: number, keep: number): void {
  run(
    db,
    `UPDATE rubric_associations SET workflow_state = 'deleted' WHERE association_type = 'Assignment' AND ` +
      `association_id = ? AND purpose = 'grading' AND workflow_state = 'active' AND id <> ?`,
    assignmentId,
    keep,
  );
}

/** The submission's grading assessment under its assignment's active grading association. */
export function gradingAssessmentOf(db: Db, submissionId: number, assignmentId: number): AssessmentRow | undefined {
  const association = gradingAssociationOf(db, assignmentId);
  if (!association) return undefined;
  return one<AssessmentRow>(
    db,
    'SELECT * FROM rubric_assessments WHERE submission_id = ? AND rubric_association_id = ? AND assessment_type = ' +
      `'grading'`,
    submissionId,
    association.id,
  );
}

/** The rubric's assessments in a course, of the given type (all types when none is given). */
export function assessmentsOf(db: Db, rubricId: number, courseId: number, type?: string): AssessmentRow[] {
  return all<AssessmentRow>(
    db,
    `SELECT s.* FROM rubric_assessments s JOIN rubric_associations a ON a.id = s.rubric_association_id
     WHERE s.rubric_id = ? AND a.course_id = ? AND (? IS NULL OR s.assessment_type = ?) ORDER BY s.id`,
    rubricId,
    courseId,
    type ?? null,
    type ?? null,
  );
}

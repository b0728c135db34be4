// Rubrics, associations and assessments as canvas-lms's models show them (rubrics_api_controller.rb).
import type { Rubric, RubricAssessment, RubricAssociation, RubricCriterion } from '../../../spec/types/rubrics.js';
import type { AssessedRating, AssessmentRow, AssociationRow, CriterionData, RubricRow } from './repo.js';
import { criteriaOf } from './repo.js';

export function criterionJson(c: CriterionData): RubricCriterion {
  return {
    id: c.id,
    description: c.description,
    long_description: c.long_description,
    points: c.points,
    criterion_use_range: c.criterion_use_range,
    ...(c.learning_outcome_id !== undefined ? { learning_outcome_id: c.learning_outcome_id } : {}),
    ratings: c.ratings.map((r) => ({
      id: r.id,
      criterion_id: c.id,
      description: r.description,
      long_description: r.long_description,
      points: r.points,
    })),
  };
}

export function rubricJson(
  r: RubricRow,
  extra: { assessments?: RubricAssessment[]; associations?: RubricAssociation[] } = {},
): Rubric {
  return {
    id: r.id,
    title: r.title,
    context_id: r.course_id,
    context_type: 'Course',
    points_possible: r.points_possible,
    reusable: false,
    read_only: false,
    free_form_criterion_comments: r.free_form_criterion_comments === 1,
    hide_score_total: r.hide_score_total === 1,
    data: criteriaOf(r).map(criterionJson),
    ...extra,
  };
}

export function associationJson(a: AssociationRow): RubricAssociation {
  return {
    id: a.id,
    rubric_id: a.rubric_id,
    association_id: a.association_id,
    association_type: a.association_type,
    use_for_grading: a.use_for_grading === 1,
    summary_data: null,
    purpose: a.purpose,
    hide_score_total: a.hide_score_total === 1,
    hide_points: a.hide_points === 1,
    hide_outcome_results: a.hide_outcome_results === 1,
  };
}

export function assessmentJson(s: AssessmentRow, style?: 'full' | 'comments_only'): RubricAssessment {
  const ratings = JSON.parse(s.data) as AssessedRating[];
  return {
    id: s.id,
    rubric_id: s.rubric_id,
    rubric_association_id: s.rubric_association_id,
    score: s.score,
    artifact_type: 'Submission',
    artifact_id: s.submission_id,
    artifact_attempt: s.artifact_attempt,
    assessment_type: s.assessment_type,
    assessor_id: s.assessor_id,
    ...(style === 'full' ? { data: ratings } : {}),
    ...(style === 'comments_only' ? { comments: ratings.map((r) => r.comments) } : {}),
  };
}

/** A submission's `rubric_assessment`: each criterion's rating id, points and comments, by criterion id. */
export function submissionAssessmentJson(
  s: AssessmentRow,
): Record<string, { rating_id: string | null; points: number | null; comments: string | null }> {
  const out: Record<string, { rating_id: string | null; points: number | null; comments: string | null }> = {};
  for (const r of JSON.parse(s.data) as AssessedRating[])
    out[r.criterion_id] = { rating_id: r.id, points: r.points, comments: r.comments };
  return out;
}

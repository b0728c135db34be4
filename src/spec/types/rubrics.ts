// Rubrics, their associations and assessments: canvas-lms's Rubric, RubricCriterion, RubricRating,
// RubricAssociation and RubricAssessment models (rubrics_api_controller.rb), and the create and
// update answer of rubrics_controller.rb, `{ rubric, rubric_association }`.
import type { ApiObject, Id } from './common.js';

interface RubricRating extends ApiObject {
  id: string;
  criterion_id?: string;
  description: string;
  long_description?: string | null;
  points: number;
}

export interface RubricCriterion extends ApiObject {
  id: string;
  description: string;
  long_description?: string | null;
  points: number;
  criterion_use_range?: boolean;
  ratings: RubricRating[];
}

export interface RubricAssessment extends ApiObject {
  id: number;
  rubric_id: number;
  rubric_association_id: number | null;
  score: number | null;
  artifact_type: string;
  artifact_id: number;
  artifact_attempt: number | null;
  assessment_type: 'grading' | 'peer_review' | 'provisional_grade';
  assessor_id: number;
  /** With `style=full`: each criterion's rating. */
  data?: ApiObject[];
  /** With `style=comments_only`: each criterion's comments. */
  comments?: (string | null)[];
}

export interface RubricAssociation extends ApiObject {
  id: number;
  rubric_id: number;
  association_id: number;
  association_type: 'Assignment' | 'Course' | 'Account';
  use_for_grading: boolean;
  summary_data?: string | null;
  purpose: 'grading' | 'bookmark';
  hide_score_total: boolean;
  hide_points: boolean;
  hide_outcome_results: boolean;
}

export interface Rubric extends ApiObject {
  id: number;
  title: string;
  context_id: number;
  context_type: string;
  points_possible: number;
  reusable: boolean;
  read_only: boolean;
  free_form_criterion_comments: boolean;
  hide_score_total: boolean | null;
  data: RubricCriterion[];
  assessments?: RubricAssessment[];
  associations?: RubricAssociation[];
}

/** What creating or updating a rubric answers: not a Rubric, as canvas-lms documents. */
export interface RubricWithAssociation extends ApiObject {
  rubric: Rubric & { criteria?: RubricCriterion[] };
  rubric_association?: RubricAssociation;
}

/** One rating of a criterion, as the form sends it: `rubric[criteria][0][ratings][1][points]`. */
export interface RatingFields {
  description?: string;
  long_description?: string;
  points?: number | string;
  id?: string;
}

export interface CriterionFields {
  description?: string;
  long_description?: string;
  points?: number | string;
  criterion_use_range?: boolean;
  id?: string;
  ratings?: Record<string, RatingFields>;
}

export interface RubricWriteParams {
  course_id: Id;
  rubric?: {
    title?: string;
    free_form_criterion_comments?: boolean;
    /** An indexed hash of criteria, as canvas-lms takes it: `rubric[criteria][0][description]`. */
    criteria?: Record<string, CriterionFields>;
  };
  rubric_association_id?: Id;
  rubric_association?: {
    association_id?: Id;
    association_type?: 'Assignment' | 'Course' | 'Account';
    use_for_grading?: boolean;
    hide_score_total?: boolean;
    purpose?: 'grading' | 'bookmark';
  };
}

export type RubricInclude =
  | 'assessments'
  | 'graded_assessments'
  | 'peer_assessments'
  | 'associations'
  | 'assignment_associations'
  | 'course_associations'
  | 'account_associations';

/** `rubric_association[…]` of the associations API (rubric_associations_controller.rb). */
export interface AssociationWriteParams {
  course_id: Id;
  rubric_association: {
    rubric_id?: Id;
    association_id?: Id;
    association_type?: 'Assignment' | 'Course' | 'Account';
    title?: string;
    use_for_grading?: boolean;
    hide_score_total?: boolean;
    purpose?: 'grading' | 'bookmark';
    bookmarked?: boolean;
  };
}

/** One criterion's part of an assessment, as `rubric_assessment[criterion_<id>][…]` sends it. */
interface AssessedCriterion {
  points?: number | string;
  comments?: string;
  rating_id?: string;
}

/** `rubric_assessment[…]`: whom it assesses, as what, and a `criterion_<id>` key per criterion rated. */
export type AssessmentFields = {
  user_id?: Id;
  assessment_type?: 'grading' | 'peer_review' | 'provisional_grade';
} & { [criterion: `criterion_${string}`]: AssessedCriterion };

export interface AssessmentWriteParams {
  course_id: Id;
  rubric_association_id: Id;
  rubric_assessment: AssessmentFields;
}

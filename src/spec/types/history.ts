// Gradebook history: what graders changed, by day, grader and assignment, and as one feed.
import type { ApiObject } from './common.js';
import type { GradedAssignment, Submission } from './submissions.js';

export interface Grader extends ApiObject {
  id: number;
  name: string;
  assignments: GradedAssignment[];
}

export interface HistoryDay extends ApiObject {
  /** YYYY-MM-DD in the course's time zone. */
  date: string;
  graders: Grader[];
}

/** One change of a grade: the submission as it was after it, with who and when. */
export interface SubmissionVersion extends Submission {
  assignment_name: string;
  user_name: string;
  /** The grader's name. */
  grader: string | null;
  current_grade: string | null;
  current_graded_at: string | null;
  current_grader: string | null;
  new_grade?: string | null;
  new_graded_at?: string | null;
  new_grader?: string | null;
  new_score?: number | null;
  previous_grade?: string | null;
  previous_graded_at?: string | null;
  previous_grader?: string | null;
}

export interface SubmissionHistory extends ApiObject {
  submission_id: number;
  versions: SubmissionVersion[];
}

export interface FeedFilter {
  assignment_id?: number | string;
  user_id?: number | string;
  ascending?: boolean;
}

// Submissions, their comments and grading, as the API answers them.
import type { RubricCriterion } from './rubrics.js';
import type { ApiObject, Id } from './common.js';
import type { BriefUser } from './roster.js';
import type { Assignment, Attachment } from './school.js';
import type { SchemeEntry } from '../grading.js';

const SUBMIT_TYPES = ['online_text_entry', 'online_url', 'online_upload', 'media_recording'] as const;
type SubmitType = (typeof SUBMIT_TYPES)[number];

export const SUBMISSION_INCLUDES = [
  'submission_history',
  'submission_comments',
  'rubric_assessment',
  'assignment',
  'user',
  'total_scores',
] as const;
export type SubmissionInclude = (typeof SUBMISSION_INCLUDES)[number];

type SubmissionState = 'unsubmitted' | 'submitted' | 'graded' | 'pending_review';

/** An assignment as grading reads it: with its letter scheme when it is letter-graded. */
export interface GradedAssignment extends Assignment {
  grading_standard_id?: number | null;
  grading_scheme?: SchemeEntry[];
  /** The criteria of the rubric that grades it, if one does. */
  rubric?: RubricCriterion[];
  use_rubric_for_grading?: boolean;
  rubric_settings?: { id: number; title: string; points_possible: number };
}

export interface MediaComment extends ApiObject {
  'content-type': string;
  display_name: string | null;
  media_id: string;
  media_type: 'audio' | 'video';
  url: string;
}

export interface SubmissionComment extends ApiObject {
  id: number;
  author_id: number;
  author_name: string;
  comment: string;
  created_at: string;
  edited_at: string | null;
  media_comment?: MediaComment;
}

/** One criterion of a submission's rubric assessment, by criterion id. */
interface RubricRating {
  rating_id: string | null;
  points: number | null;
  comments: string | null;
}

/** One attempt, as `submission_history` lists them. */
export interface SubmissionAttempt extends ApiObject {
  id: number;
  user_id: number;
  assignment_id: number;
  attempt: number | null;
  submission_type: SubmitType | null;
  submitted_at: string | null;
  body: string | null;
  url: string | null;
  score: number | null;
  grade: string | null;
  workflow_state: SubmissionState;
}

export interface Submission extends ApiObject {
  id: number;
  user_id: number;
  assignment_id: number;
  course_id: number;
  attempt: number | null;
  body: string | null;
  url: string | null;
  grade: string | null;
  score: number | null;
  entered_grade: string | null;
  entered_score: number | null;
  excused: boolean;
  grade_matches_current_submission: boolean;
  graded_at: string | null;
  grader_id: number | null;
  submission_type: SubmitType | null;
  submitted_at: string | null;
  workflow_state: SubmissionState;
  late: boolean;
  missing: boolean;
  seconds_late: number;
  html_url: string;
  preview_url: string;
  attachments?: Attachment[];
  media_comment?: MediaComment;
  submission_comments?: SubmissionComment[];
  submission_history?: SubmissionAttempt[];
  rubric_assessment?: Record<string, RubricRating>;
  assignment?: GradedAssignment;
  user?: BriefUser;
}

/** `grouped`: one student's submissions (and, with total_scores, their totals). */
export interface StudentSubmissions extends ApiObject {
  user_id: number;
  section_id: number | null;
  submissions: Submission[];
  computed_current_score?: number | null;
  computed_final_score?: number | null;
}

export interface NewSubmission {
  submission_type: SubmitType;
  body?: string;
  url?: string;
  file_ids?: number[];
  media_comment_id?: string;
  media_comment_type?: 'audio' | 'video';
}

interface CommentFields {
  text_comment?: string;
  group_comment?: boolean;
  media_comment_id?: string;
  media_comment_type?: 'audio' | 'video';
}

export interface GradeParams {
  comment?: CommentFields;
  submission?: { posted_grade?: string; excuse?: boolean };
  rubric_assessment?: Record<string, { points?: number | string; comments?: string }>;
  include?: SubmissionInclude[];
}

/** `grade_data[<user_id>]` of a batch: a posted grade and/or a comment for one student. */
export interface GradeDataEntry {
  posted_grade?: string;
  text_comment?: string;
  excuse?: boolean;
}

/** `{ course_id }` or `{ section_id }`: the two contexts of every submissions route. */
export type SubmissionContext = { course_id: Id; section_id?: never } | { section_id: Id; course_id?: never };

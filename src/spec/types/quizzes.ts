// Quizzes of a course, as the API answers them and as they are created and edited.
import type { ApiObject } from './common.js';

export const QUIZ_TYPES = ['practice_quiz', 'assignment', 'graded_survey', 'survey'] as const;
type QuizType = (typeof QUIZ_TYPES)[number];
export const HIDE_RESULTS = ['always', 'until_after_last_attempt'] as const;
type HideResults = (typeof HIDE_RESULTS)[number];
export const SCORING_POLICIES = ['keep_highest', 'keep_latest'] as const;
type ScoringPolicy = (typeof SCORING_POLICIES)[number];

export interface Quiz extends ApiObject {
  id: number;
  title: string;
  html_url: string;
  mobile_url: string;
  description: string | null;
  quiz_type: QuizType;
  assignment_group_id: number | null;
  assignment_id: number | null;
  time_limit: number | null;
  shuffle_answers: boolean;
  hide_results: HideResults | null;
  show_correct_answers: boolean;
  scoring_policy: ScoringPolicy | null;
  allowed_attempts: number;
  one_question_at_a_time: boolean;
  question_count: number;
  points_possible: number | null;
  cant_go_back: boolean;
  access_code?: string | null;
  ip_filter: string | null;
  due_at: string | null;
  lock_at: string | null;
  unlock_at: string | null;
  published: boolean;
  locked_for_user: boolean;
  lock_info?: { asset_string: string; unlock_at?: string; lock_at?: string };
  lock_explanation?: string;
}

/** `quiz[...]` of create and update; null clears a field that may be null. */
export interface QuizFields {
  title?: string;
  description?: string;
  quiz_type?: QuizType;
  assignment_group_id?: number | string;
  time_limit?: number | string | null;
  shuffle_answers?: boolean;
  hide_results?: HideResults | '' | null;
  show_correct_answers?: boolean;
  allowed_attempts?: number | string;
  scoring_policy?: ScoringPolicy;
  one_question_at_a_time?: boolean;
  cant_go_back?: boolean;
  access_code?: string | null;
  ip_filter?: string | null;
  due_at?: string | null;
  lock_at?: string | null;
  unlock_at?: string | null;
  published?: boolean;
  /** Update only: tell the course's users about the change (default true). */
  notify_of_update?: boolean;
}

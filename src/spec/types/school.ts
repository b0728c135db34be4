// Supporting resources: accounts, courses, assignments, groups, files.
import type { ApiObject } from './common.js';
import type { TermOverrideType } from '../vocabulary.js';

export interface Account extends ApiObject {
  id: number;
  name: string;
  parent_account_id: number | null;
  root_account_id: number | null;
}

export interface Course extends ApiObject {
  id: number;
  name: string;
  course_code: string;
  account_id: number;
  sis_course_id?: string | null;
  workflow_state: string;
  start_at?: string | null;
  end_at?: string | null;
  time_zone?: string;
  enrollment_term_id?: number | null;
  integration_id?: string | null;
}

/** A root account's term (terms_api_controller.rb's EnrollmentTerm). */
export interface EnrollmentTerm extends ApiObject {
  id: number;
  name: string;
  start_at: string | null;
  end_at: string | null;
  created_at: string;
  workflow_state: 'active' | 'deleted';
  grading_period_group_id?: number | null;
  /** Shown to those who may read SIS data. */
  sis_term_id?: string | null;
  /** Shown to those who may manage SIS data. */
  sis_import_id?: number | null;
  /** Dates overridden for one enrollment type, by type: the term's own answer always has it. */
  overrides?: Record<string, { start_at: string | null; end_at: string | null }>;
}

/** `enrollment_term[...]` of a create or an update; an update changes only what it names. */
export interface TermFields {
  name?: string;
  start_at?: string;
  end_at?: string;
  /** Needs the right to manage SIS data; "" clears it. */
  sis_term_id?: string;
  overrides?: Partial<Record<TermOverrideType, { start_at?: string; end_at?: string }>>;
}

/** `course[...]` of a create or an update; an update changes only what it names. */
export interface CourseFields {
  name?: string;
  course_code?: string;
  /** Needs the right to manage SIS data. */
  sis_course_id?: string;
  /** null clears a date (sent as ""). */
  start_at?: string | null;
  end_at?: string | null;
  time_zone?: string;
  /** Its term: an id, or `sis_term_id:X`, among the root account's terms. */
  term_id?: string;
  /** Needs the right to manage SIS data; "" clears it on an update. */
  integration_id?: string;
  /**
   * Update only: `offer` publishes the course, `claim` unpublishes it (or reopens a concluded one),
   * `conclude` makes it read-only, `delete` deletes it.
   */
  event?: 'offer' | 'claim' | 'conclude' | 'delete';
  /** The final grade weighs each assignment group by its `group_weight`. */
  apply_assignment_group_weights?: boolean;
}

export interface Assignment extends ApiObject {
  id: number;
  name: string;
  course_id: number;
  points_possible: number | null;
  grading_type: string;
  submission_types: string[];
  due_at: string | null;
  published?: boolean;
  /** `deleted` in the answer to a delete. */
  workflow_state?: string;
}

/** `assignment[...]` of a create or an update; an update changes only what it names. */
export interface AssignmentFields {
  name?: string;
  description?: string;
  points_possible?: number;
  grading_type?: string;
  submission_types?: string[];
  /** null clears it (sent as ""). */
  due_at?: string | null;
  grading_standard_id?: number | null;
  published?: boolean;
  /** The assignment group it counts in (the course's first when not named). */
  assignment_group_id?: number;
}

export interface Group extends ApiObject {
  id: number;
  name: string;
  course_id: number;
  /** Its group set: what a group discussion names to get a topic in each of the set's groups. */
  group_category_id: number | null;
  members_count: number;
}

export interface Attachment extends ApiObject {
  id: number;
  display_name: string;
  filename: string;
  'content-type': string;
  size: number;
  url: string;
}

export interface UploadTicket extends ApiObject {
  upload_url: string;
  upload_params: Record<string, string>;
  file_param?: string;
}

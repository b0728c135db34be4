// Enrollments, sections and account admins, as the API answers them.
import type { ApiObject, Id } from './common.js';

import type { EnrollmentState, EnrollmentType } from '../vocabulary.js';

export { ENROLLMENT_STATES, type EnrollmentState, type EnrollmentType } from '../vocabulary.js';

export interface BriefUser extends ApiObject {
  id: number;
  name: string;
  sortable_name: string;
  short_name: string;
  login_id?: string;
  sis_user_id?: string | null;
}

export interface Enrollment extends ApiObject {
  id: number;
  user_id: number;
  course_id: number;
  course_section_id: number;
  type: EnrollmentType;
  role: string;
  role_id: number;
  enrollment_state: EnrollmentState;
  limit_privileges_to_course_section: boolean;
  associated_user_id: number | null;
  root_account_id: number;
  html_url: string;
  /** On lists only. */
  user?: BriefUser;
}

export interface ListEnrollmentsFilter {
  type?: EnrollmentType[];
  role?: string[];
  state?: EnrollmentState[];
  user_id?: Id;
}

export interface NewEnrollment {
  user_id: Id;
  type?: EnrollmentType;
  role?: string;
  role_id?: number;
  enrollment_state?: 'active' | 'invited' | 'inactive';
  course_section_id?: Id;
  limit_privileges_to_course_section?: boolean;
  associated_user_id?: Id;
  notify?: boolean;
}

export type EndTask = 'conclude' | 'delete' | 'deactivate' | 'inactivate';

export interface Section extends ApiObject {
  id: number;
  name: string;
  course_id: number;
  nonxlist_course_id: number | null;
  sis_section_id: string | null;
  start_at: string | null;
  end_at: string | null;
  students?: BriefUser[] | null;
}

export interface SectionFields {
  name?: string;
  sis_section_id?: string;
  start_at?: string;
  end_at?: string;
}

/** A role (Api::V1::Role#role_json): `role` is its name, which enrollment[role] names it by. */
export interface Role extends ApiObject {
  id: number;
  role: string;
  label: string;
  base_role_type: string;
  workflow_state: string;
  account?: { id: number } | null;
}

export interface Admin extends ApiObject {
  id: number;
  role: string;
  role_id: number;
  user: BriefUser;
  workflow_state: string;
}

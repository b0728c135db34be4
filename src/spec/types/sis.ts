// Canvas's SIS import (a SisBatch): one upload of SIS CSVs that the instance applies in the
// background. Shapes of canvas-lms's sis_imports_api_controller.rb (@model SisImport) and
// SisBatch#api_json.
import type { ApiObject, Id } from './common.js';

export const SIS_IMPORT_STATES = [
  'initializing',
  'created',
  'importing',
  'cleanup_batch',
  'imported',
  'imported_with_messages',
  'aborted',
  'failed',
  'failed_with_messages',
  'restoring',
  'partially_restored',
  'restored',
] as const;
export type SisImportState = (typeof SIS_IMPORT_STATES)[number];

/** States an import no longer leaves: the job has ended, one way or another. */
export const SIS_IMPORT_ENDED: readonly SisImportState[] = [
  'imported',
  'imported_with_messages',
  'aborted',
  'failed',
  'failed_with_messages',
  'restored',
  'partially_restored',
];

/** The ends that are a failure of the import (its exit code says so). */
export const SIS_IMPORT_FAILED: readonly SisImportState[] = ['aborted', 'failed', 'failed_with_messages'];

/** Rows processed per kind of file (SisImportCounts). */
interface SisImportCounts {
  change_sis_ids?: number;
  accounts?: number;
  terms?: number;
  abstract_courses?: number;
  courses?: number;
  sections?: number;
  xlists?: number;
  users?: number;
  logins?: number;
  enrollments?: number;
  admins?: number;
  group_categories?: number;
  groups?: number;
  group_memberships?: number;
  differentiation_tag_sets?: number;
  differentiation_tags?: number;
  differentiation_tag_memberships?: number;
  grade_publishing_results?: number;
  user_observers?: number;
  batch_courses_deleted?: number;
  batch_sections_deleted?: number;
  batch_enrollments_deleted?: number;
  error_count?: number;
  warning_count?: number;
}

export interface SisImport extends ApiObject {
  id: number;
  created_at: string;
  ended_at?: string | null;
  updated_at?: string;
  workflow_state: SisImportState | (string & {});
  data?: {
    import_type?: string;
    /** Which kinds of file the import held: `user`, `course`, `enrollment`, … */
    supplied_batches?: string[];
    counts?: SisImportCounts;
  } | null;
  statistics?: Record<string, unknown> | null;
  /** A percentage, 0–100 (a string or a number, as instances send it). */
  progress?: number | string | null;
  /** [file, message] pairs, once the import has ended. */
  processing_warnings?: [string, string][] | null;
  processing_errors?: [string, string][] | null;
  batch_mode?: boolean | null;
  batch_mode_term_id?: string | number | null;
  multi_term_batch_mode?: boolean | null;
  override_sis_stickiness?: boolean | null;
  diffing_data_set_identifier?: string | null;
  diffed_against_import_id?: number | null;
  /** What diffing makes of an enrollment, and of a user, the data set no longer lists. */
  diffing_drop_status?: string | null;
  diffing_user_remove_status?: string | null;
  /** What batch mode makes of an enrollment the batch no longer names. */
  batch_mode_enrollment_drop_status?: string | null;
  skip_deletes?: boolean | null;
  diffing_threshold_exceeded?: boolean | null;
  change_threshold?: number | null;
  user?: { id: number; name?: string } | null;
}

export interface SisImportParams {
  account_id: Id;
  attachment: File;
  import_type?: 'instructure_csv';
  extension?: string;
  batch_mode?: boolean;
  batch_mode_term_id?: string;
  multi_term_batch_mode?: boolean;
  batch_mode_enrollment_drop_status?: EnrollmentDropStatus;
  override_sis_stickiness?: boolean;
  diffing_data_set_identifier?: string;
  diffing_drop_status?: EnrollmentDropStatus;
  diffing_user_remove_status?: UserRemoveStatus;
  skip_deletes?: boolean;
  change_threshold?: number;
}

/** What an import that drops an enrollment can make of it (Canvas: deleted unless told otherwise). */
export const ENROLLMENT_DROP_STATUSES = ['deleted', 'completed', 'inactive'] as const;
export type EnrollmentDropStatus = (typeof ENROLLMENT_DROP_STATUSES)[number];
/** What a diffed import can make of a user it drops. */
export const USER_REMOVE_STATUSES = ['deleted', 'suspended'] as const;
export type UserRemoveStatus = (typeof USER_REMOVE_STATUSES)[number];

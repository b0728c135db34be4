// Pages and assignment groups of a course: the shapes of canvas-lms's `Page`, `PageRevision`,
// `AssignmentGroup` and `GradingRules` models (wiki_pages_api_controller.rb,
// assignment_groups_controller.rb), as the client reads them and the mock's presenters build them.
import type { ApiObject } from './common.js';
import type { Assignment } from './school.js';

/** Who may edit a page besides those who manage the course's content, as a comma-separated list. */
export const EDITING_ROLES = ['teachers', 'students', 'members', 'public'] as const;

interface PageEditor extends ApiObject {
  id: number;
  display_name: string;
}

export interface Page extends ApiObject {
  page_id: number;
  url: string;
  title: string;
  created_at: string;
  updated_at: string;
  hide_from_students: boolean;
  editing_roles: string;
  last_edited_by?: PageEditor | null;
  /** HTML as it was given; left out of a list. */
  body?: string | null;
  published: boolean;
  front_page: boolean;
  publish_at?: string | null;
  locked_for_user: boolean;
  html_url?: string;
}

/** `wiki_page[...]` of a create or an update; an update changes only what it names. */
export interface PageFields {
  title?: string;
  body?: string;
  editing_roles?: string;
  notify_of_update?: boolean;
  published?: boolean;
  front_page?: boolean;
  /** When an unpublished page publishes itself (null clears it, sent as ""). */
  publish_at?: string | null;
}

export interface ListPagesParams {
  sort?: 'title' | 'created_at' | 'updated_at';
  order?: 'asc' | 'desc';
  search_term?: string;
  published?: boolean;
}

export interface PageRevision extends ApiObject {
  revision_id: number;
  updated_at: string;
  latest: boolean;
  edited_by?: PageEditor | null;
  /** Left out of a list, and of one revision asked for with `summary`. */
  url?: string;
  title?: string;
  body?: string | null;
}

export interface GradingRules {
  drop_lowest?: number;
  drop_highest?: number;
  never_drop?: number[];
}

export interface AssignmentGroup extends ApiObject {
  id: number;
  name: string;
  position: number;
  group_weight: number | null;
  sis_source_id?: string | null;
  integration_data?: Record<string, unknown> | null;
  /** With `include[]=assignments`. */
  assignments?: Assignment[];
  rules: GradingRules;
}

/** The parameters of a create or an update (top level, as the API reads them). */
export interface AssignmentGroupFields {
  name?: string;
  position?: number;
  group_weight?: number;
  rules?: GradingRules;
}

// Modules of a course and their items, as the API answers them (canvas-lms's Module and ModuleItem
// models) and as they are created and changed.
import type { ApiObject } from './common.js';

export const MODULE_ITEM_TYPES = [
  'File',
  'Page',
  'Discussion',
  'Assignment',
  'Quiz',
  'SubHeader',
  'ExternalUrl',
  'ExternalTool',
] as const;
export type ModuleItemType = (typeof MODULE_ITEM_TYPES)[number];

export const REQUIREMENT_TYPES = [
  'must_view',
  'must_contribute',
  'must_submit',
  'min_score',
  'must_mark_done',
] as const;
export type RequirementType = (typeof REQUIREMENT_TYPES)[number];

/** The requirements each type of item can have (Canvas ignores any other): what the CLI and apply check alike. */
export const APPLICABLE: Record<ModuleItemType, readonly RequirementType[]> = {
  File: ['must_view'],
  Page: ['must_view', 'must_contribute', 'must_mark_done'],
  Discussion: ['must_view', 'must_contribute'],
  Assignment: ['must_view', 'must_contribute', 'must_submit', 'min_score', 'must_mark_done'],
  Quiz: ['must_view', 'must_submit', 'min_score'],
  SubHeader: [],
  ExternalUrl: ['must_view'],
  ExternalTool: ['must_view'],
};

/** A module's state for one student, as Canvas evaluates their progression. */
const MODULE_STATES = ['locked', 'unlocked', 'started', 'completed'] as const;
type ModuleState = (typeof MODULE_STATES)[number];

interface CompletionRequirement {
  type: RequirementType;
  min_score?: number;
  /** Present for a student (the caller, or `student_id`). */
  completed?: boolean;
}

export interface ModuleItem extends ApiObject {
  id: number;
  module_id: number;
  position: number;
  title: string;
  indent: number;
  type: ModuleItemType;
  content_id?: number;
  html_url: string;
  url?: string;
  page_url?: string;
  external_url?: string;
  new_tab?: boolean;
  completion_requirement?: CompletionRequirement;
  content_details?: ApiObject;
  /** Only for those who may see unpublished items. */
  published?: boolean;
}

export interface Module extends ApiObject {
  id: number;
  workflow_state: 'active' | 'deleted' | 'unpublished';
  position: number;
  name: string;
  unlock_at: string | null;
  require_sequential_progress: boolean;
  requirement_type: 'all' | 'one';
  prerequisite_module_ids: number[];
  items_count: number;
  items_url: string;
  items?: ModuleItem[];
  state?: ModuleState;
  completed_at?: string | null;
  publish_final_grade: boolean;
  published?: boolean;
}

/** `module[...]` of create and update; null clears unlock_at. */
export interface ModuleFields {
  name?: string;
  unlock_at?: string | null;
  position?: number;
  require_sequential_progress?: boolean;
  prerequisite_module_ids?: (number | string)[];
  publish_final_grade?: boolean;
  /** Update only: Canvas creates every module unpublished. */
  published?: boolean;
}

/** `module_item[...]` of create and update. */
export interface ModuleItemFields {
  title?: string;
  /** Create only. */
  type?: ModuleItemType;
  /** Create only: the file, topic, assignment, quiz or tool the item shows. */
  content_id?: number | string;
  /** Create only: the page's url slug, for a Page item. */
  page_url?: string;
  external_url?: string;
  new_tab?: boolean;
  position?: number;
  indent?: number;
  /** `{}` with an empty type removes the requirement. */
  completion_requirement?: { type: RequirementType | ''; min_score?: number };
  /** Update only. */
  published?: boolean;
  /** Update only: move the item into another module of the course. */
  module_id?: number | string;
}

/** The answer of mark done, not done and read. */
export interface ModuleActionAnswer extends ApiObject {
  message: string;
}

// Message recipients as the search answers them: contexts (courses, sections, groups) and people.
import type { ApiObject, Id } from './common.js';

export interface ContextRecipient extends ApiObject {
  /** `course_1`, `section_2`, `group_3`. */
  id: string;
  name: string;
  avatar_url: string;
  type: 'context';
  /** How many people it holds that the caller may message (absent on `course_N_sections`/`_groups`). */
  user_count?: number;
  /** How many sections or groups a synthetic `course_N_sections`/`course_N_groups` holds. */
  item_count?: number;
  /** The requested permissions (`permissions[]`) and whether the caller holds them there. */
  permissions: Record<string, boolean>;
  /** The course of a section or group, when no context was asked for. */
  context_name?: string;
}

export interface UserRecipient extends ApiObject {
  id: number;
  /** The short name. */
  name: string;
  full_name: string;
  /** Shared courses, by id, with the user's enrollment types there. */
  common_courses: Record<string, string[]>;
  common_groups: Record<string, string[]>;
  avatar_url: string;
  pronouns: string | null;
}

export type Recipient = ContextRecipient | UserRecipient;

export interface SearchRecipientsParams {
  search?: string;
  context?: string;
  exclude?: Id[];
  type?: 'user' | 'context';
  types?: ('user' | 'context')[];
  user_id?: Id;
  from_conversation_id?: Id;
  permissions?: string[];
  /**
   * With a course or section `context` and no search terms: its teachers, TAs, students, observers, sections, groups.
   */
  synthetic_contexts?: boolean;
}

// Discussion topics, announcements and their entries, as the API answers them.
import type { ApiObject, Id } from './common.js';
import type { Attachment } from './school.js';
import type { DiscussionType, SubscriptionHold } from '../vocabulary.js';

export type { DiscussionType } from '../vocabulary.js';

interface LockInfo extends ApiObject {
  asset_string: string;
  unlock_at?: string;
  lock_at?: string;
}

/** The user display the API nests (`author`, view `participants`). */
export interface UserDisplay extends ApiObject {
  id: number;
  display_name: string;
  avatar_image_url: string;
  html_url: string;
}

export interface Topic extends ApiObject {
  id: number;
  title: string;
  message: string;
  html_url: string;
  url: string;
  posted_at: string | null;
  last_reply_at: string | null;
  created_at: string;
  require_initial_post: boolean;
  user_can_see_posts: boolean;
  discussion_subentry_count: number;
  read_state: 'read' | 'unread';
  unread_count: number;
  subscribed: boolean;
  subscription_hold?: SubscriptionHold;
  assignment_id: number | null;
  assignment?: ApiObject;
  delayed_post_at: string | null;
  published: boolean;
  lock_at: string | null;
  locked: boolean;
  pinned: boolean;
  locked_for_user: boolean;
  lock_info?: LockInfo;
  lock_explanation?: string;
  user_name: string | null;
  author: UserDisplay | Record<string, never>;
  topic_children: number[];
  /** The group topics with their groups (newer instances). */
  group_topic_children: { id: number; group_id: number }[];
  root_topic_id: number | null;
  /** The group set that splits a course topic into group topics. */
  group_category_id: number | null;
  /** For some of the course's sections only (newer instances); students of others do not see it. */
  is_section_specific?: boolean;
  podcast_url: string | null;
  podcast_has_student_posts: boolean;
  discussion_type: DiscussionType;
  position: number;
  is_announcement: boolean;
  attachments: Attachment[];
  permissions: { attach: boolean; update: boolean; delete: boolean; reply: boolean };
}

export interface Entry extends ApiObject {
  id: number;
  user_id?: number;
  parent_id: number | null;
  editor_id?: number;
  user_name?: string;
  message?: string;
  read_state: 'read' | 'unread';
  forced_read_state: boolean;
  created_at: string;
  updated_at: string;
  attachment?: Attachment;
  attachments?: Attachment[];
  recent_replies?: Entry[];
  has_more_replies?: boolean;
  deleted?: boolean;
}

/** One entry of the threaded `view` of the full topic view. */
export interface ViewEntry extends ApiObject {
  id: number;
  user_id?: number;
  parent_id: number | null;
  created_at: string;
  updated_at: string;
  message?: string;
  editor_id?: number;
  attachment?: Attachment;
  deleted?: boolean;
  replies?: ViewEntry[];
}

export interface FullTopicView extends ApiObject {
  participants: UserDisplay[];
  unread_entries: number[];
  forced_entries: number[];
  view: ViewEntry[];
  /** Only with include_new_entries=1. */
  new_entries?: ViewEntry[];
}

/** Where a topic lives: exactly one of these. */
export type TopicContext = { course_id: Id } | { group_id: Id } | { collection_item_id: Id };

export interface ListTopicsParams {
  order_by?: 'position' | 'recent_activity';
  scope?: 'locked' | 'unlocked';
  only_announcements?: boolean;
  search_term?: string;
}

export interface TopicFields {
  title?: string;
  message?: string;
  discussion_type?: DiscussionType;
  published?: boolean;
  delayed_post_at?: string;
  lock_at?: string;
  locked?: boolean;
  pinned?: boolean;
  podcast_enabled?: boolean;
  podcast_has_student_posts?: boolean;
  require_initial_post?: boolean;
  is_announcement?: boolean;
  position_after?: Id;
  /** A group discussion: a topic for each group of this course's group set ('' for none, while nobody has posted). */
  group_category_id?: Id | '';
  /**
   * Graded: a new assignment (its name is the title), an existing one by `id`, or none with `set_assignment: false`.
   */
  assignment?: { id?: Id; set_assignment?: boolean; points_possible?: number; due_at?: string; grading_type?: string };
}

export interface EntryFields {
  message?: string;
  /** A file sent in the same multipart request. */
  attachment?: File;
}

/** What deleting a topic answers: the model with its root key, and `deleted_at` on top for clients that look there. */
export interface DeletedTopic extends ApiObject {
  discussion_topic: ApiObject;
  deleted_at: string;
}

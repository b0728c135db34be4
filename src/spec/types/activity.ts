// The activity stream (what changed in your courses and groups), its summary, to-do items.
import type { ApiObject } from './common.js';

export interface ActivityItem extends ApiObject {
  id: number;
  created_at: string;
  updated_at: string;
  title: string;
  message: string | null;
  /** DiscussionTopic, Announcement, Conversation, Message, Submission, … (open-ended). */
  type: string;
  read_state: boolean;
  /** `course` or `group`, or null for an item of no context. */
  context_type: string | null;
  course_id: number | null;
  group_id: number | null;
  html_url: string;
}

export interface ActivitySummaryEntry {
  type: string;
  /** Messages only: the kind of notification. */
  notification_category: string | null;
  count: number;
  unread_count: number;
}

export interface TodoItem extends ApiObject {
  /** `grading` (waiting for your grading) or `submitting` (due soon, not turned in). */
  type: 'grading' | 'submitting';
  assignment: ApiObject & { id: number; name: string; due_at: string | null };
  /** DELETE it to set the item aside until it changes. */
  ignore: string;
  /** DELETE it to set the item aside for good. */
  ignore_permanently: string;
  html_url: string;
  needs_grading_count?: number;
  context_type: string;
  course_id: number;
  group_id: number | null;
}

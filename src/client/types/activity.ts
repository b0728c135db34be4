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

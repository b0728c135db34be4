// Conversations, their messages, async batches, and the parameters of each call.
import type { ApiObject, Id } from './common.js';

type ConversationState = 'read' | 'unread' | 'archived';
export type ConversationScope = 'unread' | 'starred' | 'archived' | 'sent';
export type BatchEvent = 'mark_as_read' | 'mark_as_unread' | 'star' | 'unstar' | 'archive' | 'destroy';
export const BATCH_EVENTS: readonly BatchEvent[] = [
  'mark_as_read',
  'mark_as_unread',
  'star',
  'unstar',
  'archive',
  'destroy',
];
export const CONVERSATION_SCOPES: readonly ConversationScope[] = ['unread', 'starred', 'archived', 'sent'];

interface MediaComment extends ApiObject {
  display_name: string;
  'content-type': string;
  media_id: string;
  media_type: 'audio' | 'video';
  url: string;
}

export interface ConversationMessage extends ApiObject {
  id: number;
  created_at: string;
  body: string;
  author_id: number;
  generated: boolean;
  media_comment: MediaComment | null;
  forwarded_messages: ConversationMessage[];
  attachments: ApiObject[];
  participating_user_ids: number[];
}

interface ConversationParticipant extends ApiObject {
  id: number;
  name: string;
  full_name: string;
  avatar_url?: string;
}

export interface Conversation extends ApiObject {
  id: number;
  subject: string | null;
  workflow_state: ConversationState;
  last_message: string | null;
  last_message_at: string | null;
  last_authored_message: string | null;
  last_authored_message_at: string | null;
  message_count: number;
  subscribed: boolean;
  private: boolean;
  starred: boolean;
  properties: string[];
  audience: number[];
  audience_contexts: { courses: Record<string, string[]>; groups: Record<string, string[]> };
  avatar_url: string;
  participants: ConversationParticipant[];
  visible: boolean;
  context_code: string | null;
  context_name?: string | null;
  messages?: ConversationMessage[];
  submissions?: unknown[];
}

export interface ConversationBatch extends ApiObject {
  id: number;
  subject: string | null;
  workflow_state: 'created' | 'sending' | 'sent' | 'error';
  /** A fraction, 0–1. */
  completion: number;
  recipient_count: number;
  message: ConversationMessage;
  tags: string[];
}

export interface ListConversationsParams {
  scope?: ConversationScope;
  filter?: string[];
  filter_mode?: 'and' | 'or';
  interleave_submissions?: boolean;
  include?: 'participant_avatars'[];
}

export interface MessageFields {
  body: string;
  attachment_ids?: Id[];
  media_comment_id?: string;
  media_comment_type?: 'audio' | 'video';
}

export interface CreateConversationParams extends MessageFields {
  recipients: string[];
  subject?: string;
  group_conversation?: boolean;
  bulk_message?: boolean;
  force_new?: boolean;
  mode?: 'sync' | 'async';
  context_code?: string;
  forwarded_message_ids?: Id[];
}

export interface UpdateConversationParams {
  id: Id;
  conversation: { workflow_state?: ConversationState; subscribed?: boolean; starred?: boolean; subject?: string };
}

export interface BatchUpdateParams {
  conversation_ids: Id[];
  event: BatchEvent;
}

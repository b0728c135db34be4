// Conversations: the inbox, sending (sync, or async as a batch delivered in the background), per-user
// state, messages, recipients, batch updates (a Progress).
import { op, type Sender } from '../operation.js';
import type { Params } from '../encode.js';
import { readBody } from '../parse.js';
import { route } from '../../spec/routes.js';
import type { Id } from '../../spec/types/common.js';
import type {
  BatchUpdateParams,
  Conversation,
  ConversationBatch,
  CreateConversationParams,
  ListConversationsParams,
  MessageFields,
  UpdateConversationParams,
} from '../../spec/types/conversations.js';
import type { Progress } from '../../spec/types/progress.js';
import type { Recipient, SearchRecipientsParams } from '../../spec/types/search.js';

export const conversations = {
  list: op('conversations.list').as<ListConversationsParams, Conversation>(),
  create: op('conversations.create').as<CreateConversationParams, Conversation[]>(),
  batches: op('conversations.batches').as<Record<string, never>, ConversationBatch[]>(),
  get: op('conversations.get').as<{ id: Id; auto_mark_as_read?: boolean; interleave_submissions?: boolean }, Conversation>(),
  update: op('conversations.update').as<UpdateConversationParams, Conversation>(),
  batchUpdate: op('conversations.batchUpdate').as<BatchUpdateParams, Progress>(),
  markAllRead: op('conversations.markAllRead').as<Record<string, never>, Record<string, never>>(),
  delete: op('conversations.delete').as<{ id: Id }, Conversation>(),
  addRecipients: op('conversations.addRecipients').as<{ id: Id; recipients: string[] }, Conversation>(),
  addMessage: op('conversations.addMessage').as<{ id: Id; recipients?: string[] } & MessageFields, Conversation>(),
  removeMessages: op('conversations.removeMessages').as<{ id: Id; remove: Id[] }, Conversation>(),
  unreadCount: op('conversations.unreadCount').as<Record<string, never>, { unread_count: string }>(),
  /** Deprecated by the API in favour of search.recipients; the same answers. */
  findRecipients: op('conversations.findRecipients').as<SearchRecipientsParams, Recipient>(),
};

/** What an async send answers: no conversations yet, and the batch delivering them (its id from a header). */
export interface AsyncSend {
  batchId: number | undefined;
  conversations: Conversation[];
}

/**
 * `mode=async`: the answer's only news is the `X-Conversation-Batch-Id` header, which an operation's
 * body does not carry, so this one call reads the response itself (the route still comes from the table).
 */
export async function createConversationAsync(client: Sender, params: Omit<CreateConversationParams, 'mode'>): Promise<AsyncSend> {
  const r = route('conversations.create');
  const body: Params = { ...(params as unknown as Params), mode: 'async' };
  const res = await client.send(r.method, r.path, { body });
  const header = res.headers['x-conversation-batch-id'];
  const answer = readBody(res);
  return { batchId: header ? Number(header) : undefined, conversations: Array.isArray(answer) ? (answer as Conversation[]) : [] };
}

// Sending a conversation asynchronously: the one call whose answer is read from a header.
import type { ApiClient } from './client.js';
import type { Params } from './encode.js';
import { readBody } from './parse.js';
import { route } from '../spec/routes.js';
import type { Conversation, CreateConversationParams } from '../spec/types/conversations.js';

/** What an async send answers: no conversations yet, and the batch delivering them (its id from a header). */
export interface AsyncSend {
  batchId: number | undefined;
  conversations: Conversation[];
}

/**
 * `mode=async`: the answer's only news is the `X-Conversation-Batch-Id` header, which an operation's
 * body does not carry, so this one call reads the response itself (the route still comes from the table).
 */
export async function createConversationAsync(
  client: Pick<ApiClient, 'send'>,
  params: Omit<CreateConversationParams, 'mode'>,
): Promise<AsyncSend> {
  const r = route('conversations.create');
  const body: Params = { ...(params as unknown as Params), mode: 'async' };
  const res = await client.send(r.method, r.path, { body });
  const header = res.headers['x-conversation-batch-id'];
  const answer = readBody(res);
  return {
    batchId: header ? Number(header) : undefined,
    conversations: Array.isArray(answer) ? (answer as Conversation[]) : [],
  };
}

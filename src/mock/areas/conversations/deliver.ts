// Sending a message: into an existing conversation (to all or some of its participants), or into the
// private conversation of two people (reused) or a new one. Shared by the handlers, the background
// delivery of async batches and the seed.
import type { Db } from '../../db/open.js';
import { publishStreamItem } from '../activity/repo.js';
import {
  addParticipants,
  addTags,
  createConversation,
  createMessage,
  participant,
  privateConversation,
  refreshParticipant,
  setLastMessageAt,
  setParticipant,
  shareMessage,
  type NewMessage,
} from './repo.js';

/** What a message says, whatever conversation it goes to. */
export type MessageContent = Omit<NewMessage, 'conversationId' | 'authorId' | 'now'>;

/**
 * Posts a message the sender and `audience` see; it is unread (and on top of the inbox) for the subscribed ones among
 * them.
 */
export function postMessage(
  db: Db,
  conversationId: number,
  senderId: number,
  audience: readonly number[],
  content: MessageContent,
  now: string,
): number {
  const messageId = createMessage(db, { conversationId, authorId: senderId, ...content, now });
  const everyone = [senderId, ...audience.filter((u) => u !== senderId)];
  shareMessage(db, messageId, conversationId, everyone);
  for (const userId of everyone) {
    const before = participant(db, conversationId, userId);
    refreshParticipant(db, conversationId, userId);
    const p = participant(db, conversationId, userId)!;
    // An unsubscribed participant still sees the message, but it does not move up their inbox.
    if (userId !== senderId && before && !before.subscribed && before.last_message_at && !content.generated) {
      setLastMessageAt(db, conversationId, userId, before.last_message_at);
    }
    if (userId === senderId) {
      // Whoever writes has read it; writing into an archived conversation brings it back to the inbox.
      if (p.workflow_state !== 'read') setParticipant(db, conversationId, userId, { workflow_state: 'read' });
    } else if (p.subscribed && !content.generated) {
      setParticipant(db, conversationId, userId, { workflow_state: 'unread' });
    }
  }
  // The conversation comes up in the streams of those it moved up the inbox of.
  const moved = everyone.filter(
    (u) => u === senderId || content.generated || participant(db, conversationId, u)?.subscribed === 1,
  );
  publishStreamItem(db, {
    type: 'Conversation',
    assetId: conversationId,
    context: null,
    users: moved,
    author: senderId,
    now,
  });
  return messageId;
}

export interface Delivery {
  senderId: number;
  /** Everyone but the sender. */
  recipients: readonly number[];
  /** A group conversation (every participant sees every message) rather than a private one. */
  group: boolean;
  subject: string | null;
  contextCode: string | null;
  tags: readonly string[];
  content: MessageContent;
  now: string;
}

/** Sends into the private conversation of two people (reused, its subject kept) or into a new conversation. */
export function deliver(db: Db, d: Delivery): { conversationId: number; messageId: number } {
  let conversationId: number;
  if (!d.group && d.recipients.length === 1) {
    const key = [d.senderId, d.recipients[0]].sort((a, b) => a - b).join(',');
    conversationId =
      privateConversation(db, key)?.id ??
      createConversation(db, { subject: d.subject, privateKey: key, contextCode: d.contextCode, now: d.now });
  } else {
    conversationId = createConversation(db, {
      subject: d.subject,
      privateKey: null,
      contextCode: d.contextCode,
      now: d.now,
    });
  }
  addParticipants(db, conversationId, [d.senderId, ...d.recipients]);
  addTags(db, conversationId, d.tags);
  const messageId = postMessage(db, conversationId, d.senderId, d.recipients, d.content, d.now);
  return { conversationId, messageId };
}

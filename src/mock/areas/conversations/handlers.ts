// Conversations: the inbox under scopes and filters, sending (sync, or async as a batch delivered in
// the background), reading (marks read), per-user state, messages added and removed, recipients
// added, batch updates through a Progress. Every state is the caller's own view.
import type { BatchEvent } from '../../../spec/types/conversations.js';
import type { Db } from '../../db/open.js';
import {
  bool,
  HttpError,
  invalid,
  keysetSource,
  list,
  numericId,
  obj,
  paginate,
  rejected,
  Reply,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { text, textFault } from '../../fields.js';
import { progressJson } from '../progress/present.js';
import { parseContextToken, peopleSourceOf, resolveRecipients, type MessagingScope } from '../search/audience.js';
import { scopeOf } from '../search/audience.js';
import { activeUser, userById } from '../../school/users/repo.js';
import { deliver, postMessage } from './deliver.js';
import { allows } from '../access.js';
import { classOf, conversationsPolicy } from './policy.js';
import {
  addParticipants,
  conversationById,
  createBatch,
  createMessage,
  hideMessages,
  inboxIds,
  inboxQuery,
  markAllRead,
  messageById,
  messagesFor,
  messagesOfConversation,
  openBatchesOf,
  participant,
  participantsOf,
  refreshParticipant,
  setBatchProgress,
  setParticipant,
  shareMessage,
  unreadCount,
  updateBatch,
  type ParticipantRow,
} from './repo.js';
import { conversationJson, batchJson } from './present.js';
import { refused, mine, fresh, messageContent, recipientTokens, tagsFor } from './requests.js';

/** Real instances cap a group conversation (not a bulk send) at this many recipients. */
const SUBJECT = text();
const MAX_GROUP_CONVERSATION_SIZE = 100;
/** conversation_ids[] of a batch update. */
const MAX_BATCH_UPDATE = 500;
const EVENTS: readonly BatchEvent[] = ['mark_as_read', 'mark_as_unread', 'star', 'unstar', 'archive', 'destroy'];

// ---- handlers ---------------------------------------------------------------------------------

const listConversations: Handler = (ctx) => {
  const p = ctx.params;
  const mode = str(p, 'filter_mode') ?? 'or';
  if (mode !== 'and' && mode !== 'or') throw refused('filter_mode', 'invalid');
  const filters = list(p, 'filter').map(String);
  const q = inboxQuery({ userId: ctx.caller.id, scope: str(p, 'scope'), filters, mode });
  const avatars = list(p, 'include').map(String).includes('participant_avatars');
  const page = paginate(ctx, keysetSource<ParticipantRow>(ctx.db, q), (row) =>
    conversationJson(ctx, conversationById(ctx.db, row.conversation_id)!, row, { avatars }),
  );
  if (!bool(p, 'include_all_conversation_ids')) return page;
  return new Reply(200, { conversations: page.body, conversation_ids: inboxIds(ctx.db, q) }, page.headers);
};

/**
 * A class named as a whole among the recipients, within the sender's reach, is refused (all of the
 * message with it) unless the sender's roles there allow messaging the class: `restricted by role`,
 * as real instances word it. A context out of reach is left to the recipients' resolution, which
 * refuses it alone.
 */
function mayMessageClasses(ctx: MockCtx, scope: MessagingScope, tokens: readonly string[]): void {
  for (const token of tokens) {
    const ref = parseContextToken(token);
    if (!ref || !peopleSourceOf(scope, ref)) continue;
    const course = classOf(ctx.db, ref);
    if (course && !allows(ctx, conversationsPolicy.messageClass, { course }))
      throw refused('recipients', 'restricted by role');
  }
}

const create: Handler = (ctx) => {
  const p = ctx.params;
  const tokens = recipientTokens(ctx);
  if (tokens.length === 0) throw refused('recipients', 'blank');
  const content = messageContent(ctx, () => refused('body', 'blank'));
  const subject = str(p, 'subject')?.trim() || null;
  if (textFault(SUBJECT, subject ?? undefined)) throw refused('subject', 'too long');
  const scope = scopeOf(ctx);
  const contextCode = str(p, 'context_code')?.trim() || null;
  if (contextCode) {
    const ref = parseContextToken(contextCode);
    if (!ref || ref.kind === 'section' || ref.type || !peopleSourceOf(scope, ref))
      throw refused('context_code', 'invalid');
  }
  const mode = str(p, 'mode') ?? 'sync';
  if (mode !== 'sync' && mode !== 'async') throw refused('mode', 'invalid');
  mayMessageClasses(ctx, scope, tokens);
  const resolved = resolveRecipients(ctx.db, scope, tokens);
  if (resolved.users.length === 0) throw refused('recipients', resolved.restricted ? 'restricted by role' : 'invalid');
  const group = bool(p, 'group_conversation') === true;
  const bulk = bool(p, 'bulk_message') === true || bool(p, 'force_new') === true;
  if (group && !bulk && resolved.users.length > MAX_GROUP_CONVERSATION_SIZE)
    throw refused('recipients', 'too many for group conversation');
  const named = [...new Set([...(contextCode ? [contextCode] : []), ...resolved.tags])];
  const sender = ctx.caller.id;
  const now = ctx.now();

  // One conversation: one recipient (its private conversation), or a group conversation everyone shares.
  if (!bulk && (resolved.users.length === 1 || group)) {
    const tags = resolved.users.length === 1 ? tagsFor(ctx.db, scope, named, resolved.users[0]) : named;
    const { conversationId, messageId } = deliver(ctx.db, {
      senderId: sender,
      recipients: resolved.users,
      group,
      subject,
      contextCode,
      tags,
      content,
      now,
    });
    const c = conversationById(ctx.db, conversationId)!;
    return new Reply(201, [conversationJson(ctx, c, fresh(ctx, c), { messages: [messageById(ctx.db, messageId)!] })]);
  }

  // A batch: one conversation per recipient — private ones (reused), or with bulk_message or
  // force_new a new non-private one each, as real instances make them.
  const one = (db: Db, recipient: number, at: string) =>
    deliver(db, {
      senderId: sender,
      recipients: [recipient],
      group: bulk,
      subject,
      contextCode,
      tags: tagsFor(db, scope, named, recipient),
      content,
      now: at,
    }).conversationId;
  if (mode === 'sync') {
    const ids = resolved.users.map((r) => one(ctx.db, r, now));
    const rows = ids.map((id) => conversationById(ctx.db, id)!).map((c) => ({ c, p: fresh(ctx, c) }));
    rows.sort((a, b) => (b.p.last_message_at ?? '').localeCompare(a.p.last_message_at ?? '') || b.c.id - a.c.id);
    return new Reply(
      201,
      rows.map(({ c, p: part }) => conversationJson(ctx, c, part)),
    );
  }
  const rootMessageId = createMessage(ctx.db, { conversationId: null, authorId: sender, ...content, now });
  const batchId = createBatch(ctx.db, {
    userId: sender,
    rootMessageId,
    subject,
    recipientCount: resolved.users.length,
    group,
    contextCode,
    tags: named,
    now,
  });
  let delivered = 0;
  const progress = ctx.jobs.start<number>({
    tag: 'conversation_batch',
    context: { type: 'User', id: sender },
    userId: sender,
    items: resolved.users,
    apply(db, recipient, at) {
      if (!activeUser(db, recipient)) throw new Error('the recipient is no longer active');
      one(db, recipient, at);
      delivered++;
    },
    label: (recipient) => String(recipient),
    onSlice(db, done, total, at) {
      updateBatch(db, batchId, {
        state: done < total ? 'sending' : delivered > 0 ? 'sent' : 'error',
        sent: done,
        now: at,
      });
    },
    results: () => ({ conversation_batch_id: batchId, delivered }),
  });
  setBatchProgress(ctx.db, batchId, progress.id);
  return new Reply(202, [], { 'x-conversation-batch-id': String(batchId) });
};

const batches: Handler = (ctx) => openBatchesOf(ctx.db, ctx.caller.id).map((b) => batchJson(ctx, b));

const get: Handler = (ctx) => {
  const { c, p } = mine(ctx);
  if (bool(ctx.params, 'auto_mark_as_read') !== false && p.workflow_state === 'unread')
    setParticipant(ctx.db, c.id, ctx.caller.id, { workflow_state: 'read' });
  const messages = messagesFor(ctx.db, c.id, ctx.caller.id);
  return conversationJson(ctx, c, fresh(ctx, c), {
    messages,
    submissions: true,
    extended: true,
    avatars: list(ctx.params, 'include').map(String).includes('participant_avatars'),
  });
};

const update: Handler = (ctx) => {
  const { c } = mine(ctx);
  const fields = obj(ctx.params, 'conversation');
  const state = str(fields, 'workflow_state');
  if (state !== undefined && !['read', 'unread', 'archived'].includes(state))
    throw invalid(undefined, 'workflow_state', 'invalid', 'is not included in the list');
  const starred = bool(fields, 'starred');
  // Subscription means something only where several people write.
  const subscribed = c.private ? undefined : bool(fields, 'subscribed');
  setParticipant(ctx.db, c.id, ctx.caller.id, { workflow_state: state, starred, subscribed });
  return conversationJson(ctx, c, fresh(ctx, c));
};

const remove: Handler = (ctx) => {
  const { c } = mine(ctx);
  hideMessages(ctx.db, c.id, ctx.caller.id);
  refreshParticipant(ctx.db, c.id, ctx.caller.id);
  return conversationJson(ctx, c, fresh(ctx, c));
};

const addMessage: Handler = (ctx) => {
  const { c } = mine(ctx);
  const content = messageContent(ctx, () => new HttpError(400, {}));
  const everyone = participantsOf(ctx.db, c.id)
    .map((x) => x.user_id)
    .filter((u) => u !== ctx.caller.id);
  // To some participants only, when recipients[] names them.
  const named = new Set(
    recipientTokens(ctx)
      .map((t) => numericId(t))
      .filter((x): x is number => x !== undefined),
  );
  const audience = named.size ? everyone.filter((u) => named.has(u)) : everyone;
  const messageId = postMessage(ctx.db, c.id, ctx.caller.id, audience, content, ctx.now());
  return conversationJson(ctx, c, fresh(ctx, c), { messages: [messageById(ctx.db, messageId)!] });
};

const addRecipients: Handler = (ctx) => {
  const { c } = mine(ctx);
  const tokens = recipientTokens(ctx);
  if (tokens.length === 0) throw new HttpError(400, {});
  if (c.private) throw refused('recipients', 'private conversations cannot have recipients added');
  const scope = scopeOf(ctx);
  mayMessageClasses(ctx, scope, tokens);
  const resolved = resolveRecipients(ctx.db, scope, tokens);
  const present = new Set(participantsOf(ctx.db, c.id).map((x) => x.user_id));
  const added = resolved.users.filter((u) => !present.has(u) && u !== ctx.caller.id);
  if (resolved.users.length === 0) throw refused('recipients', resolved.restricted ? 'restricted by role' : 'invalid');
  if (present.size + added.length > MAX_GROUP_CONVERSATION_SIZE + 1)
    throw refused('recipients', 'too many participants for group conversation');
  if (added.length === 0) {
    const latest = messagesFor(ctx.db, c.id, ctx.caller.id).slice(0, 1);
    return conversationJson(ctx, c, fresh(ctx, c), { messages: latest });
  }
  const now = ctx.now();
  addParticipants(ctx.db, c.id, added, 'unread');
  // Newcomers see the conversation so far.
  for (const m of messagesOfConversation(ctx.db, c.id)) shareMessage(ctx.db, m.id, c.id, added);
  const names = added.map((u) => userById(ctx.db, u)!.name);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  const body = `${list} ${names.length > 1 ? 'were' : 'was'} added to the conversation by ${ctx.caller.name}`;
  const everyone = [...present, ...added].filter((u) => u !== ctx.caller.id);
  const messageId = postMessage(ctx.db, c.id, ctx.caller.id, everyone, { body, generated: true }, now);
  for (const u of added) setParticipant(ctx.db, c.id, u, { workflow_state: 'unread' });
  return conversationJson(ctx, c, fresh(ctx, c), { messages: [messageById(ctx.db, messageId)!] });
};

const removeMessages: Handler = (ctx) => {
  const { c } = mine(ctx);
  const ids = list(ctx.params, 'remove')
    .map((v) => numericId(String(v)))
    .filter((x): x is number => x !== undefined);
  if (ids.length === 0) throw rejected('remove is required: the ids of the messages to remove');
  hideMessages(ctx.db, c.id, ctx.caller.id, ids);
  refreshParticipant(ctx.db, c.id, ctx.caller.id);
  return conversationJson(ctx, c, fresh(ctx, c));
};

const markAll: Handler = (ctx) => {
  markAllRead(ctx.db, ctx.caller.id);
  return {};
};

const unread: Handler = (ctx) => ({ unread_count: String(unreadCount(ctx.db, ctx.caller.id)) });

const batchUpdate: Handler = (ctx) => {
  const raw = ctx.params.conversation_ids;
  if (!Array.isArray(raw) || raw.length === 0) throw rejected('conversation_ids not specified');
  if (raw.length > MAX_BATCH_UPDATE) throw rejected(`conversation batch size limit (${MAX_BATCH_UPDATE}) exceeded`);
  const event = str(ctx.params, 'event');
  if (!event) throw rejected('event not specified');
  if (!(EVENTS as readonly string[]).includes(event)) throw rejected('invalid event');
  const userId = ctx.caller.id;
  const ids = raw.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : ''));
  const progress = ctx.jobs.start<string>({
    tag: 'conversation_batch_update',
    context: { type: 'User', id: userId },
    userId,
    items: ids,
    apply(db, rawId) {
      const id = numericId(rawId);
      const p = id === undefined ? undefined : participant(db, id, userId);
      if (!p || p.message_count === 0) throw new Error('The user is not participating in this conversation');
      applyEvent(db, p, event as BatchEvent);
    },
    label: (id) => id || '(blank)',
  });
  return progressJson(ctx, progress);
};

function applyEvent(db: Db, p: ParticipantRow, event: BatchEvent): void {
  const at = (change: Parameters<typeof setParticipant>[3]) => setParticipant(db, p.conversation_id, p.user_id, change);
  switch (event) {
    case 'mark_as_read':
      at({ workflow_state: 'read' });
      return;
    case 'mark_as_unread':
      at({ workflow_state: 'unread' });
      return;
    case 'archive':
      at({ workflow_state: 'archived' });
      return;
    case 'star':
      at({ starred: true });
      return;
    case 'unstar':
      at({ starred: false });
      return;
    case 'destroy':
      hideMessages(db, p.conversation_id, p.user_id);
      refreshParticipant(db, p.conversation_id, p.user_id);
      return;
  }
}

export const conversationsHandlers = {
  'conversations.list': listConversations,
  'conversations.create': create,
  'conversations.batches': batches,
  'conversations.get': get,
  'conversations.update': update,
  'conversations.batchUpdate': batchUpdate,
  'conversations.markAllRead': markAll,
  'conversations.delete': remove,
  'conversations.addRecipients': addRecipients,
  'conversations.addMessage': addMessage,
  'conversations.removeMessages': removeMessages,
  'conversations.unreadCount': unread,
};

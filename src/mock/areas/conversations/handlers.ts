// Conversations: the inbox under scopes and filters, sending (sync, or async as a batch delivered in
// the background), reading (marks read), per-user state, messages added and removed, recipients
// added, batch updates through a Progress. Every state is the caller's own view.
import type {
  BatchEvent,
  Conversation,
  ConversationBatch,
  ConversationMessage,
} from '../../../spec/types/conversations.js';
import type { Db } from '../../db/open.js';
import {
  bool,
  HttpError,
  invalid,
  keysetSource,
  list,
  notFound,
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
import { attachmentById } from '../files/repo.js';
import { attachmentJson } from '../files/present.js';
import { progressJson } from '../progress/present.js';
import { parseContextToken, peopleSourceOf, resolveRecipients, type MessagingScope } from '../search/audience.js';
import { AVATAR, scopeOf } from '../search/audience.js';
import { commonContextsOf } from '../search/repo.js';
import { activeUser, userById } from '../../school/users/repo.js';
import { deliver, postMessage, type MessageContent } from './deliver.js';
import { allows } from '../access.js';
import { classOf, conversationsPolicy } from './policy.js';
import {
  addParticipants,
  conversationById,
  contextName,
  createBatch,
  createMessage,
  enrollmentTypesIn,
  hasAttachments,
  hideMessages,
  inboxIds,
  inboxQuery,
  lastMessageFor,
  markAllRead,
  messageById,
  messagesFor,
  messagesOfConversation,
  openBatchesOf,
  participant,
  participantsOf,
  participatingUsers,
  refreshParticipant,
  setBatchProgress,
  setParticipant,
  shareMessage,
  tagsOf,
  unreadCount,
  updateBatch,
  visibleMessages,
  type BatchRow,
  type ConversationRow,
  type MessageRow,
  type ParticipantRow,
} from './repo.js';

/** Real instances cap a group conversation (not a bulk send) at this many recipients. */
const SUBJECT = text();
const MAX_GROUP_CONVERSATION_SIZE = 100;
/** conversation_ids[] of a batch update. */
const MAX_BATCH_UPDATE = 500;
const EVENTS: readonly BatchEvent[] = ['mark_as_read', 'mark_as_unread', 'star', 'unstar', 'archive', 'destroy'];

/** The array-shaped 400 real instances answer conversation validation with. */
const refused = (attribute: string, message: string) => new HttpError(400, [{ attribute, message }]);

// ---- presenters -------------------------------------------------------------------------------

function messageJson(ctx: MockCtx, m: MessageRow, depth = 0): ConversationMessage {
  const forwarded =
    depth < 5
      ? (JSON.parse(m.forwarded_message_ids) as number[])
          .map((id) => messageById(ctx.db, id))
          .filter((x): x is MessageRow => !!x)
      : [];
  const attachments = (JSON.parse(m.attachment_ids) as number[])
    .map((id) => attachmentById(ctx.db, id))
    .filter((a) => a !== undefined && a.workflow_state !== 'deleted')
    .map((a) => attachmentJson(ctx, a!));
  return {
    id: m.id,
    created_at: m.created_at,
    body: m.body,
    author_id: m.author_id,
    generated: m.generated === 1,
    media_comment: m.media_comment_id
      ? {
          display_name: `Media comment ${m.media_comment_id}`,
          'content-type': m.media_comment_type === 'audio' ? 'audio/mp4' : 'video/mp4',
          media_id: m.media_comment_id,
          media_type: m.media_comment_type === 'audio' ? 'audio' : 'video',
          url: `${ctx.origin}/users/${m.author_id}/media_download?entryId=${encodeURIComponent(m.media_comment_id)}&type=mp4&redirect=1`,
        }
      : null,
    forwarded_messages: forwarded.map((f) => messageJson(ctx, f, depth + 1)),
    attachments,
    participating_user_ids: participatingUsers(ctx.db, m.id),
  };
}

interface JsonOptions {
  messages?: MessageRow[];
  submissions?: boolean;
  avatars?: boolean;
  /** Participants include the authors of forwarded messages (show). */
  extended?: boolean;
}

function conversationJson(ctx: MockCtx, c: ConversationRow, p: ParticipantRow, o: JsonOptions = {}): Conversation {
  const me = ctx.caller.id;
  const people = participantsOf(ctx.db, c.id);
  const others = people.filter((x) => x.user_id !== me).map((x) => x.user_id);
  const audience = others.length ? others : [me];
  const last = lastMessageFor(ctx.db, c.id, me, false);
  const lastAuthored = lastMessageFor(ctx.db, c.id, me, true);
  const tags = tagsOf(ctx.db, c.id);
  const courseIds = tags.filter((t) => t.startsWith('course_')).map((t) => Number(t.slice(7)));
  const courses: Record<string, string[]> = {};
  for (const r of enrollmentTypesIn(ctx.db, audience, courseIds)) (courses[r.course_id] ??= []).push(r.type);
  const groups = Object.fromEntries(tags.filter((t) => t.startsWith('group_')).map((t) => [t.slice(6), ['Member']]));
  const flags = hasAttachments(ctx.db, c.id, me);
  const properties = [
    ...(last && last.author_id === me ? ['last_author'] : []),
    ...(flags.attachments ? ['attachments'] : []),
    ...(flags.media ? ['media_objects'] : []),
  ];
  const participants = people.map((x) => ({
    id: x.user_id,
    name: x.short_name,
    full_name: x.name,
    ...(o.avatars ? { avatar_url: x.avatar_url ?? `${ctx.origin}${AVATAR}` } : {}),
  }));
  if (o.extended && o.messages) {
    const known = new Set(people.map((x) => x.user_id));
    const walk = (m: MessageRow, depth: number) => {
      for (const id of JSON.parse(m.forwarded_message_ids) as number[]) {
        const f = messageById(ctx.db, id);
        if (!f) continue;
        if (!known.has(f.author_id)) {
          known.add(f.author_id);
          const u = userById(ctx.db, f.author_id);
          if (u) participants.push({ id: u.id, name: u.short_name, full_name: u.name });
        }
        if (depth < 5) walk(f, depth + 1);
      }
    };
    for (const m of o.messages) walk(m, 0);
  }
  const preview = (m: MessageRow | undefined) => (m ? Array.from(m.body).slice(0, 100).join('') : null);
  const json: Conversation = {
    id: c.id,
    subject: c.subject,
    workflow_state: p.workflow_state,
    last_message: preview(last),
    last_message_at: p.last_message_at,
    last_authored_message: preview(lastAuthored),
    last_authored_message_at: p.last_authored_at,
    message_count: p.message_count,
    subscribed: p.subscribed === 1,
    private: c.private === 1,
    starred: p.starred === 1,
    properties,
    audience,
    audience_contexts: { courses, groups },
    avatar_url: `${ctx.origin}${AVATAR}`,
    participants,
    visible: p.message_count > 0,
    context_code: c.context_code,
    context_name: contextName(ctx.db, c.context_code),
  };
  if (o.messages) json.messages = o.messages.map((m) => messageJson(ctx, m));
  if (o.submissions) json.submissions = [];
  return json;
}

function batchJson(ctx: MockCtx, b: BatchRow): ConversationBatch {
  const completion =
    b.workflow_state === 'sent'
      ? 1
      : b.workflow_state === 'created'
        ? 0
        : b.recipient_count
          ? b.sent_count / b.recipient_count
          : 1;
  return {
    id: b.id,
    subject: b.subject,
    workflow_state: b.workflow_state,
    completion,
    recipient_count: b.recipient_count,
    message: messageJson(ctx, messageById(ctx.db, b.root_message_id)!),
    tags: JSON.parse(b.tags) as string[],
  };
}

// ---- reading requests -------------------------------------------------------------------------

/** The conversation of the path, as the caller sees it; 404 unless they take part and still see a message. */
function mine(ctx: MockCtx): { c: ConversationRow; p: ParticipantRow } {
  const id = numericId(ctx.path.id ?? '');
  const c = id === undefined ? undefined : conversationById(ctx.db, id);
  const p = c && participant(ctx.db, c.id, ctx.caller.id);
  if (!c || !p || p.message_count === 0) throw notFound();
  return { c, p };
}

const fresh = (ctx: MockCtx, c: ConversationRow) => participant(ctx.db, c.id, ctx.caller.id)!;

/** Body, attachments (the caller's own uploaded files), media comment and forwarded messages of a new message. */
function messageContent(ctx: MockCtx, onBlank: () => HttpError): MessageContent {
  const p = ctx.params;
  const body = str(p, 'body')?.trim();
  if (!body) throw onBlank();
  const attachmentIds = list(p, 'attachment_ids').map((raw) => {
    const id = numericId(String(raw));
    const a = id === undefined ? undefined : attachmentById(ctx.db, id);
    if (a?.context_type !== 'User' || a.context_id !== ctx.caller.id || a.workflow_state !== 'available')
      throw refused('attachment_ids', 'invalid');
    return a.id;
  });
  const mediaCommentId = str(p, 'media_comment_id')?.trim() || null;
  const mediaCommentType = str(p, 'media_comment_type') ?? null;
  if (mediaCommentId && mediaCommentType !== 'audio' && mediaCommentType !== 'video')
    throw refused('media_comment_type', 'invalid');
  const forwardedIds = list(p, 'forwarded_message_ids').map((raw) => numericId(String(raw)) ?? -1);
  if (forwardedIds.length) {
    const seen = visibleMessages(ctx.db, ctx.caller.id, forwardedIds);
    if (forwardedIds.some((id) => !seen.has(id))) throw refused('forwarded_message_ids', 'invalid');
  }
  return {
    body,
    attachmentIds,
    mediaCommentId,
    mediaCommentType: mediaCommentId ? mediaCommentType : null,
    forwardedIds,
  };
}

function recipientTokens(ctx: MockCtx): string[] {
  return list(ctx.params, 'recipients')
    .flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).split(',') : []))
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The contexts a conversation with this recipient belongs to: those named, and the ones the two share. */
function tagsFor(db: Db, scope: MessagingScope, named: readonly string[], recipient: number): string[] {
  const shared = commonContextsOf(db, recipient, scope.people);
  return [
    ...new Set([
      ...named,
      ...shared.courses.map((c) => `course_${c.course_id}`),
      ...shared.groups.map((g) => `group_${g}`),
    ]),
  ];
}

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

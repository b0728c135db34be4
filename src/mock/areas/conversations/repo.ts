// Conversations and each participant's view of them; messages and who still sees each one; batches.
import type { Db } from '../../db/open.js';
import { all, insert, one, placeholders, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';

export interface ConversationRow {
  id: number;
  subject: string | null;
  private: number;
  private_key: string | null;
  context_code: string | null;
  created_at: string;
}

export interface ParticipantRow {
  conversation_id: number;
  user_id: number;
  workflow_state: 'read' | 'unread' | 'archived';
  starred: number;
  subscribed: number;
  message_count: number;
  last_message_at: string | null;
  last_authored_at: string | null;
}

export interface MessageRow {
  id: number;
  conversation_id: number | null;
  author_id: number;
  body: string;
  generated: number;
  media_comment_id: string | null;
  media_comment_type: string | null;
  attachment_ids: string;
  forwarded_message_ids: string;
  created_at: string;
}

export interface BatchRow {
  id: number;
  user_id: number;
  root_message_id: number;
  subject: string | null;
  workflow_state: 'created' | 'sending' | 'sent' | 'error';
  recipient_count: number;
  sent_count: number;
  group_conversation: number;
  context_code: string | null;
  tags: string;
  progress_id: number | null;
  created_at: string;
  updated_at: string;
}

const inList = (ids: readonly unknown[]) => placeholders(ids.length) || 'NULL';

// ---- conversations ----------------------------------------------------------------------------

export function conversationById(db: Db, id: number): ConversationRow | undefined {
  return one<ConversationRow>(db, `SELECT * FROM conversations WHERE id = ?`, id);
}

export function privateConversation(db: Db, key: string): ConversationRow | undefined {
  return one<ConversationRow>(db, `SELECT * FROM conversations WHERE private_key = ?`, key);
}

export function createConversation(
  db: Db,
  c: { subject: string | null; privateKey: string | null; contextCode: string | null; now: string },
): number {
  return insert(
    db,
    `INSERT INTO conversations (subject, private, private_key, context_code, created_at) VALUES (?, ?, ?, ?, ?)`,
    c.subject,
    c.privateKey ? 1 : 0,
    c.privateKey,
    c.contextCode,
    c.now,
  );
}

export function addTags(db: Db, conversationId: number, tags: readonly string[]): void {
  for (const tag of tags)
    run(db, `INSERT OR IGNORE INTO conversation_tags (conversation_id, tag) VALUES (?, ?)`, conversationId, tag);
}

export function tagsOf(db: Db, conversationId: number): string[] {
  return all<{ tag: string }>(
    db,
    `SELECT tag FROM conversation_tags WHERE conversation_id = ? ORDER BY tag`,
    conversationId,
  ).map((r) => r.tag);
}

// ---- participants -----------------------------------------------------------------------------

export function addParticipants(
  db: Db,
  conversationId: number,
  userIds: readonly number[],
  state: 'read' | 'unread' = 'read',
): void {
  for (const id of userIds)
    run(
      db,
      `INSERT OR IGNORE INTO conversation_participants (conversation_id, user_id, workflow_state) VALUES (?, ?, ?)`,
      conversationId,
      id,
      state,
    );
}

export function participant(db: Db, conversationId: number, userId: number): ParticipantRow | undefined {
  return one<ParticipantRow>(
    db,
    `SELECT * FROM conversation_participants WHERE conversation_id = ? AND user_id = ?`,
    conversationId,
    userId,
  );
}

/** Does the user take part in the conversation and still see a message of it? */
export function participantIn(db: Db, conversationId: number, userId: number): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM conversation_participants WHERE conversation_id = ? AND user_id = ? AND message_count > 0`,
      conversationId,
      userId,
    ) !== undefined
  );
}

/** Participants with their names, in order of joining the conversation. */
export function participantsOf(
  db: Db,
  conversationId: number,
): { user_id: number; name: string; short_name: string; avatar_url: string | null }[] {
  return all(
    db,
    'SELECT p.user_id, u.name, u.short_name, u.avatar_url FROM conversation_participants p JOIN users u ON u.id = ' +
      `p.user_id
     WHERE p.conversation_id = ? ORDER BY p.rowid`,
    conversationId,
  );
}

export function setParticipant(
  db: Db,
  conversationId: number,
  userId: number,
  change: { workflow_state?: string; starred?: boolean; subscribed?: boolean },
): void {
  run(
    db,
    'UPDATE conversation_participants SET workflow_state = coalesce(?, workflow_state), starred = coalesce(?, ' +
      `starred), subscribed = coalesce(?, subscribed)
     WHERE conversation_id = ? AND user_id = ?`,
    change.workflow_state ?? null,
    change.starred === undefined ? null : change.starred ? 1 : 0,
    change.subscribed === undefined ? null : change.subscribed ? 1 : 0,
    conversationId,
    userId,
  );
}

/** Recounts what a participant sees: their message count and the times of the last message and of their own last. */
export function refreshParticipant(db: Db, conversationId: number, userId: number): void {
  run(
    db,
    `UPDATE conversation_participants SET
       message_count = (SELECT count(*) FROM conversation_message_participants mp WHERE mp.conversation_id = ? AND ` +
      `mp.user_id = ?),
       last_message_at = (SELECT max(m.created_at) FROM conversation_message_participants mp JOIN ` +
      `conversation_messages m ON m.id = mp.message_id
                          WHERE mp.conversation_id = ? AND mp.user_id = ?),
       last_authored_at = (SELECT max(m.created_at) FROM conversation_message_participants mp JOIN ` +
      `conversation_messages m ON m.id = mp.message_id
                           WHERE mp.conversation_id = ? AND mp.user_id = ? AND m.author_id = ? AND m.generated = 0)
     WHERE conversation_id = ? AND user_id = ?`,
    conversationId,
    userId,
    conversationId,
    userId,
    conversationId,
    userId,
    userId,
    conversationId,
    userId,
  );
}

export function setLastMessageAt(db: Db, conversationId: number, userId: number, at: string): void {
  run(
    db,
    `UPDATE conversation_participants SET last_message_at = ? WHERE conversation_id = ? AND user_id = ?`,
    at,
    conversationId,
    userId,
  );
}

/** The spec moves every one of the user's conversations to read from any state, archived ones included. */
export function markAllRead(db: Db, userId: number): void {
  run(
    db,
    `UPDATE conversation_participants SET workflow_state = 'read' WHERE user_id = ? AND workflow_state <> 'read'`,
    userId,
  );
}

export function unreadCount(db: Db, userId: number): number {
  return one<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM conversation_participants WHERE user_id = ? AND workflow_state = 'unread' AND ` +
      'message_count > 0',
    userId,
  )!.n;
}

// ---- messages ---------------------------------------------------------------------------------

export interface NewMessage {
  conversationId: number | null;
  authorId: number;
  body: string;
  generated?: boolean;
  mediaCommentId?: string | null;
  mediaCommentType?: string | null;
  attachmentIds?: readonly number[];
  forwardedIds?: readonly number[];
  now: string;
}

export function createMessage(db: Db, m: NewMessage): number {
  return insert(
    db,
    'INSERT INTO conversation_messages (conversation_id, author_id, body, generated, media_comment_id, ' +
      `media_comment_type, attachment_ids, forwarded_message_ids, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    m.conversationId,
    m.authorId,
    m.body,
    m.generated ? 1 : 0,
    m.mediaCommentId ?? null,
    m.mediaCommentType ?? null,
    JSON.stringify(m.attachmentIds ?? []),
    JSON.stringify(m.forwardedIds ?? []),
    m.now,
  );
}

export function messageById(db: Db, id: number): MessageRow | undefined {
  return one<MessageRow>(db, `SELECT * FROM conversation_messages WHERE id = ?`, id);
}

/** Lets these users see a message. */
export function shareMessage(db: Db, messageId: number, conversationId: number, userIds: readonly number[]): void {
  for (const id of userIds)
    run(
      db,
      `INSERT OR IGNORE INTO conversation_message_participants (message_id, conversation_id, user_id) VALUES (?, ?, ?)`,
      messageId,
      conversationId,
      id,
    );
}

/** Every message of a conversation, oldest first. */
export function messagesOfConversation(db: Db, conversationId: number): MessageRow[] {
  return all<MessageRow>(
    db,
    `SELECT * FROM conversation_messages WHERE conversation_id = ? ORDER BY created_at, id`,
    conversationId,
  );
}

/** The messages a user still sees in a conversation, newest first. */
export function messagesFor(db: Db, conversationId: number, userId: number): MessageRow[] {
  return all<MessageRow>(
    db,
    `SELECT m.* FROM conversation_message_participants mp JOIN conversation_messages m ON m.id = mp.message_id
     WHERE mp.conversation_id = ? AND mp.user_id = ? ORDER BY m.created_at DESC, m.id DESC`,
    conversationId,
    userId,
  );
}

/** The newest message a user sees (by anyone, or by themselves). */
export function lastMessageFor(
  db: Db,
  conversationId: number,
  userId: number,
  authoredOnly: boolean,
): MessageRow | undefined {
  return one<MessageRow>(
    db,
    `SELECT m.* FROM conversation_message_participants mp JOIN conversation_messages m ON m.id = mp.message_id
     WHERE mp.conversation_id = ? AND mp.user_id = ? AND (? = 0 OR (m.author_id = ? AND m.generated = 0)) ORDER BY ` +
      'm.created_at DESC, m.id DESC LIMIT 1',
    conversationId,
    userId,
    authoredOnly ? 1 : 0,
    userId,
  );
}

export function participatingUsers(db: Db, messageId: number): number[] {
  return all<{ user_id: number }>(
    db,
    `SELECT user_id FROM conversation_message_participants WHERE message_id = ? ORDER BY user_id`,
    messageId,
  ).map((r) => r.user_id);
}

/** Which of these messages the user sees (in any conversation). */
export function visibleMessages(db: Db, userId: number, messageIds: readonly number[]): Set<number> {
  return new Set(
    all<{ message_id: number }>(
      db,
      'SELECT message_id FROM conversation_message_participants WHERE user_id = ? AND message_id IN ' +
        `(${inList(messageIds)})`,
      userId,
      ...messageIds,
    ).map((r) => r.message_id),
  );
}

/** Takes messages out of one user's view (all of them when `messageIds` is absent). */
export function hideMessages(db: Db, conversationId: number, userId: number, messageIds?: readonly number[]): void {
  if (messageIds) {
    run(
      db,
      'DELETE FROM conversation_message_participants WHERE conversation_id = ? AND user_id = ? AND message_id IN ' +
        `(${inList(messageIds)})`,
      conversationId,
      userId,
      ...messageIds,
    );
  } else {
    run(
      db,
      `DELETE FROM conversation_message_participants WHERE conversation_id = ? AND user_id = ?`,
      conversationId,
      userId,
    );
  }
}

export function hasAttachments(
  db: Db,
  conversationId: number,
  userId: number,
): { attachments: boolean; media: boolean } {
  const r = one<{ a: number; m: number }>(
    db,
    `SELECT max(m.attachment_ids <> '[]') AS a, max(m.media_comment_id IS NOT NULL) AS m FROM ` +
      `conversation_message_participants mp
     JOIN conversation_messages m ON m.id = mp.message_id WHERE mp.conversation_id = ? AND mp.user_id = ?`,
    conversationId,
    userId,
  );
  return { attachments: r?.a === 1, media: r?.m === 1 };
}

/** Enrollment types of users in courses, for audience_contexts. */
export function enrollmentTypesIn(
  db: Db,
  userIds: readonly number[],
  courseIds: readonly number[],
): { course_id: number; type: string }[] {
  return all(
    db,
    `SELECT DISTINCT course_id, type FROM enrollments WHERE user_id IN (${inList(userIds)}) AND course_id IN ` +
      `(${inList(courseIds)})
     AND workflow_state IN ('active', 'invited') ORDER BY course_id, type`,
    ...userIds,
    ...courseIds,
  );
}

export function contextName(db: Db, code: string | null): string | null {
  const m = code ? /^(course|group)_(\d+)$/.exec(code) : null;
  if (!m) return null;
  const table = m[1] === 'course' ? 'courses' : 'groups';
  return one<{ name: string }>(db, `SELECT name FROM ${table} WHERE id = ?`, Number(m[2]))?.name ?? null;
}

// ---- lists ------------------------------------------------------------------------------------

export interface InboxFilter {
  userId: number;
  scope: string | undefined;
  filters: string[];
  mode: 'and' | 'or';
}

/** A user's conversations under a scope and filters, most recent first (conversation_participants_inbox serves it). */
export function inboxQuery(f: InboxFilter): KeysetQuery {
  const where = ['p.user_id = ?', 'p.message_count > 0'];
  const args: unknown[] = [f.userId];
  switch (f.scope) {
    case 'unread':
      where.push(`p.workflow_state = 'unread'`);
      break;
    case 'starred':
      where.push('p.starred = 1');
      break;
    case 'archived':
      where.push(`p.workflow_state = 'archived'`);
      break;
    case 'sent':
      where.push('p.last_authored_at IS NOT NULL');
      break;
    default:
      where.push(`p.workflow_state IN ('read', 'unread')`);
  }
  const conds = f.filters.map((tag) => {
    const user = /^user_(\d+)$/.exec(tag);
    if (user) {
      args.push(Number(user[1]));
      return (
        'EXISTS (SELECT 1 FROM conversation_participants o WHERE o.conversation_id = p.conversation_id AND ' +
        'o.user_id = ?)'
      );
    }
    args.push(tag);
    return `EXISTS (SELECT 1 FROM conversation_tags t WHERE t.conversation_id = p.conversation_id AND t.tag = ?)`;
  });
  if (conds.length) where.push(`(${conds.join(f.mode === 'and' ? ' AND ' : ' OR ')})`);
  return {
    sql: `SELECT p.* FROM conversation_participants p WHERE ${where.join(' AND ')}`,
    args,
    key: ['last_message_at', 'conversation_id'],
    descending: true,
  };
}

export function inboxIds(db: Db, q: KeysetQuery): number[] {
  return all<{ conversation_id: number }>(
    db,
    `SELECT conversation_id FROM (${q.sql}) ORDER BY last_message_at DESC, conversation_id DESC`,
    ...q.args,
  ).map((r) => r.conversation_id);
}

// ---- batches ----------------------------------------------------------------------------------

export function createBatch(
  db: Db,
  b: {
    userId: number;
    rootMessageId: number;
    subject: string | null;
    recipientCount: number;
    group: boolean;
    contextCode: string | null;
    tags: readonly string[];
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO conversation_batches (user_id, root_message_id, subject, recipient_count, group_conversation, ' +
      `context_code, tags, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    b.userId,
    b.rootMessageId,
    b.subject,
    b.recipientCount,
    b.group ? 1 : 0,
    b.contextCode,
    JSON.stringify(b.tags),
    b.now,
    b.now,
  );
}

export function setBatchProgress(db: Db, id: number, progressId: number): void {
  run(db, `UPDATE conversation_batches SET progress_id = ? WHERE id = ?`, progressId, id);
}

export function updateBatch(
  db: Db,
  id: number,
  b: { state: BatchRow['workflow_state']; sent: number; now: string },
): void {
  run(
    db,
    `UPDATE conversation_batches SET workflow_state = ?, sent_count = ?, updated_at = ? WHERE id = ?`,
    b.state,
    b.sent,
    b.now,
    id,
  );
}

/** A user's batches still being delivered: real instances drop a batch from the list once it is sent or has failed. */
export function openBatchesOf(db: Db, userId: number): BatchRow[] {
  return all<BatchRow>(
    db,
    `SELECT * FROM conversation_batches WHERE user_id = ? AND workflow_state IN ('created', 'sending') ORDER BY id`,
    userId,
  );
}

// Discussion topics and announcements, their entries, the per-user read state and subscriptions,
// the cached structure of the full view, and collection items (the third context topics live in).
// Other areas' tables are only read here: group memberships, the users' stored files.
import type { Findable } from '../../db/find.js';
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';

// ---- collection items -------------------------------------------------------------------------

export interface CollectionItemRow {
  id: number;
  user_id: number;
  title: string;
  workflow_state: string;
  created_at: string;
}

export const collectionItems: Findable<CollectionItemRow> = {
  label: 'collection item',
  table: 'collection_items',
  deleted: (c) => c.workflow_state === 'deleted',
};

export function createCollectionItem(db: Db, c: { id?: number; user: number; title: string; now: string }): number {
  return insert(
    db,
    `INSERT INTO collection_items (id, user_id, title, created_at) VALUES (?, ?, ?, ?)`,
    c.id ?? null,
    c.user,
    c.title,
    c.now,
  );
}

// ---- topics -----------------------------------------------------------------------------------

export type TopicContextType = 'Course' | 'Group' | 'CollectionItem';

export interface TopicRow {
  id: number;
  context_type: TopicContextType;
  context_id: number;
  user_id: number | null;
  title: string;
  message: string;
  discussion_type: string;
  workflow_state: string;
  is_announcement: number;
  require_initial_post: number;
  pinned: number;
  locked: number;
  podcast_enabled: number;
  podcast_has_student_posts: number;
  position: number;
  delayed_post_at: string | null;
  lock_at: string | null;
  posted_at: string | null;
  last_reply_at: string | null;
  activity_at: string;
  assignment_id: number | null;
  root_topic_id: number | null;
  group_category_id: number | null;
  view_version: number;
  view_stale_until: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** The fields a create or update sets. */
export type TopicFields = Pick<
  TopicRow,
  | 'title'
  | 'message'
  | 'discussion_type'
  | 'workflow_state'
  | 'is_announcement'
  | 'require_initial_post'
  | 'pinned'
  | 'locked'
  | 'podcast_enabled'
  | 'podcast_has_student_posts'
  | 'delayed_post_at'
  | 'lock_at'
  | 'posted_at'
  | 'assignment_id'
>;

export function topicById(db: Db, id: number): TopicRow | undefined {
  return one<TopicRow>(db, `SELECT * FROM discussion_topics WHERE id = ?`, id);
}

/** A live topic of the context, or nothing. */
export function topicInContext(db: Db, type: TopicContextType, contextId: number, id: number): TopicRow | undefined {
  return one<TopicRow>(
    db,
    'SELECT * FROM discussion_topics WHERE id = ? AND context_type = ? AND context_id = ? AND workflow_state <> ' +
      `'deleted'`,
    id,
    type,
    contextId,
  );
}

export interface NewTopic extends TopicFields {
  id?: number;
  context_type: TopicContextType;
  context_id: number;
  user_id: number;
  root_topic_id?: number | null;
  now: string;
}

/** Appends the topic after the context's last one (chronological order by creation). */
export function createTopic(db: Db, t: NewTopic): number {
  const position = one<{ p: number }>(
    db,
    `SELECT coalesce(max(position), 0) + 1 AS p FROM discussion_topics WHERE context_type = ? AND context_id = ?`,
    t.context_type,
    t.context_id,
  )!.p;
  return insert(
    db,
    'INSERT INTO discussion_topics (id, context_type, context_id, user_id, title, message, discussion_type, ' +
      `workflow_state, is_announcement, require_initial_post,
       pinned, locked, podcast_enabled, podcast_has_student_posts, position, delayed_post_at, lock_at, posted_at, ` +
      `activity_at, assignment_id, root_topic_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    t.id ?? null,
    t.context_type,
    t.context_id,
    t.user_id,
    t.title,
    t.message,
    t.discussion_type,
    t.workflow_state,
    t.is_announcement,
    t.require_initial_post,
    t.pinned,
    t.locked,
    t.podcast_enabled,
    t.podcast_has_student_posts,
    position,
    t.delayed_post_at,
    t.lock_at,
    t.posted_at,
    t.posted_at ?? t.now,
    t.assignment_id,
    t.root_topic_id ?? null,
    t.now,
    t.now,
  );
}

export function updateTopic(db: Db, id: number, t: TopicFields, now: string): void {
  run(
    db,
    'UPDATE discussion_topics SET title = ?, message = ?, discussion_type = ?, workflow_state = ?, is_announcement = ' +
      `?, require_initial_post = ?, pinned = ?, locked = ?,
       podcast_enabled = ?, podcast_has_student_posts = ?, delayed_post_at = ?, lock_at = ?, posted_at = ?, ` +
      'assignment_id = ?, updated_at = ? WHERE id = ?',
    t.title,
    t.message,
    t.discussion_type,
    t.workflow_state,
    t.is_announcement,
    t.require_initial_post,
    t.pinned,
    t.locked,
    t.podcast_enabled,
    t.podcast_has_student_posts,
    t.delayed_post_at,
    t.lock_at,
    t.posted_at,
    t.assignment_id,
    now,
    id,
  );
}

/** Puts a topic right after another of its context, shifting the ones between. */
export function moveTopicAfter(db: Db, topic: TopicRow, after: TopicRow): void {
  run(
    db,
    'UPDATE discussion_topics SET position = position + 1 WHERE context_type = ? AND context_id = ? AND position > ' +
      '? AND id <> ?',
    topic.context_type,
    topic.context_id,
    after.position,
    topic.id,
  );
  run(db, `UPDATE discussion_topics SET position = ? WHERE id = ?`, after.position + 1, topic.id);
}

/** The group set a course topic is split by (null: none). */
export function setTopicGroupSet(db: Db, id: number, categoryId: number | null, now: string): void {
  run(db, `UPDATE discussion_topics SET group_category_id = ?, updated_at = ? WHERE id = ?`, categoryId, now, id);
}

export function deleteTopic(db: Db, id: number, now: string): void {
  run(
    db,
    `UPDATE discussion_topics SET workflow_state = 'deleted', deleted_at = ?, updated_at = ? WHERE id = ?`,
    now,
    now,
    id,
  );
}

/** The group topics of a root (course) topic, with the group each lives in. */
export function childTopics(db: Db, rootId: number): { id: number; group_id: number }[] {
  return all(
    db,
    'SELECT id, context_id AS group_id FROM discussion_topics WHERE root_topic_id = ? AND workflow_state <> ' +
      `'deleted' ORDER BY id`,
    rootId,
  );
}

/** The sections a section-specific topic is for (empty: the whole course). */
export function topicSections(db: Db, topicId: number): number[] {
  return all<{ s: number }>(
    db,
    `SELECT section_id AS s FROM discussion_topic_sections WHERE topic_id = ? ORDER BY section_id`,
    topicId,
  ).map((r) => r.s);
}

export function setTopicSections(db: Db, topicId: number, sections: readonly number[]): void {
  run(db, `DELETE FROM discussion_topic_sections WHERE topic_id = ?`, topicId);
  for (const section of new Set(sections))
    run(db, `INSERT INTO discussion_topic_sections (topic_id, section_id) VALUES (?, ?)`, topicId, section);
}

export interface TopicFilter {
  contextType: TopicContextType;
  contextId: number;
  announcements: boolean;
  /**
   * Who does not moderate: drafts, announcements not yet posted and topics for other sections than
   * `sections` (the caller's) are left out — the SQL form of the topic's visibility rule (topicAccess).
   */
  moderator: boolean;
  sections: readonly number[];
  now: string;
  term?: string;
  orderBy: 'position' | 'recent_activity';
}

/** Topics of a context: position order (discussion_topics_position), or most recent activity first (…_activity). */
export function topicsQuery(f: TopicFilter): KeysetQuery {
  const where = [`context_type = ?`, `context_id = ?`, `workflow_state <> 'deleted'`, `is_announcement = ?`];
  const args: unknown[] = [f.contextType, f.contextId, f.announcements ? 1 : 0];
  if (!f.moderator) {
    where.push(
      `workflow_state = 'active'`,
      `NOT (is_announcement = 1 AND coalesce(delayed_post_at, '') > ?)`,
      `(NOT EXISTS (SELECT 1 FROM discussion_topic_sections s WHERE s.topic_id = discussion_topics.id)
        OR EXISTS (SELECT 1 FROM discussion_topic_sections s WHERE s.topic_id = discussion_topics.id AND ` +
        `s.section_id IN (${inList(f.sections)})))`,
    );
    args.push(f.now, ...f.sections);
  }
  if (f.term) {
    // The trigram index serves the %term% match, case-insensitively.
    where.push(`id IN (SELECT rowid FROM discussion_topic_search WHERE title LIKE ?)`);
    args.push(`%${f.term}%`);
  }
  const sql = `SELECT * FROM discussion_topics WHERE ${where.join(' AND ')}`;
  return f.orderBy === 'recent_activity'
    ? { sql, args, key: ['activity_at', 'id'], descending: true }
    : { sql, args, key: ['position', 'id'] };
}

/** A write to the thread: the cached view is out of date, and unavailable until `staleUntil` (wall-clock ms). */
export function touchThread(db: Db, topicId: number, staleUntil: number): void {
  run(
    db,
    `UPDATE discussion_topics SET view_version = view_version + 1, view_stale_until = ? WHERE id = ?`,
    staleUntil,
    topicId,
  );
}

export function recordReply(db: Db, topicId: number, at: string): void {
  run(db, `UPDATE discussion_topics SET last_reply_at = ?, activity_at = ? WHERE id = ?`, at, at, topicId);
}

// ---- entries ----------------------------------------------------------------------------------

export interface EntryRow {
  id: number;
  topic_id: number;
  user_id: number;
  parent_id: number | null;
  root_entry_id: number | null;
  message: string;
  attachment_id: number | null;
  editor_id: number | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function entryById(db: Db, id: number): EntryRow | undefined {
  return one<EntryRow>(db, `SELECT * FROM discussion_entries WHERE id = ?`, id);
}

export function createEntry(
  db: Db,
  e: {
    id?: number;
    topic: number;
    user: number;
    parent?: EntryRow;
    message: string;
    attachment?: number | null;
    now: string;
  },
): number {
  const id = insert(
    db,
    'INSERT INTO discussion_entries (id, topic_id, user_id, parent_id, root_entry_id, message, attachment_id, ' +
      'created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    e.id ?? null,
    e.topic,
    e.user,
    e.parent?.id ?? null,
    e.parent ? (e.parent.root_entry_id ?? e.parent.id) : null,
    e.message,
    e.attachment ?? null,
    e.now,
    e.now,
  );
  if (!e.parent) run(db, `UPDATE discussion_entries SET root_entry_id = id WHERE id = ?`, id);
  return id;
}

export function updateEntryMessage(db: Db, id: number, message: string, editor: number | null, now: string): void {
  run(
    db,
    `UPDATE discussion_entries SET message = ?, editor_id = coalesce(?, editor_id), updated_at = ? WHERE id = ?`,
    message,
    editor,
    now,
    id,
  );
}

/** Deleted: the message and attachment go; the row stays so the thread keeps its shape. */
export function deleteEntry(db: Db, id: number, editor: number | null, now: string): void {
  run(
    db,
    `UPDATE discussion_entries SET workflow_state = 'deleted', message = '', attachment_id = NULL, editor_id = ` +
      'coalesce(?, editor_id), deleted_at = ?, updated_at = ? WHERE id = ?',
    editor,
    now,
    now,
    id,
  );
}

const inList = (ids: readonly number[]) => ids.map(() => '?').join(', ');

/** Live top-level entries of the topics, newest first (discussion_entries_top). */
export function topLevelEntriesQuery(topicIds: readonly number[]): KeysetQuery {
  return {
    sql:
      `SELECT * FROM discussion_entries WHERE topic_id IN (${inList(topicIds)}) AND parent_id IS NULL AND ` +
      `workflow_state = 'active'`,
    args: [...topicIds],
    key: ['created_at', 'id'],
    descending: true,
  };
}

/** Every live reply under a top-level entry, at any depth, newest first (discussion_entries_root). */
export function repliesQuery(rootEntryId: number): KeysetQuery {
  return {
    sql:
      'SELECT * FROM discussion_entries WHERE root_entry_id = ? AND id <> root_entry_id AND workflow_state = ' +
      `'active'`,
    args: [rootEntryId],
    key: ['created_at', 'id'],
    descending: true,
  };
}

/** Entries of the topics by id, deleted ones included, ascending id. */
export function entryListQuery(topicIds: readonly number[], ids: readonly number[]): KeysetQuery {
  return {
    sql: `SELECT * FROM discussion_entries WHERE topic_id IN (${inList(topicIds)}) AND id IN (${inList(ids)})`,
    args: [...topicIds, ...ids],
    key: ['id'],
  };
}

export function countFound(db: Db, topicIds: readonly number[], ids: readonly number[]): number {
  return one<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM discussion_entries WHERE topic_id IN (${inList(topicIds)}) AND id IN (${inList(ids)})`,
    ...topicIds,
    ...ids,
  )!.n;
}

/** The newest `limit` live replies under a top-level entry. */
export function recentReplies(db: Db, rootEntryId: number, limit: number): EntryRow[] {
  return all<EntryRow>(
    db,
    `SELECT * FROM discussion_entries WHERE root_entry_id = ? AND id <> root_entry_id AND workflow_state = 'active' ` +
      'ORDER BY created_at DESC, id DESC LIMIT ?',
    rootEntryId,
    limit,
  );
}

/** Every entry of a topic, deleted ones included, in id order: what the view is built from. */
export function threadOf(db: Db, topicId: number): EntryRow[] {
  return all<EntryRow>(db, `SELECT * FROM discussion_entries WHERE topic_id = ? ORDER BY id`, topicId);
}

export function entriesAfter(db: Db, topicId: number, afterId: number): EntryRow[] {
  return all<EntryRow>(
    db,
    `SELECT * FROM discussion_entries WHERE topic_id = ? AND id > ? ORDER BY created_at, id`,
    topicId,
    afterId,
  );
}

/** Has any of the users a live entry in one of the topics? */
/**
 * Topics of courses and groups with when they last changed, oldest change first (what the seed puts in the streams).
 */
export function topicsByLastActivity(db: Db): {
  id: number;
  context_type: 'Course' | 'Group';
  context_id: number;
  is_announcement: number;
  user_id: number | null;
  at: string;
}[] {
  return all(
    db,
    'SELECT id, context_type, context_id, is_announcement, user_id, coalesce(last_reply_at, posted_at, created_at) ' +
      `AS at FROM discussion_topics
     WHERE workflow_state <> 'deleted' AND context_type IN ('Course', 'Group') ORDER BY at, id`,
  );
}

/** The first top-level entries of a topic (the activity stream shows a few), and how many there are. */
export function rootEntriesOf(db: Db, topicId: number, limit: number): { total: number; first: EntryRow[] } {
  const total = one<{ n: number }>(
    db,
    'SELECT count(*) AS n FROM discussion_entries WHERE topic_id = ? AND parent_id IS NULL AND workflow_state = ' +
      `'active'`,
    topicId,
  )!.n;
  const first = all<EntryRow>(
    db,
    `SELECT * FROM discussion_entries WHERE topic_id = ? AND parent_id IS NULL AND workflow_state = 'active' ORDER ` +
      'BY created_at, id LIMIT ?',
    topicId,
    limit,
  );
  return { total, first };
}

export function hasPosted(db: Db, topicIds: readonly number[], userIds: readonly number[]): boolean {
  if (!userIds.length) return false;
  return (
    one(
      db,
      `SELECT 1 FROM discussion_entries WHERE topic_id IN (${inList(topicIds)}) AND user_id IN (${inList(userIds)}) ` +
        `AND workflow_state = 'active' LIMIT 1`,
      ...topicIds,
      ...userIds,
    ) !== undefined
  );
}

export function entryCounts(db: Db, topicId: number, userId: number): { total: number; unread: number } {
  return one<{ total: number; unread: number }>(
    db,
    `SELECT count(*) AS total, coalesce(sum(coalesce(p.read_state, 'unread') = 'unread'), 0) AS unread
     FROM discussion_entries e LEFT JOIN discussion_entry_participants p ON p.entry_id = e.id AND p.user_id = ?
     WHERE e.topic_id = ? AND e.workflow_state = 'active'`,
    userId,
    topicId,
  )!;
}

// ---- per-user state ---------------------------------------------------------------------------

export interface ParticipantRow {
  read_state: string | null;
  subscribed: number | null;
}

export function participantOf(db: Db, topicId: number, userId: number): ParticipantRow | undefined {
  return one<ParticipantRow>(
    db,
    `SELECT read_state, subscribed FROM discussion_participants WHERE topic_id = ? AND user_id = ?`,
    topicId,
    userId,
  );
}

export function setTopicRead(db: Db, topicId: number, userId: number, state: 'read' | 'unread'): void {
  run(
    db,
    'INSERT INTO discussion_participants (topic_id, user_id, read_state) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET ' +
      'read_state = excluded.read_state',
    topicId,
    userId,
    state,
  );
}

export function setSubscribed(db: Db, topicId: number, userId: number, on: boolean): void {
  run(
    db,
    'INSERT INTO discussion_participants (topic_id, user_id, subscribed) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET ' +
      'subscribed = excluded.subscribed',
    topicId,
    userId,
    on ? 1 : 0,
  );
}

/** Subscribes unless the user chose otherwise before. */
export function subscribeUnlessChosen(db: Db, topicId: number, userId: number): void {
  run(
    db,
    'INSERT INTO discussion_participants (topic_id, user_id, subscribed) VALUES (?, ?, 1) ON CONFLICT DO UPDATE SET ' +
      'subscribed = coalesce(subscribed, 1)',
    topicId,
    userId,
  );
}

export function entryStatesOf(
  db: Db,
  entryIds: readonly number[],
  userId: number,
): Map<number, { read_state: string; forced: number }> {
  if (!entryIds.length) return new Map();
  const rows = all<{ entry_id: number; read_state: string; forced: number }>(
    db,
    'SELECT entry_id, read_state, forced FROM discussion_entry_participants WHERE user_id = ? AND entry_id IN ' +
      `(${inList(entryIds)})`,
    userId,
    ...entryIds,
  );
  return new Map(rows.map((r) => [r.entry_id, r]));
}

/** One entry's read state for a user; `forced` set only when given. */
export function setEntryRead(
  db: Db,
  entryId: number,
  userId: number,
  state: 'read' | 'unread',
  forced?: boolean,
): void {
  run(
    db,
    `INSERT INTO discussion_entry_participants (entry_id, user_id, read_state, forced) VALUES (?, ?, ?, coalesce(?, 0))
     ON CONFLICT DO UPDATE SET read_state = excluded.read_state, forced = coalesce(?, forced)`,
    entryId,
    userId,
    state,
    forced === undefined ? null : Number(forced),
    forced === undefined ? null : Number(forced),
  );
}

/** Every entry of the topic, for a user; `forced` set only when given. */
export function setAllEntriesRead(
  db: Db,
  topicId: number,
  userId: number,
  state: 'read' | 'unread',
  forced?: boolean,
): void {
  const f = forced === undefined ? null : Number(forced);
  run(
    db,
    'INSERT INTO discussion_entry_participants (entry_id, user_id, read_state, forced) SELECT id, ?, ?, coalesce(?, ' +
      `0) FROM discussion_entries WHERE topic_id = ? AND true
     ON CONFLICT DO UPDATE SET read_state = excluded.read_state, forced = coalesce(?, forced)`,
    userId,
    state,
    f,
    topicId,
    f,
  );
}

/** What viewing does when the user does not mark by hand: every entry read, except those whose state was forced. */
export function markViewedRead(db: Db, topicId: number, userId: number): void {
  run(
    db,
    `INSERT INTO discussion_entry_participants (entry_id, user_id, read_state, forced) SELECT id, ?, 'read', 0 FROM ` +
      `discussion_entries WHERE topic_id = ? AND workflow_state = 'active' AND true
     ON CONFLICT DO UPDATE SET read_state = 'read' WHERE forced = 0`,
    userId,
    topicId,
  );
}

// ---- the full view's cache --------------------------------------------------------------------

export interface ViewSnapshot {
  version: number;
  max_entry_id: number;
  view: string;
}

export function viewSnapshot(db: Db, topicId: number): ViewSnapshot | undefined {
  return one<ViewSnapshot>(db, `SELECT version, max_entry_id, view FROM discussion_views WHERE topic_id = ?`, topicId);
}

export function saveViewSnapshot(db: Db, topicId: number, s: ViewSnapshot): void {
  run(
    db,
    'INSERT INTO discussion_views (topic_id, version, max_entry_id, view) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE ' +
      'SET version = excluded.version, max_entry_id = excluded.max_entry_id, view = excluded.view',
    topicId,
    s.version,
    s.max_entry_id,
    s.view,
  );
}

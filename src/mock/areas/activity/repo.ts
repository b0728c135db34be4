// Stream items, their per-user instances, and notification messages.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';

export interface StreamContext {
  type: 'Course' | 'Group';
  id: number;
}

interface StreamItemRow {
  id: number;
  asset_type: string;
  asset_id: number;
  context_type: string | null;
  context_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A user's view of an item, as the stream lists it. */
export interface StreamEntryRow extends StreamItemRow {
  read: number;
  /** The instance's order key. */
  seen_at: string;
}

export interface MessageRow {
  id: number;
  user_id: number;
  notification_category: string;
  subject: string;
  body: string;
  url: string | null;
  context_type: string | null;
  context_id: number | null;
  about_type: string | null;
  about_id: number | null;
  created_at: string;
}

/**
 * Puts an asset in the streams of `users` (creating its item on first use) and moves it to the top
 * of each, unread — except for `author`, whose own action it is (read for them).
 */
export function publishStreamItem(
  db: Db,
  p: {
    type: string;
    assetId: number;
    context: StreamContext | null;
    users: readonly number[];
    author?: number;
    now: string;
  },
): number {
  let item = one<{ id: number }>(
    db,
    `SELECT id FROM stream_items WHERE asset_type = ? AND asset_id = ?`,
    p.type,
    p.assetId,
  )?.id;
  if (item === undefined) {
    item = insert(
      db,
      'INSERT INTO stream_items (asset_type, asset_id, context_type, context_id, created_at, updated_at) VALUES (?, ' +
        '?, ?, ?, ?, ?)',
      p.type,
      p.assetId,
      p.context?.type ?? null,
      p.context?.id ?? null,
      p.now,
      p.now,
    );
  } else {
    run(db, `UPDATE stream_items SET updated_at = ? WHERE id = ?`, p.now, item);
  }
  for (const user of new Set(p.users)) {
    const read = user === p.author ? 1 : 0;
    run(
      db,
      `INSERT INTO stream_item_instances (user_id, stream_item_id, read, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, stream_item_id) DO UPDATE SET read = excluded.read, updated_at = excluded.updated_at`,
      user,
      item,
      read,
      p.now,
    );
  }
  return item;
}

/**
 * Moves an asset not yet in sight (a delayed announcement whose post time changed) to `at` in every
 * stream: its own item and the notices about it, their times and their place in the order.
 */
export function moveStreamItems(db: Db, about: { type: string; id: number }, at: string): void {
  run(db, `UPDATE messages SET created_at = ? WHERE about_type = ? AND about_id = ?`, at, about.type, about.id);
  const items =
    `SELECT id FROM stream_items WHERE (asset_type = ? AND asset_id = ?)
                 OR (asset_type = 'Message' AND asset_id IN (SELECT id FROM messages WHERE about_type = ? AND ` +
    'about_id = ?))';
  const args = [about.type, about.id, about.type, about.id];
  run(db, `UPDATE stream_item_instances SET updated_at = ? WHERE stream_item_id IN (${items})`, at, ...args);
  run(db, `UPDATE stream_items SET created_at = ?, updated_at = ? WHERE id IN (${items})`, at, at, ...args);
}

/**
 * Hides an item from one user's stream for good (a later change does not bring it back); false if they have no such
 * item.
 */
export function hideStreamItem(db: Db, userId: number, itemId: number): boolean {
  return (
    run(db, `UPDATE stream_item_instances SET hidden = 1 WHERE user_id = ? AND stream_item_id = ?`, userId, itemId) > 0
  );
}

/** A user's visible stream, newest change first. */
export function streamOfUserQuery(userId: number): KeysetQuery {
  return {
    sql:
      'SELECT s.*, i.read, i.updated_at AS seen_at FROM stream_item_instances i JOIN stream_items s ON s.id = ' +
      `i.stream_item_id
          WHERE i.user_id = ? AND i.hidden = 0`,
    args: [userId],
    key: ['seen_at', 'id'],
    descending: true,
  };
}

/** Every visible item of a user's stream (the summary counts them). */
export function streamOfUser(db: Db, userId: number): StreamEntryRow[] {
  return all<StreamEntryRow>(
    db,
    'SELECT s.*, i.read, i.updated_at AS seen_at FROM stream_item_instances i JOIN stream_items s ON s.id = ' +
      `i.stream_item_id
     WHERE i.user_id = ? AND i.hidden = 0`,
    userId,
  );
}

export function sendMessage(
  db: Db,
  /** `url`: a path on the instance (`/courses/2`), made absolute when shown. */
  m: {
    user: number;
    category: string;
    subject: string;
    body: string;
    url?: string | null;
    context: StreamContext | null;
    /** The stream item type and id of what the notice is about: the notice shows only while that does. */
    about?: { type: string; id: number };
    now: string;
  },
): number {
  const id = insert(
    db,
    'INSERT INTO messages (user_id, notification_category, subject, body, url, context_type, context_id, ' +
      'about_type, about_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    m.user,
    m.category,
    m.subject,
    m.body,
    m.url ?? null,
    m.context?.type ?? null,
    m.context?.id ?? null,
    m.about?.type ?? null,
    m.about?.id ?? null,
    m.now,
  );
  publishStreamItem(db, { type: 'Message', assetId: id, context: m.context, users: [m.user], now: m.now });
  return id;
}

export function messageById(db: Db, id: number): MessageRow | undefined {
  return one<MessageRow>(db, `SELECT * FROM messages WHERE id = ?`, id);
}

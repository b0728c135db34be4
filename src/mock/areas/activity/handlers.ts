// The activity stream: the caller's stream items, newest change first (21 a page, as real
// instances answer), each in the shape of its type from the area that owns the asset, with the
// caller's read state; and its summary, counted by type.
import type { ActivityItem, ActivitySummaryEntry } from '../../../spec/types/activity.js';
import { keysetSource, notFound, numericId, paginate, Reply, type Handler, type MockCtx } from '../../kit.js';
import type { StreamPresenter } from '../../area.js';
import { hideStreamItem, messageById, streamOfUser, streamOfUserQuery, type StreamEntryRow } from './repo.js';

const PER_PAGE = 21;
/** Messages longer than this are cut, as real instances cut topic messages in the stream. */
const STREAM_MESSAGE_LIMIT = 4096;

type Presenters = Readonly<Record<string, StreamPresenter>>;

/**
 * Messages, each shown only while what it is about shows to the caller (by that asset's own
 * presenter): the notice of a delayed announcement stays out of sight, and out of the summary's
 * counts, until the announcement posts.
 */
const messageItem =
  (others: Presenters): StreamPresenter =>
  (ctx, item) => {
    const m = messageById(ctx.db, item.asset_id);
    if (!m) return undefined;
    if (m.about_type !== null && m.about_id !== null) {
      const about = others[m.about_type];
      if (!about?.(ctx, { asset_id: m.about_id, context_type: m.context_type, context_id: m.context_id }))
        return undefined;
    }
    // Stored as a path: the reply's URLs are on the origin the request came to.
    const url = m.url === null ? null : new URL(m.url, ctx.origin).toString();
    return {
      title: m.subject,
      message: m.body,
      html_url: url ?? `${ctx.origin}/`,
      message_id: m.id,
      notification_category: m.notification_category,
      url,
    };
  };

function present(presenters: Presenters, ctx: MockCtx, row: StreamEntryRow): ActivityItem | undefined {
  const presenter = presenters[row.asset_type];
  const shown = presenter?.(ctx, row);
  if (!shown) return undefined;
  const { title, message, html_url, read_state, type, ...extras } = shown;
  // The type's own fields first: the item's own (its id, times, read state) are the stream's.
  return {
    ...extras,
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    title,
    message:
      message !== null && message.length > STREAM_MESSAGE_LIMIT ? message.slice(0, STREAM_MESSAGE_LIMIT) : message,
    type: type ?? row.asset_type,
    read_state: read_state ?? row.read === 1,
    context_type: row.context_type === null ? null : row.context_type.toLowerCase(),
    course_id: row.context_type === 'Course' ? row.context_id : null,
    group_id: row.context_type === 'Group' ? row.context_id : null,
    html_url,
  };
}

const stream =
  (presenters: Presenters): Handler =>
  (ctx) => {
    const reply = paginate(
      ctx,
      keysetSource<StreamEntryRow>(ctx.db, streamOfUserQuery(ctx.caller.id)),
      (row) => present(presenters, ctx, row),
      { defaultPerPage: PER_PAGE },
    );
    // An asset that is gone (or out of the caller's sight) leaves no hole in the page.
    return new Reply(
      reply.status,
      (reply.body as (ActivityItem | undefined)[]).filter((item) => item !== undefined),
      reply.headers,
    );
  };

const summary =
  (presenters: Presenters): Handler =>
  (ctx) => {
    const counts = new Map<string, ActivitySummaryEntry>();
    for (const row of streamOfUser(ctx.db, ctx.caller.id)) {
      const item = present(presenters, ctx, row);
      if (!item) continue;
      const category = item.type === 'Message' ? (item.notification_category as string) : null;
      const key = `${item.type}\u0000${category ?? ''}`;
      const entry = counts.get(key) ?? { type: item.type, notification_category: category, count: 0, unread_count: 0 };
      entry.count++;
      if (!item.read_state) entry.unread_count++;
      counts.set(key, entry);
    }
    return [...counts.values()].sort(
      (a, b) =>
        a.type.localeCompare(b.type) || (a.notification_category ?? '').localeCompare(b.notification_category ?? ''),
    );
  };

const hide: Handler = (ctx) => {
  const id = numericId(ctx.path.id!);
  if (id === undefined || !hideStreamItem(ctx.db, ctx.caller.id, id)) throw notFound();
  return { hidden: true };
};

/** The stream's handlers, showing items with the other areas' presenters and its own messages'. */
export function activityHandlers(others: Presenters) {
  const presenters = { ...others, Message: messageItem(others) };
  const list = stream(presenters);
  return {
    'users.hideStreamItem': hide,
    'users.activityStream': list,
    'users.activityStreamAlias': list,
    'users.activityStreamSummary': summary(presenters),
  };
}

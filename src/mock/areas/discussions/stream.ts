// Topics and announcements in the activity stream: published as they post, shown to each reader.
import { once, type MockCtx, type ResolvedContext } from '../../kit.js';
import { find } from '../lookup.js';
import { courseById } from '../../school/courses/repo.js';
import { userById } from '../../school/users/repo.js';
import { rootEntriesOf, topicById, type TopicRow } from './repo.js';
import { groups } from '../groups/repo.js';
import type { StreamPresenter } from '../../area.js';
import { audienceOf } from '../activity/notifications.js';
import { publishStreamItem, type StreamContext } from '../activity/repo.js';
import { placeIn, isDelayed, topicAccess, hasPostedIn } from './place.js';
import { topicJson } from './present.js';

// ---- the activity stream ----------------------------------------------------------------------

/** The stream context of a topic, for courses and groups (collection items have no stream). */
export function streamContextOf(t: TopicRow): StreamContext | null {
  return t.context_type === 'Course' || t.context_type === 'Group' ? { type: t.context_type, id: t.context_id } : null;
}

/** Puts a topic (or announcement) at the top of its context's streams: on creation, publication and each post. */
export function publishTopic(ctx: MockCtx, t: TopicRow, author: number): void {
  const context = streamContextOf(t);
  if (!context) return;
  publishStreamItem(ctx.db, {
    type: t.is_announcement === 1 ? 'Announcement' : 'DiscussionTopic',
    assetId: t.id,
    context,
    users: audienceOf(ctx.db, context),
    author,
    now: postsAt(ctx, t),
  });
}

/**
 * When a topic enters the streams: now, or when it posts if it is delayed. Its items are put in place
 * at that time, and topicAccess keeps them out of sight until then; no job runs when it posts.
 */
export function postsAt(ctx: MockCtx, t: TopicRow): string {
  const now = ctx.now();
  return isDelayed(t, now) ? t.delayed_post_at! : now;
}

/** A topic as a stream item, for a caller who may see it now (drafts and delayed topics only for moderators). */
export const topicStreamItem: StreamPresenter = (ctx, item) => {
  const t = topicById(ctx.db, item.asset_id);
  if (!t || t.workflow_state === 'deleted') return undefined;
  const context: ResolvedContext | undefined =
    t.context_type === 'Course'
      ? { type: 'course', id: t.context_id, record: courseById(ctx.db, t.context_id)! }
      : t.context_type === 'Group'
        ? { type: 'group', id: t.context_id, record: find(ctx, groups, String(t.context_id)) }
        : undefined;
  if (!context) return undefined;
  const p = once(ctx, `discussions:stream-place:${t.context_type}:${t.context_id}`, () => placeIn(ctx, context));
  // In a stream only once it has posted (for who does not moderate it), as its notices are.
  if (!topicAccess(ctx, p, t).posts) return undefined;
  const json = topicJson(ctx, p, t);
  const roots = rootEntriesOf(ctx.db, t.id, STREAM_ROOT_ENTRIES);
  return {
    type: t.is_announcement === 1 ? 'Announcement' : 'DiscussionTopic',
    title: t.title,
    message: t.message,
    html_url: json.html_url as string,
    read_state: json.read_state === 'read',
    [t.is_announcement === 1 ? 'announcement_id' : 'discussion_topic_id']: t.id,
    total_root_discussion_entries: roots.total,
    require_initial_post: t.require_initial_post === 1,
    user_has_posted: t.require_initial_post === 1 ? hasPostedIn(ctx, p, t) : null,
    root_discussion_entries: roots.first.map((e) => ({
      user: { user_id: e.user_id, user_name: userById(ctx.db, e.user_id)?.name ?? '' },
      message: e.message,
    })),
  };
};

/** Root entries an activity stream item shows. */
const STREAM_ROOT_ENTRIES = 3;

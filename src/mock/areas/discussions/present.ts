// Topics and entries as the API shows them, every per-user field computed for their reader.
import type { Entry, Topic, UserDisplay } from '../../../spec/types/discussions.js';
import { keysetSource, paginate, Reply, type MockCtx } from '../../kit.js';
import { assignmentJson } from '../assignments/present.js';
import { assignmentById } from '../assignments/repo.js';
import { attachmentJson } from '../files/present.js';
import { attachmentById } from '../files/repo.js';
import { userById } from '../../school/users/repo.js';
import {
  childTopics,
  entryCounts,
  entryStatesOf,
  participantOf,
  recentReplies,
  topicSections,
  type EntryRow,
  type TopicRow,
} from './repo.js';
import { isLocked, type Place } from './policy.js';
import { groupsOfUser } from '../groups/repo.js';
import { RECENT_REPLIES, isDelayed, topicAccess, hasPostedIn, subscriptionHold } from './place.js';

// ---- presenters -------------------------------------------------------------------------------

export function userDisplay(ctx: MockCtx, userId: number | null): UserDisplay | Record<string, never> {
  const u = userId === null ? undefined : userById(ctx.db, userId);
  if (!u) return {};
  return {
    id: u.id,
    display_name: u.short_name || u.name,
    avatar_image_url: u.avatar_url ?? `${ctx.origin}/images/messages/avatar-50.png`,
    html_url: `${ctx.origin}/users/${u.id}`,
  };
}

/**
 * Why a topic is locked for a user who does not moderate it, as real instances explain it. Only a
 * topic not yet posted keeps its message from them (the explanation stands in its place); one closed
 * for replies, by date or by hand, can still be read (`can_view`).
 */
function lockOf(
  t: TopicRow,
  now: string,
): { info: NonNullable<Topic['lock_info']>; explanation: string; canView: boolean } | undefined {
  const asset = `discussion_topic_${t.id}`;
  if (isDelayed(t, now))
    return {
      info: { asset_string: asset, unlock_at: t.delayed_post_at! },
      explanation: `This topic is locked until ${t.delayed_post_at}.`,
      canView: false,
    };
  if (t.lock_at !== null && t.lock_at <= now)
    return {
      info: { asset_string: asset, lock_at: t.lock_at, can_view: true },
      explanation: `This topic was locked ${t.lock_at}.`,
      canView: true,
    };
  if (t.locked === 1)
    return { info: { asset_string: asset, can_view: true }, explanation: 'This topic is locked.', canView: true };
  return undefined;
}

/** When the topic posted: a delayed one posts at its delayed_post_at, with no write at that moment. */
export function postedAt(t: TopicRow, now: string): string | null {
  if (t.workflow_state === 'unpublished' || isDelayed(t, now)) return null;
  return t.posted_at ?? t.delayed_post_at;
}

export function topicJson(ctx: MockCtx, p: Place, t: TopicRow): Topic {
  const now = ctx.now();
  const me = ctx.caller.id;
  // What was posted in a topic the caller may not read yet (delayed) is hidden, its count too.
  const posts = topicAccess(ctx, p, t).posts;
  const counts = posts ? entryCounts(ctx.db, t.id, me) : { total: 0, unread: 0 };
  const participant = participantOf(ctx.db, t.id, me);
  const hold = subscriptionHold(ctx, p, t);
  const locked = isLocked(t, now);
  const lock = p.moderate ? undefined : lockOf(t, now);
  const lockedForUser = lock !== undefined;
  const author = t.user_id === null ? undefined : userById(ctx.db, t.user_id);
  const children = childTopics(ctx.db, t.id);
  const mine = p.moderate || !p.course ? undefined : new Set(groupsOfUser(ctx.db, me, p.course.id));
  const own = t.user_id === me;
  const url = `${ctx.origin}/${p.path}/discussion_topics/${t.id}`;
  const assignment = t.assignment_id === null ? undefined : assignmentById(ctx.db, t.assignment_id);
  const json: Topic = {
    id: t.id,
    title: t.title,
    message: lock && !lock.canView ? lock.explanation : t.message,
    html_url: url,
    url,
    posted_at: postedAt(t, now),
    last_reply_at: posts ? t.last_reply_at : null,
    created_at: t.created_at,
    require_initial_post: t.require_initial_post === 1,
    user_can_see_posts: t.require_initial_post === 0 || p.moderate || hasPostedIn(ctx, p, t),
    discussion_subentry_count: counts.total,
    read_state: (participant?.read_state ?? (own ? 'read' : 'unread')) as Topic['read_state'],
    unread_count: counts.unread,
    subscribed: !hold && participant?.subscribed === 1,
    assignment_id: t.assignment_id,
    delayed_post_at: t.delayed_post_at,
    published: t.workflow_state !== 'unpublished',
    can_unpublish: p.moderate && counts.total === 0,
    lock_at: t.lock_at,
    locked,
    can_lock: p.moderate,
    pinned: t.pinned === 1,
    locked_for_user: lockedForUser,
    user_name: author?.name ?? null,
    author: userDisplay(ctx, t.user_id),
    topic_children: children.filter((c) => !mine || mine.has(c.group_id)).map((c) => c.id),
    group_topic_children: children.filter((c) => !mine || mine.has(c.group_id)),
    root_topic_id: t.root_topic_id,
    podcast_url: t.podcast_enabled === 1 ? `${ctx.origin}/feeds/topics/${t.id}/user_${me}.rss` : null,
    podcast_has_student_posts: t.podcast_has_student_posts === 1,
    discussion_type: t.discussion_type as Topic['discussion_type'],
    position: t.position,
    is_announcement: t.is_announcement === 1,
    group_category_id: t.group_category_id,
    is_section_specific: t.context_type === 'Course' && topicSections(ctx.db, t.id).length > 0,
    attachments: [],
    permissions: {
      attach: p.post && !lockedForUser,
      update: p.moderate || (own && p.post),
      delete: p.moderate || (own && p.post),
      reply: p.post && !lockedForUser,
    },
  };
  if (hold) json.subscription_hold = hold;
  if (assignment) json.assignment = assignmentJson(ctx, assignment);
  if (lock) {
    json.lock_info = lock.info;
    json.lock_explanation = lock.explanation;
  }
  return json;
}

interface ReadStates {
  get(id: number): { read_state: string; forced: number } | undefined;
}

function entryJson(ctx: MockCtx, e: EntryRow, states: ReadStates): Entry {
  const state = states.get(e.id);
  const json: Entry = {
    id: e.id,
    parent_id: e.parent_id,
    created_at: e.created_at,
    updated_at: e.updated_at,
    read_state: (state?.read_state ?? 'unread') as Entry['read_state'],
    forced_read_state: state?.forced === 1,
  };
  if (e.editor_id !== null) json.editor_id = e.editor_id;
  if (e.workflow_state === 'deleted') return { ...json, deleted: true };
  json.user_id = e.user_id;
  json.user_name = userById(ctx.db, e.user_id)?.name;
  json.message = e.message;
  const attachment = e.attachment_id === null ? undefined : attachmentById(ctx.db, e.attachment_id);
  if (attachment) {
    const a = attachmentJson(ctx, attachment) as Entry['attachment'] & object;
    json.attachment = a;
    json.attachments = [a];
  }
  return json;
}

/** A page's entries with their read state for the caller, read in one query. */
function presentEntries(ctx: MockCtx, rows: EntryRow[], withReplies: boolean): Entry[] {
  const replies = new Map(rows.map((e) => [e.id, withReplies ? recentReplies(ctx.db, e.id, RECENT_REPLIES + 1) : []]));
  const ids = rows.flatMap((e) => [e.id, ...replies.get(e.id)!.map((r) => r.id)]);
  const states = entryStatesOf(ctx.db, ids, ctx.caller.id);
  return rows.map((e) => {
    const json = entryJson(ctx, e, states);
    const recent = replies.get(e.id)!;
    if (recent.length) {
      json.recent_replies = recent.slice(0, RECENT_REPLIES).map((r) => entryJson(ctx, r, states));
      json.has_more_replies = recent.length > RECENT_REPLIES;
    }
    return json;
  });
}

export function oneEntry(ctx: MockCtx, e: EntryRow): Entry {
  return entryJson(ctx, e, entryStatesOf(ctx.db, [e.id], ctx.caller.id));
}

/** Pages of entries: each page's rows presented together (one read-state query a page). */
export function paginateEntries(ctx: MockCtx, query: Parameters<typeof keysetSource>[1], withReplies: boolean): Reply {
  const reply = paginate(ctx, keysetSource<EntryRow>(ctx.db, query), (row) => row);
  return new Reply(reply.status, presentEntries(ctx, reply.body as EntryRow[], withReplies), reply.headers);
}

// Where a discussion request is (a course, a group, a collection item), and what the caller may see
// and do there: the topics visible to them, their sections, the holds on their subscriptions.
import type { SubscriptionHold } from '../../../spec/vocabulary.js';
import { HttpError, notFound, numericId, once, type MockCtx, type ResolvedContext } from '../../kit.js';
import { find, findCourse } from '../lookup.js';
import { permit } from '../access.js';
import { sectionsOfUserInCourse } from '../../school/enrollments/repo.js';
import { childTopics, hasPosted, topicSections, topicInContext, type TopicRow } from './repo.js';
import { rightsIn, type Place } from './policy.js';
import { observeesIn } from '../../school/enrollments/repo.js';
import { groups, groupsOfUser } from '../groups/repo.js';

/** recent_replies per top-level entry in the entries list. */
export const RECENT_REPLIES = 10;

/** Entry attachments up to this size are always accepted; larger ones count against the poster's quota. */
export const FREE_ATTACHMENT_BYTES = 1024;

/** Each user's file quota (the spec leaves its size open; small, so that it can be reached). */
export const USER_QUOTA_BYTES = 1024 * 1024;

export const FORBIDDEN_DRAFT = 'You do not have permission to set this topic to draft state.';

// ---- where, and who may do what there ---------------------------------------------------------

/** The context of a `{tctx}` route as the pipeline found it, or of a listing route from its path. */
function contextOf(ctx: MockCtx): ResolvedContext {
  if (ctx.context) return ctx.context;
  if (ctx.path.course_id !== undefined) {
    const record = findCourse(ctx, ctx.path.course_id);
    return { type: 'course', id: record.id, record };
  }
  if (ctx.path.group_id !== undefined) {
    const record = find(ctx, groups, ctx.path.group_id);
    return { type: 'group', id: record.id, record };
  }
  throw notFound();
}

/** The route's context and what the caller may do in it, once per request. */
export function place(ctx: MockCtx): Place {
  return once(ctx, 'discussions:place', () => placeIn(ctx, contextOf(ctx)));
}

/** What the caller may do in a context (the policy's rights; 404 for a context that has no forum). */
export function placeIn(ctx: MockCtx, c: ResolvedContext): Place {
  const p = rightsIn(ctx, c);
  if (!p) throw notFound();
  return p;
}

export const isDelayed = (t: TopicRow, now: string) => t.delayed_post_at !== null && t.delayed_post_at > now;

/**
 * What the caller may see of a topic: that it exists (`shown`: it is listed, and answers by id), and
 * what was posted in it (`posts`: its entries, replies and view, and with them its read state and
 * subscription). The one rule every reader of a topic goes through — the topic routes, the entry
 * routes, the per-user state, the activity stream and the notices about it:
 * - who moderates the context (teachers, TAs, designers, admins over it) sees everything;
 * - a draft, and a topic for sections the caller is in none of, are not shown;
 * - a delayed topic is shown without its message until it posts, and nothing posted in it can be
 *   read; a delayed announcement is not shown at all until it posts (then it enters the streams);
 * - a topic locked for replies stays readable.
 */
export interface TopicAccess {
  shown: boolean;
  posts: boolean;
}

export function topicAccess(ctx: MockCtx, p: Place, t: TopicRow): TopicAccess {
  if (!p.read || t.workflow_state === 'deleted') return { shown: false, posts: false };
  if (p.moderate) return { shown: true, posts: true };
  if (t.workflow_state === 'unpublished' || !inTopicSections(ctx, p, t)) return { shown: false, posts: false };
  if (isDelayed(t, ctx.now())) return { shown: t.is_announcement === 0, posts: false };
  return { shown: true, posts: true };
}

/** The caller's sections in the topic's course (an observer's are those of the students they observe there). */
export function callerSections(ctx: MockCtx, p: Place): number[] {
  return once(ctx, 'discussions:sections', () =>
    p.course ? sectionsOfUserInCourse(ctx.db, ctx.caller.id, p.course.id) : [],
  );
}

/** Is the topic for the whole course, or for a section the caller is in? */
function inTopicSections(ctx: MockCtx, p: Place, t: TopicRow): boolean {
  if (t.context_type !== 'Course') return true;
  const sections = topicSections(ctx.db, t.id);
  if (!sections.length) return true;
  const mine = new Set(callerSections(ctx, p));
  return sections.some((s) => mine.has(s));
}

/** A live topic of the route's context that the caller may see (see topicAccess); 404 for one they may not. */
export function visibleTopic(ctx: MockCtx, raw = ctx.path.topic_id): { p: Place; t: TopicRow } {
  const p = place(ctx);
  // Those who cannot read the context learn nothing of its topics, not even which exist.
  permit(p.read);
  const id = numericId(raw);
  const t = id === undefined ? undefined : topicInContext(ctx.db, p.type, p.id, id);
  if (!t || !topicAccess(ctx, p, t).shown) throw notFound();
  return { p, t };
}

/**
 * A topic whose posts the caller may read, and so keep read state and a subscription of: a topic
 * shown but not yet posted answers 401 (unauthorized, as real instances refuse reading its replies).
 */
export function readableTopic(ctx: MockCtx): { p: Place; t: TopicRow } {
  const { p, t } = visibleTopic(ctx);
  permit(topicAccess(ctx, p, t).posts);
  return { p, t };
}

/** The topic and, for a root topic of a group discussion, the group topics the caller takes part in. */
export function topicIdsOf(ctx: MockCtx, p: Place, t: TopicRow): number[] {
  return once(ctx, `discussions:ids:${t.id}`, () => {
    const children = childTopics(ctx.db, t.id);
    if (!children.length) return [t.id];
    if (p.moderate) return [t.id, ...children.map((c) => c.id)];
    const mine = new Set(p.course ? groupsOfUser(ctx.db, ctx.caller.id, p.course.id) : []);
    return [t.id, ...children.filter((c) => mine.has(c.group_id)).map((c) => c.id)];
  });
}

/** Has the caller (or, for an observer, a student they observe) posted in the topic? */
export function hasPostedIn(ctx: MockCtx, p: Place, t: TopicRow): boolean {
  return once(ctx, `discussions:posted:${t.id}`, () => {
    const users = [ctx.caller.id, ...(p.course ? observeesIn(ctx.db, ctx.caller.id, p.course.id) : [])];
    return hasPosted(ctx.db, [t.id], users);
  });
}

/** The before-filter of require_initial_post: 403 with the bare word as body. Moderators pass. */
export function requireInitialPost(ctx: MockCtx, p: Place, t: TopicRow): void {
  if (t.require_initial_post === 1 && !p.moderate && !hasPostedIn(ctx, p, t)) {
    throw new HttpError(403, 'require_initial_post', { 'content-type': 'application/json; charset=utf-8' });
  }
}

export function subscriptionHold(ctx: MockCtx, p: Place, t: TopicRow): SubscriptionHold | undefined {
  if (t.is_announcement === 1) return 'topic_is_announcement';
  if (t.require_initial_post === 1 && !p.moderate && !hasPostedIn(ctx, p, t)) return 'initial_post_required';
  // As real instances do, the group holds apply to moderators too: a teacher is in no group.
  if (
    p.type === 'Course' &&
    p.course &&
    childTopics(ctx.db, t.id).length > 0 &&
    groupsOfUser(ctx.db, ctx.caller.id, p.course.id).length === 0
  )
    return 'not_in_group_set';
  if (p.type === 'Group' && !p.member) return 'not_in_group';
  return undefined;
}

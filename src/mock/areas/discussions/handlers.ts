// Discussion topics and announcements in courses, groups and collection items: topics with every
// per-user field computed from state (read state, unread counts, subscriptions and their holds,
// locks, drafts, delayed posting, group children), entries and replies (side_comment allows one
// level), require_initial_post, read state and subscriptions per user, and the full topic view,
// whose cached structure is unavailable (503) for a while after each write.
import type { Entry, FullTopicView, Topic, UserDisplay, ViewEntry } from '../../../spec/types/discussions.js';
import { DISCUSSION_TYPES, type SubscriptionHold } from '../../../spec/vocabulary.js';
import {
  bool,
  created,
  crypto,
  file,
  HttpError,
  invalid,
  keysetSource,
  list,
  noContent,
  notFound,
  numericId,
  obj,
  once,
  paginate,
  Reply,
  str,
  timestamp,
  type Handler,
  type MockCtx,
  type ResolvedContext,
} from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { find, findCourse } from '../lookup.js';
import { permit } from '../access.js';
import { assignmentJson } from '../assignments/present.js';
import { assignmentById, createAssignment, deleteAssignment } from '../assignments/repo.js';
import { courseById } from '../../school/courses/repo.js';
import { sectionsOfUserInCourse } from '../../school/enrollments/repo.js';
import { sectionById } from '../../school/sections/repo.js';
import { safeFileName } from '../files/upload.js';
import { attachmentJson } from '../files/present.js';
import { attachmentById, createPendingAttachment, makeAvailable, storeUpload } from '../files/repo.js';
import { userById } from '../../school/users/repo.js';
import { contentTypeFor } from '../../../mime.js';
import {
  childTopics,
  setTopicGroupSet,
  countFound,
  createEntry,
  createTopic,
  deleteEntry,
  deleteTopic,
  entriesAfter,
  entryById,
  entryCounts,
  entryListQuery,
  entryStatesOf,
  hasPosted,
  markViewedRead,
  moveTopicAfter,
  participantOf,
  recentReplies,
  recordReply,
  rootEntriesOf,
  repliesQuery,
  saveViewSnapshot,
  setAllEntriesRead,
  setEntryRead,
  setSubscribed,
  setTopicRead,
  setTopicSections,
  topicSections,
  subscribeUnlessChosen,
  threadOf,
  topicById,
  topicInContext,
  topicsQuery,
  topLevelEntriesQuery,
  touchThread,
  updateEntryMessage,
  updateTopic,
  viewSnapshot,
  type EntryRow,
  type TopicFields,
  type TopicRow,
} from './repo.js';
import {
  isLocked,
  mayCreateTopic,
  mayEditEntry,
  mayEditTopic,
  mayGradeTopic,
  mayPostIn,
  rightsIn,
  type Place,
} from './policy.js';
import { observeesIn } from '../../school/enrollments/repo.js';
import { userFileBytes } from '../files/repo.js';
import { groupCategoryOfCourse, groups, groupsOfCategory, groupsOfUser } from '../groups/repo.js';
import type { StreamPresenter } from '../../area.js';
import { announcementNotice, audienceOf } from '../activity/notifications.js';
import { moveStreamItems, publishStreamItem, type StreamContext } from '../activity/repo.js';

/** recent_replies per top-level entry in the entries list. */
const RECENT_REPLIES = 10;
/** Entry attachments up to this size are always accepted; larger ones count against the poster's quota. */
const FREE_ATTACHMENT_BYTES = 1024;
/** Each user's file quota (the spec leaves its size open; small, so that it can be reached). */
const USER_QUOTA_BYTES = 1024 * 1024;

const FORBIDDEN_DRAFT = 'You do not have permission to set this topic to draft state.';

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
function place(ctx: MockCtx): Place {
  return once(ctx, 'discussions:place', () => placeIn(ctx, contextOf(ctx)));
}

/** What the caller may do in a context (the policy's rights; 404 for a context that has no forum). */
function placeIn(ctx: MockCtx, c: ResolvedContext): Place {
  const p = rightsIn(ctx, c);
  if (!p) throw notFound();
  return p;
}

const isDelayed = (t: TopicRow, now: string) => t.delayed_post_at !== null && t.delayed_post_at > now;

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
interface TopicAccess {
  shown: boolean;
  posts: boolean;
}

function topicAccess(ctx: MockCtx, p: Place, t: TopicRow): TopicAccess {
  if (!p.read || t.workflow_state === 'deleted') return { shown: false, posts: false };
  if (p.moderate) return { shown: true, posts: true };
  if (t.workflow_state === 'unpublished' || !inTopicSections(ctx, p, t)) return { shown: false, posts: false };
  if (isDelayed(t, ctx.now())) return { shown: t.is_announcement === 0, posts: false };
  return { shown: true, posts: true };
}

/** The caller's sections in the topic's course (an observer's are those of the students they observe there). */
function callerSections(ctx: MockCtx, p: Place): number[] {
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
function visibleTopic(ctx: MockCtx, raw = ctx.path.topic_id): { p: Place; t: TopicRow } {
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
function readableTopic(ctx: MockCtx): { p: Place; t: TopicRow } {
  const { p, t } = visibleTopic(ctx);
  permit(topicAccess(ctx, p, t).posts);
  return { p, t };
}

/** The topic and, for a root topic of a group discussion, the group topics the caller takes part in. */
function topicIdsOf(ctx: MockCtx, p: Place, t: TopicRow): number[] {
  return once(ctx, `discussions:ids:${t.id}`, () => {
    const children = childTopics(ctx.db, t.id);
    if (!children.length) return [t.id];
    if (p.moderate) return [t.id, ...children.map((c) => c.id)];
    const mine = new Set(p.course ? groupsOfUser(ctx.db, ctx.caller.id, p.course.id) : []);
    return [t.id, ...children.filter((c) => mine.has(c.group_id)).map((c) => c.id)];
  });
}

/** Has the caller (or, for an observer, a student they observe) posted in the topic? */
function hasPostedIn(ctx: MockCtx, p: Place, t: TopicRow): boolean {
  return once(ctx, `discussions:posted:${t.id}`, () => {
    const users = [ctx.caller.id, ...(p.course ? observeesIn(ctx.db, ctx.caller.id, p.course.id) : [])];
    return hasPosted(ctx.db, [t.id], users);
  });
}

/** The before-filter of require_initial_post: 403 with the bare word as body. Moderators pass. */
function requireInitialPost(ctx: MockCtx, p: Place, t: TopicRow): void {
  if (t.require_initial_post === 1 && !p.moderate && !hasPostedIn(ctx, p, t)) {
    throw new HttpError(403, 'require_initial_post', { 'content-type': 'application/json; charset=utf-8' });
  }
}

function subscriptionHold(ctx: MockCtx, p: Place, t: TopicRow): SubscriptionHold | undefined {
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

// ---- presenters -------------------------------------------------------------------------------

function userDisplay(ctx: MockCtx, userId: number | null): UserDisplay | Record<string, never> {
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
function postedAt(t: TopicRow, now: string): string | null {
  if (t.workflow_state === 'unpublished' || isDelayed(t, now)) return null;
  return t.posted_at ?? t.delayed_post_at;
}

function topicJson(ctx: MockCtx, p: Place, t: TopicRow): Topic {
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

function oneEntry(ctx: MockCtx, e: EntryRow): Entry {
  return entryJson(ctx, e, entryStatesOf(ctx.db, [e.id], ctx.caller.id));
}

/** Pages of entries: each page's rows presented together (one read-state query a page). */
function paginateEntries(ctx: MockCtx, query: Parameters<typeof keysetSource>[1], withReplies: boolean): Reply {
  const reply = paginate(ctx, keysetSource<EntryRow>(ctx.db, query), (row) => row);
  return new Reply(reply.status, presentEntries(ctx, reply.body as EntryRow[], withReplies), reply.headers);
}

// ---- topics -----------------------------------------------------------------------------------

const listTopics: Handler = (ctx) => {
  const p = place(ctx);
  permit(p.read);
  const orderBy = str(ctx.params, 'order_by') ?? 'position';
  if (orderBy !== 'position' && orderBy !== 'recent_activity')
    throw invalid(undefined, 'order_by', 'inclusion', 'must be position or recent_activity');
  const scope = str(ctx.params, 'scope');
  if (scope !== undefined && scope !== 'locked' && scope !== 'unlocked')
    throw invalid(undefined, 'scope', 'inclusion', 'must be locked or unlocked');
  const query = topicsQuery({
    contextType: p.type,
    contextId: p.id,
    announcements: bool(ctx.params, 'only_announcements') ?? false,
    moderator: p.moderate,
    sections: p.moderate ? [] : callerSections(ctx, p),
    now: ctx.now(),
    term: str(ctx.params, 'search_term')?.trim() || undefined,
    orderBy,
  });
  // The query leaves out what the caller may not see; the rule itself has the last word on each row.
  const reply = paginate(ctx, keysetSource<TopicRow>(ctx.db, query), (t) =>
    topicAccess(ctx, p, t).shown ? topicJson(ctx, p, t) : undefined,
  );
  const shown = (reply.body as (Topic | undefined)[]).filter((t): t is Topic => t !== undefined);
  // As real instances do, the scope filters each page after paging: a page may come out smaller.
  const topics = scope ? shown.filter((t) => t.locked === (scope === 'locked')) : shown;
  return new Reply(reply.status, topics, reply.headers);
};

/** The topic fields of a create (no current topic) or an update, checked; nothing is written here. */
function topicFields(
  ctx: MockCtx,
  p: Place,
  current?: TopicRow,
): { fields: TopicFields; assignment: 'keep' | 'remove' | Record<string, unknown> } {
  const params = ctx.params;
  const now = ctx.now();
  const titleRaw = str(params, 'title');
  const title = titleRaw === undefined ? (current?.title ?? 'No Title') : titleRaw.trim() || 'No Title';
  checkText(text(), title, undefined, 'title');
  const type = str(params, 'discussion_type') ?? current?.discussion_type ?? 'side_comment';
  if (!(DISCUSSION_TYPES as readonly string[]).includes(type))
    throw invalid(undefined, 'discussion_type', 'inclusion', `must be ${DISCUSSION_TYPES.join(' or ')}`);
  const announcement = current
    ? current.is_announcement === 1
    : (bool(params, 'is_announcement') ?? false) && p.announce;
  const publishedParam = bool(params, 'published');
  if (publishedParam === false && !p.moderate) throw new HttpError(400, { errors: { published: FORBIDDEN_DRAFT } });
  let published: boolean;
  if (announcement) published = true;
  else if (publishedParam !== undefined) published = publishedParam;
  else published = current ? current.workflow_state !== 'unpublished' : !p.moderate;
  if (
    current &&
    !published &&
    current.workflow_state !== 'unpublished' &&
    entryCounts(ctx.db, current.id, ctx.caller.id).total > 0
  ) {
    throw new HttpError(400, {
      errors: { published: 'This topic cannot be set to draft state because it contains posts.' },
    });
  }
  const cleared = (name: string) => str(params, name) === '';
  const delayed = cleared('delayed_post_at')
    ? null
    : (timestamp(params, 'delayed_post_at') ?? current?.delayed_post_at ?? null);
  const lockAt = cleared('lock_at') ? null : (timestamp(params, 'lock_at') ?? current?.lock_at ?? null);
  if (delayed && lockAt && lockAt < delayed)
    throw invalid(undefined, 'lock_at', 'invalid', 'must be after delayed_post_at');
  const flag = (name: string, was: number | undefined, allowed = true) => {
    const v = allowed ? bool(params, name) : undefined;
    return v === undefined ? (was ?? 0) : Number(v);
  };
  const studentPosts = flag('podcast_has_student_posts', current?.podcast_has_student_posts, p.moderate);
  // A topic posts when its delay ends, so a delay set (or kept) ahead makes it unposted again and the
  // old posted_at goes; one whose delay has already passed keeps the time it posted at.
  let posted = current ? postedAt(current, now) : null;
  if (!published || (delayed && delayed > now)) posted = null;
  else posted ??= now;
  const a = obj(params, 'assignment');
  let assignment: 'keep' | 'remove' | Record<string, unknown> = 'keep';
  if (Object.keys(a).length) {
    if (bool(a, 'set_assignment') === false) assignment = 'remove';
    else {
      permit(mayGradeTopic(ctx, p));
      assignment = a;
    }
  }
  return {
    fields: {
      title,
      message: str(params, 'message') ?? current?.message ?? '',
      discussion_type: type,
      workflow_state: published ? 'active' : 'unpublished',
      is_announcement: announcement ? 1 : 0,
      require_initial_post: flag('require_initial_post', current?.require_initial_post),
      pinned: flag('pinned', current?.pinned, p.moderate),
      locked: flag('locked', current?.locked, p.moderate),
      podcast_enabled: studentPosts ? 1 : flag('podcast_enabled', current?.podcast_enabled, p.moderate),
      podcast_has_student_posts: studentPosts,
      delayed_post_at: delayed,
      lock_at: lockAt,
      posted_at: posted,
      assignment_id: current?.assignment_id ?? null,
    },
    assignment,
  };
}

/** Creates, keeps or removes the topic's assignment, as the request's `assignment` asks. */
function applyAssignment(
  ctx: MockCtx,
  p: Place,
  fields: TopicFields,
  wanted: 'keep' | 'remove' | Record<string, unknown>,
): void {
  if (wanted === 'keep') return;
  if (wanted === 'remove') {
    if (fields.assignment_id !== null) deleteAssignment(ctx.db, fields.assignment_id, ctx.now());
    fields.assignment_id = null;
    return;
  }
  const a = wanted as Parameters<typeof str>[0];
  const existing = str(a, 'id');
  if (existing !== undefined) {
    // Grading by an assignment the course already has.
    const id = numericId(existing);
    const row = id === undefined ? undefined : assignmentById(ctx.db, id);
    if (!row || row.course_id !== p.course!.id)
      throw invalid('assignment', 'id', 'invalid', `no assignment ${existing} in this course`);
    fields.assignment_id = row.id;
    return;
  }
  if (fields.assignment_id !== null) return;
  const pointsRaw = str(a, 'points_possible');
  const points = pointsRaw === undefined || pointsRaw === '' ? 0 : Number(pointsRaw);
  if (!Number.isFinite(points) || points < 0)
    throw invalid('assignment', 'points_possible', 'invalid', 'must be a number greater than or equal to 0');
  fields.assignment_id = createAssignment(ctx.db, {
    course: p.course!.id,
    // Its name is the topic's title, whatever the request says.
    name: fields.title,
    description: fields.message,
    points,
    gradingType: str(a, 'grading_type') ?? 'points',
    submissionTypes: ['discussion_topic'],
    dueAt: timestamp(a, 'due_at') ?? null,
    published: fields.workflow_state === 'active',
    now: ctx.now(),
  });
}

/**
 * `group_category_id`: a course topic split into a topic for each group of one of the course's group
 * sets, as real instances make a group discussion. It can be set, changed or cleared ('') while no
 * one has posted in it; a group's topic and an announcement cannot have one.
 */
function applyGroupSet(ctx: MockCtx, p: Place, topic: TopicRow): void {
  const raw = str(ctx.params, 'group_category_id');
  if (raw === undefined) return;
  const wanted = raw === '' ? null : numericId(raw);
  if (wanted === topic.group_category_id) return;
  if (p.type !== 'Course' || topic.is_announcement === 1)
    throw invalid(undefined, 'group_category_id', 'invalid', 'only a course discussion can be split by a group set');
  if (wanted === undefined || (wanted !== null && !groupCategoryOfCourse(ctx.db, wanted, p.course!.id))) {
    throw invalid(undefined, 'group_category_id', 'invalid', `no group set ${raw} in this course`);
  }
  const children = childTopics(ctx.db, topic.id);
  if ([topic.id, ...children.map((c) => c.id)].some((id) => entryCounts(ctx.db, id, ctx.caller.id).total > 0)) {
    throw invalid(undefined, 'group_category_id', 'invalid', 'the group set cannot change once someone has posted');
  }
  const now = ctx.now();
  for (const child of children) deleteTopic(ctx.db, child.id, now);
  setTopicGroupSet(ctx.db, topic.id, wanted, now);
  if (wanted === null) return;
  const { id: _id, context_type: _type, context_id: _context, position: _position, ...fields } = topic;
  for (const group of groupsOfCategory(ctx.db, wanted)) {
    createTopic(ctx.db, {
      ...fields,
      user_id: topic.user_id ?? ctx.caller.id,
      assignment_id: null,
      context_type: 'Group',
      context_id: group,
      root_topic_id: topic.id,
      now,
    });
  }
}

/**
 * `specific_sections`: `all` (the whole course), or a comma-separated list of the course's section
 * ids the topic is for; only moderators of a course (non-group) topic set it.
 */
function applySections(ctx: MockCtx, p: Place, topic: TopicRow): void {
  const raw = str(ctx.params, 'specific_sections');
  if (raw === undefined) return;
  if (raw.trim() === 'all' || raw.trim() === '') {
    setTopicSections(ctx.db, topic.id, []);
    return;
  }
  if (!p.moderate)
    throw invalid(
      undefined,
      'specific_sections',
      'invalid',
      'only who moderates the course may make a topic section-specific',
    );
  if (p.type !== 'Course' || topic.group_category_id !== null)
    throw invalid(
      undefined,
      'specific_sections',
      'invalid',
      'only a course topic without a group set can be section-specific',
    );
  const ids = raw.split(',').map((part) => numericId(part.trim()));
  for (const [i, id] of ids.entries()) {
    const section = id === undefined ? undefined : sectionById(ctx.db, id);
    if (!section || section.course_id !== p.course!.id || section.workflow_state === 'deleted') {
      throw invalid(
        undefined,
        'specific_sections',
        'invalid',
        `no section ${raw.split(',')[i]!.trim()} in this course`,
      );
    }
  }
  setTopicSections(ctx.db, topic.id, ids as number[]);
}

function positionAfter(ctx: MockCtx, p: Place, topic: TopicRow): void {
  const raw = str(ctx.params, 'position_after');
  if (raw === undefined || raw === '') return;
  const id = numericId(raw);
  const after = id === undefined ? undefined : topicInContext(ctx.db, p.type, p.id, id);
  if (!after) throw invalid(undefined, 'position_after', 'invalid', `no topic ${raw} in this context`);
  if (after.id !== topic.id) moveTopicAfter(ctx.db, topic, after);
}

const createTopicHandler: Handler = (ctx) => {
  const p = place(ctx);
  permit(mayCreateTopic(p));
  const { fields, assignment } = topicFields(ctx, p);
  applyAssignment(ctx, p, fields, assignment);
  const now = ctx.now();
  const id = createTopic(ctx.db, { ...fields, context_type: p.type, context_id: p.id, user_id: ctx.caller.id, now });
  positionAfter(ctx, p, topicById(ctx.db, id)!);
  applyGroupSet(ctx, p, topicById(ctx.db, id)!);
  applySections(ctx, p, topicById(ctx.db, id)!);
  // The author has read their own topic and follows it.
  setTopicRead(ctx.db, id, ctx.caller.id, 'read');
  if (!fields.is_announcement) setSubscribed(ctx.db, id, ctx.caller.id, true);
  const topic = topicById(ctx.db, id)!;
  publishTopic(ctx, topic, ctx.caller.id);
  const context = streamContextOf(topic);
  if (topic.is_announcement === 1 && topic.workflow_state === 'active' && context) {
    announcementNotice(
      ctx.db,
      {
        id: topic.id,
        context,
        title: topic.title,
        path: `/${p.path}/discussion_topics/${topic.id}`,
        author: ctx.caller.id,
      },
      postsAt(ctx, topic),
    );
  }
  return topicJson(ctx, p, topic);
};

function editableTopic(ctx: MockCtx): { p: Place; t: TopicRow } {
  const { p, t } = visibleTopic(ctx);
  permit(mayEditTopic(ctx, p, t));
  return { p, t };
}

const updateTopicHandler: Handler = (ctx) => {
  const { p, t } = editableTopic(ctx);
  const { fields, assignment } = topicFields(ctx, p, t);
  applyAssignment(ctx, p, fields, assignment);
  updateTopic(ctx.db, t.id, fields, ctx.now());
  positionAfter(ctx, p, topicById(ctx.db, t.id)!);
  // A group discussion's topics follow their root: what it says, how it runs, when it opens and locks.
  for (const child of childTopics(ctx.db, t.id))
    updateTopic(ctx.db, child.id, { ...fields, assignment_id: null }, ctx.now());
  applyGroupSet(ctx, p, topicById(ctx.db, t.id)!);
  applySections(ctx, p, topicById(ctx.db, t.id)!);
  // Published now: it reaches the streams as if new.
  if (t.workflow_state === 'unpublished' && topicById(ctx.db, t.id)!.workflow_state === 'active')
    publishTopic(ctx, topicById(ctx.db, t.id)!, ctx.caller.id);
  // Not posted yet, and its post time moved: its stream items and notices move with it, to enter the streams then.
  else if (
    t.workflow_state === 'active' &&
    isDelayed(t, ctx.now()) &&
    topicById(ctx.db, t.id)!.delayed_post_at !== t.delayed_post_at
  ) {
    moveStreamItems(
      ctx.db,
      { type: t.is_announcement === 1 ? 'Announcement' : 'DiscussionTopic', id: t.id },
      postsAt(ctx, topicById(ctx.db, t.id)!),
    );
  }
  touchThread(ctx.db, t.id, staleUntil(ctx));
  return topicJson(ctx, p, topicById(ctx.db, t.id)!);
};

const deleteTopicHandler: Handler = (ctx) => {
  const { t } = editableTopic(ctx);
  const now = ctx.now();
  deleteTopic(ctx.db, t.id, now);
  if (t.assignment_id !== null) deleteAssignment(ctx.db, t.assignment_id, now);
  const author = t.user_id === null ? undefined : userById(ctx.db, t.user_id);
  const model = {
    id: t.id,
    title: t.title,
    message: t.message,
    context_type: t.context_type,
    context_id: t.context_id,
    user_id: t.user_id,
    discussion_type: t.discussion_type,
    position: t.position,
    assignment_id: null,
    root_topic_id: t.root_topic_id,
    workflow_state: 'deleted',
    deleted_at: now,
    created_at: t.created_at,
    updated_at: now,
    user: author ? { id: author.id, name: author.name } : null,
  };
  // The model with its root key, as real instances answer; deleted_at on top too, where clients look for it.
  return { discussion_topic: model, deleted_at: now };
};

const getTopic: Handler = (ctx) => {
  const { p, t } = visibleTopic(ctx);
  return topicJson(ctx, p, t);
};

// ---- entries ----------------------------------------------------------------------------------

function staleUntil(ctx: MockCtx): number {
  const rebuild = ctx.viewRebuild;
  return rebuild && rebuild.delayMs > 0 ? rebuild.wallClock() + rebuild.delayMs : 0;
}

/** An entry of the topic (or of its group topics the caller takes part in). */
function entryOf(ctx: MockCtx, p: Place, t: TopicRow, raw: string, options: { live: boolean }): EntryRow {
  const id = numericId(raw);
  const e = id === undefined ? undefined : entryById(ctx.db, id);
  if (!e || !topicIdsOf(ctx, p, t).includes(e.topic_id) || (options.live && e.workflow_state === 'deleted'))
    throw notFound();
  return e;
}

/** Entries can be posted where the caller may post and the topic is not locked for them. */
function postable(ctx: MockCtx): { p: Place; t: TopicRow } {
  const { p, t } = readableTopic(ctx);
  permit(mayPostIn(ctx, p, t));
  return { p, t };
}

function post(ctx: MockCtx, t: TopicRow, parent?: EntryRow): Reply {
  const message = str(ctx.params, 'message') ?? '';
  const upload = file(ctx.params, 'attachment');
  if (!message.trim() && !upload) throw invalid(undefined, 'message', 'blank', "can't be blank");
  const now = ctx.now();
  let attachment: number | null = null;
  if (upload) {
    // Larger files count against the poster's quota, as real instances do.
    if (
      upload.data.byteLength > FREE_ATTACHMENT_BYTES &&
      userFileBytes(ctx.db, ctx.caller.id) + upload.data.byteLength > USER_QUOTA_BYTES
    ) {
      throw new HttpError(400, { errors: { base: 'User storage quota exceeded' } });
    }
    attachment = storeEntryAttachment(ctx, upload.filename, upload.contentType, upload.data, now);
  }
  const id = createEntry(ctx.db, {
    topic: parent?.topic_id ?? t.id,
    user: ctx.caller.id,
    parent,
    message,
    attachment,
    now,
  });
  setEntryRead(ctx.db, id, ctx.caller.id, 'read');
  // Posting subscribes the author, unless they chose otherwise before.
  if (t.is_announcement === 0) subscribeUnlessChosen(ctx.db, parent?.topic_id ?? t.id, ctx.caller.id);
  recordReply(ctx.db, parent?.topic_id ?? t.id, now);
  publishTopic(ctx, topicById(ctx.db, parent?.topic_id ?? t.id)!, ctx.caller.id);
  touchThread(ctx.db, parent?.topic_id ?? t.id, staleUntil(ctx));
  return created(oneEntry(ctx, entryById(ctx.db, id)!));
}

/** An entry's file, stored as the files area stores uploads: in the poster's files, available at once. */
function storeEntryAttachment(
  ctx: MockCtx,
  filename: string,
  contentType: string,
  data: Uint8Array,
  now: string,
): number {
  const name = safeFileName(filename) || 'attachment';
  const type = contentType && contentType !== 'application/octet-stream' ? contentType : contentTypeFor(name);
  const token = crypto().randomUUID().replace(/-/g, '');
  const id = createPendingAttachment(ctx.db, {
    uuid: crypto().randomUUID().replace(/-/g, ''),
    owner: { type: 'User', id: ctx.caller.id },
    folderPath: 'discussion attachments',
    name,
    contentType: type,
    size: data.byteLength,
    onDuplicate: 'rename',
    uploadToken: token,
    now,
  });
  const row = attachmentById(ctx.db, id)!;
  storeUpload(ctx.db, row, data, type, now);
  makeAvailable(ctx.db, id, `${id}-${name}`.slice(0, 255), now);
  return id;
}

const createEntryHandler: Handler = (ctx) => {
  // Posting the initial entry is what require_initial_post asks for: no gate here.
  const { t } = postable(ctx);
  return post(ctx, t);
};

const createReply: Handler = (ctx) => {
  const { p, t } = postable(ctx);
  requireInitialPost(ctx, p, t);
  const parent = entryOf(ctx, p, t, ctx.path.entry_id, { live: true });
  if (t.discussion_type === 'side_comment' && parent.parent_id !== null) {
    throw invalid(
      undefined,
      'parent_id',
      'invalid',
      'a side_comment discussion has one level of replies: reply to the top-level entry',
    );
  }
  return post(ctx, t, parent);
};

const listEntries: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  return paginateEntries(ctx, topLevelEntriesQuery(topicIdsOf(ctx, p, t)), true);
};

const listReplies: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const entry = entryOf(ctx, p, t, ctx.path.entry_id, { live: false });
  if (entry.parent_id !== null) throw notFound();
  return paginateEntries(ctx, repliesQuery(entry.id), false);
};

const entryList: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const raw = list(ctx.params, 'ids').map(String);
  const ids = [...new Set(raw.map((r) => numericId(r)))];
  if (ids.includes(undefined)) throw notFound();
  if (!ids.length) return [];
  const topicIds = topicIdsOf(ctx, p, t);
  if (countFound(ctx.db, topicIds, ids as number[]) !== ids.length) throw notFound();
  return paginateEntries(ctx, entryListQuery(topicIds, ids as number[]), false);
};

function editableEntry(ctx: MockCtx): { p: Place; t: TopicRow; e: EntryRow } {
  const { p, t } = readableTopic(ctx);
  const e = entryOf(ctx, p, t, ctx.path.id, { live: true });
  // Only the author or a moderator of the author's posts; anyone else is answered 401, as the spec says.
  permit(mayEditEntry(ctx, p, e));
  return { p, t, e };
}

const updateEntryHandler: Handler = (ctx) => {
  const { e } = editableEntry(ctx);
  const message = str(ctx.params, 'message');
  if (message === undefined || !message.trim()) throw invalid(undefined, 'message', 'blank', "can't be blank");
  updateEntryMessage(ctx.db, e.id, message, e.user_id === ctx.caller.id ? null : ctx.caller.id, ctx.now());
  touchThread(ctx.db, e.topic_id, staleUntil(ctx));
  return oneEntry(ctx, entryById(ctx.db, e.id)!);
};

const deleteEntryHandler: Handler = (ctx) => {
  const { e } = editableEntry(ctx);
  deleteEntry(ctx.db, e.id, e.user_id === ctx.caller.id ? null : ctx.caller.id, ctx.now());
  touchThread(ctx.db, e.topic_id, staleUntil(ctx));
  return noContent();
};

// ---- read state and subscriptions -------------------------------------------------------------

const forced = (ctx: MockCtx) => bool(ctx.params, 'forced_read_state');

const topicRead =
  (state: 'read' | 'unread'): Handler =>
  (ctx) => {
    const { t } = readableTopic(ctx);
    setTopicRead(ctx.db, t.id, ctx.caller.id, state);
    return noContent();
  };

const allRead =
  (state: 'read' | 'unread'): Handler =>
  (ctx) => {
    const { p, t } = readableTopic(ctx);
    requireInitialPost(ctx, p, t);
    setTopicRead(ctx.db, t.id, ctx.caller.id, state);
    setAllEntriesRead(ctx.db, t.id, ctx.caller.id, state, forced(ctx));
    return noContent();
  };

const entryRead =
  (state: 'read' | 'unread'): Handler =>
  (ctx) => {
    const { p, t } = readableTopic(ctx);
    requireInitialPost(ctx, p, t);
    const e = entryOf(ctx, p, t, ctx.path.entry_id, { live: false });
    setEntryRead(ctx.db, e.id, ctx.caller.id, state, forced(ctx));
    return noContent();
  };

const subscribe: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const hold = subscriptionHold(ctx, p, t);
  if (hold) throw invalid(undefined, 'subscribed', hold, `cannot subscribe to this topic: ${hold}`);
  setSubscribed(ctx.db, t.id, ctx.caller.id, true);
  return noContent();
};

const unsubscribe: Handler = (ctx) => {
  const { t } = readableTopic(ctx);
  setSubscribed(ctx.db, t.id, ctx.caller.id, false);
  return noContent();
};

// ---- the full topic view ----------------------------------------------------------------------

/** What the cache holds of an entry: no URLs (they depend on the origin asked), the attachment by id. */
interface CachedEntry {
  id: number;
  user_id?: number;
  parent_id: number | null;
  created_at: string;
  updated_at: string;
  message?: string;
  editor_id?: number;
  deleted?: boolean;
  attachment_id?: number;
  replies?: CachedEntry[];
}

function cachedEntry(e: EntryRow): CachedEntry {
  const base: CachedEntry = { id: e.id, parent_id: e.parent_id, created_at: e.created_at, updated_at: e.updated_at };
  if (e.editor_id !== null) base.editor_id = e.editor_id;
  if (e.workflow_state === 'deleted') return { ...base, deleted: true };
  return {
    ...base,
    user_id: e.user_id,
    message: e.message,
    ...(e.attachment_id !== null ? { attachment_id: e.attachment_id } : {}),
  };
}

function buildView(entries: EntryRow[]): CachedEntry[] {
  const byId = new Map<number, CachedEntry>();
  const roots: CachedEntry[] = [];
  for (const e of entries) byId.set(e.id, cachedEntry(e));
  for (const e of entries) {
    const node = byId.get(e.id)!;
    const parent = e.parent_id === null ? undefined : byId.get(e.parent_id);
    if (parent) (parent.replies ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

function served(ctx: MockCtx, node: CachedEntry, users: Set<number>): ViewEntry {
  const { attachment_id, replies, ...rest } = node;
  const out: ViewEntry = { ...rest };
  if (rest.user_id !== undefined) users.add(rest.user_id);
  const a = attachment_id === undefined ? undefined : attachmentById(ctx.db, attachment_id);
  if (a) out.attachment = attachmentJson(ctx, a) as ViewEntry['attachment'] & object;
  if (replies) out.replies = replies.map((r) => served(ctx, r, users));
  return out;
}

const viewTopic: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const stale = (ctx.viewRebuild?.wallClock() ?? 0) < t.view_stale_until;
  const withNew = str(ctx.params, 'include_new_entries') === '1' || bool(ctx.params, 'include_new_entries') === true;
  let snapshot = viewSnapshot(ctx.db, t.id);
  if (!stale && snapshot?.version !== t.view_version) {
    const thread = threadOf(ctx.db, t.id);
    snapshot = {
      version: t.view_version,
      max_entry_id: thread.at(-1)?.id ?? 0,
      view: JSON.stringify(buildView(thread)),
    };
    saveViewSnapshot(ctx.db, t.id, snapshot);
  }
  // Being rebuilt after a write: nothing to serve, unless the caller takes the last structure with what came since.
  if (!snapshot || (stale && !withNew)) return new Reply(503, undefined);
  const users = new Set<number>();
  const view = (JSON.parse(snapshot.view) as CachedEntry[]).map((e) => served(ctx, e, users));
  const fresh = withNew
    ? entriesAfter(ctx.db, t.id, snapshot.max_entry_id).map((e) => served(ctx, cachedEntry(e), users))
    : undefined;
  const thread = threadOf(ctx.db, t.id).filter((e) => e.workflow_state === 'active');
  const states = entryStatesOf(
    ctx.db,
    thread.map((e) => e.id),
    ctx.caller.id,
  );
  const json: FullTopicView = {
    participants: [...users]
      .sort((a, b) => a - b)
      .map((id) => userDisplay(ctx, id))
      .filter((u): u is UserDisplay => 'id' in u),
    unread_entries: thread.filter((e) => (states.get(e.id)?.read_state ?? 'unread') === 'unread').map((e) => e.id),
    forced_entries: thread.filter((e) => states.get(e.id)?.forced === 1).map((e) => e.id),
    view,
  };
  if (fresh) json.new_entries = fresh;
  // Viewing marks what was seen as read, unless the user marks by hand (manual_mark_as_read).
  if (ctx.caller.manual_mark_as_read === 0) {
    markViewedRead(ctx.db, t.id, ctx.caller.id);
    setTopicRead(ctx.db, t.id, ctx.caller.id, 'read');
  }
  return json;
};

// ---- the activity stream ----------------------------------------------------------------------

/** The stream context of a topic, for courses and groups (collection items have no stream). */
function streamContextOf(t: TopicRow): StreamContext | null {
  return t.context_type === 'Course' || t.context_type === 'Group' ? { type: t.context_type, id: t.context_id } : null;
}

/** Puts a topic (or announcement) at the top of its context's streams: on creation, publication and each post. */
function publishTopic(ctx: MockCtx, t: TopicRow, author: number): void {
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
function postsAt(ctx: MockCtx, t: TopicRow): string {
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

export const discussionsHandlers = {
  'discussions.listTopics': listTopics,
  'discussions.listGroupTopics': listTopics,
  'discussions.createTopic': createTopicHandler,
  'discussions.updateTopic': updateTopicHandler,
  'discussions.deleteTopic': deleteTopicHandler,
  'discussions.getTopic': getTopic,
  'discussions.viewTopic': viewTopic,
  'discussions.createEntry': createEntryHandler,
  'discussions.listEntries': listEntries,
  'discussions.createReply': createReply,
  'discussions.listReplies': listReplies,
  'discussions.entryList': entryList,
  'discussions.updateEntry': updateEntryHandler,
  'discussions.deleteEntry': deleteEntryHandler,
  'discussions.markTopicRead': topicRead('read'),
  'discussions.markTopicUnread': topicRead('unread'),
  'discussions.markAllRead': allRead('read'),
  'discussions.markAllUnread': allRead('unread'),
  'discussions.markEntryRead': entryRead('read'),
  'discussions.markEntryUnread': entryRead('unread'),
  'discussions.subscribe': subscribe,
  'discussions.unsubscribe': unsubscribe,
};

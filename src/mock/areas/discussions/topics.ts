// Topics and announcements: list, create (with an assignment, a group set, sections), update, delete
// and get.
import type { Topic } from '../../../spec/types/discussions.js';
import { DISCUSSION_TYPES } from '../../../spec/vocabulary.js';
import {
  bool,
  HttpError,
  invalid,
  keysetSource,
  numericId,
  obj,
  paginate,
  Reply,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { permit } from '../access.js';
import { assignmentById, createAssignment, deleteAssignment } from '../assignments/repo.js';
import { sectionById } from '../../school/sections/repo.js';
import { userById } from '../../school/users/repo.js';
import {
  childTopics,
  setTopicGroupSet,
  createTopic,
  deleteTopic,
  entryCounts,
  moveTopicAfter,
  setSubscribed,
  setTopicRead,
  setTopicSections,
  topicById,
  topicInContext,
  topicsQuery,
  touchThread,
  updateTopic,
  type TopicFields,
  type TopicRow,
} from './repo.js';
import { mayCreateTopic, mayEditTopic, mayGradeTopic, type Place } from './policy.js';
import { groupCategoryOfCourse, groupsOfCategory } from '../groups/repo.js';
import { announcementNotice } from '../activity/notifications.js';
import { moveStreamItems } from '../activity/repo.js';
import { FORBIDDEN_DRAFT, place, isDelayed, topicAccess, callerSections, visibleTopic } from './place.js';
import { postedAt, topicJson } from './present.js';
import { streamContextOf, publishTopic, postsAt } from './stream.js';
import { staleUntil } from './entries.js';

// ---- topics -----------------------------------------------------------------------------------

export const listTopics: Handler = (ctx) => {
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

export const createTopicHandler: Handler = (ctx) => {
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

export const updateTopicHandler: Handler = (ctx) => {
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

export const deleteTopicHandler: Handler = (ctx) => {
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

export const getTopic: Handler = (ctx) => {
  const { p, t } = visibleTopic(ctx);
  return topicJson(ctx, p, t);
};

// Who may do what in a forum, as data: the course permissions behind reading, posting, moderating
// and announcing in a course, a group or a collection item (`rightsIn`), and the actions asked of
// them and of the topic or entry at hand. The handlers ask `rightsIn` once a request and then the
// `may…` questions here; none of them writes the rule for itself. What of a topic is shown (drafts,
// sections, delayed posting) is the handlers' `topicAccess`, which starts from these rights.
import type { MockCtx, ResolvedContext } from '../../kit.js';
import { allows, canManageContent } from '../access.js';
import { courseById, type CourseRow } from '../../school/courses/repo.js';
import { sectionsOfUserInCourse } from '../../school/enrollments/repo.js';
import { isGroupMember } from '../groups/repo.js';
import { domainRootAccountId } from '../lookup.js';
import { READ_COURSE, type Rule } from '../permissions.js';
import type { EntryRow, TopicContextType, TopicRow } from './repo.js';

const discussionsPolicy = {
  /** Reading a course's forum: reading the course. */
  read: READ_COURSE,
  /** Reading a group's forum without being a member: an admin above its course (the course's moderators too). */
  readGroup: { anyOf: [], admin: true },
  /** Posting topics and entries in a course's forum (its moderators always may). */
  post: ['post_to_forum'],
  /** Moderating: editing and deleting others' topics and entries, posting to locked topics. */
  moderate: ['moderate_forum'],
  /** Posting announcements (in a group, only its course's moderators who also hold this). */
  announce: ['create_announcement'],
  /** A collection item's forum, public to all, is moderated by its owner and by any admin of the root account. */
  moderateItem: { anyOf: [], admin: true, self: true },
} as const satisfies Record<string, Rule>;

/** A forum's context and what the caller may do in it. */
export interface Place {
  type: TopicContextType;
  id: number;
  /** `courses/1`: the context's part of every URL. */
  path: string;
  /** The course of a course or group context. */
  course?: CourseRow;
  member: boolean;
  read: boolean;
  post: boolean;
  moderate: boolean;
  announce: boolean;
}

/** What the caller may do in a context. */
export function rightsIn(ctx: MockCtx, c: ResolvedContext): Place | undefined {
  const me = ctx.caller.id;
  if (c.type === 'course') {
    const course = courseById(ctx.db, c.id)!;
    const moderate = allows(ctx, discussionsPolicy.moderate, { course });
    return {
      type: 'Course',
      id: c.id,
      path: `courses/${c.id}`,
      course,
      member: true,
      read: allows(ctx, discussionsPolicy.read, { course }),
      post: allows(ctx, discussionsPolicy.post, { course }) || moderate,
      moderate,
      announce: allows(ctx, discussionsPolicy.announce, { course }),
    };
  }
  if (c.type === 'group') {
    const course = courseById(ctx.db, c.record.course_id)!;
    const member = isGroupMember(ctx.db, c.id, me);
    const moderate = allows(ctx, discussionsPolicy.moderate, { course });
    return {
      type: 'Group',
      id: c.id,
      path: `groups/${c.id}`,
      course,
      member,
      read: member || moderate || allows(ctx, discussionsPolicy.readGroup, { course }),
      post: member || moderate,
      moderate,
      announce: moderate && allows(ctx, discussionsPolicy.announce, { course }),
    };
  }
  if (c.type === 'collection_item') {
    // A collection item is public: anyone may read and post.
    const moderate = allows(
      ctx,
      discussionsPolicy.moderateItem,
      { account: { id: domainRootAccountId(ctx.db) } },
      c.record.user_id,
    );
    return {
      type: 'CollectionItem',
      id: c.id,
      path: `collection_items/${c.id}`,
      member: true,
      read: true,
      post: true,
      moderate,
      announce: false,
    };
  }
  return undefined;
}

export const isLocked = (t: TopicRow, now: string) => t.locked === 1 || (t.lock_at !== null && t.lock_at <= now);

/** May the caller moderate this author's entries? A TA limited to a section moderates only its students' posts. */
function moderatesEntryOf(ctx: MockCtx, p: Place, authorId: number): boolean {
  if (!p.moderate) return false;
  if (!p.course) return true;
  return allows(ctx, discussionsPolicy.moderate, {
    course: p.course,
    sections: sectionsOfUserInCourse(ctx.db, authorId, p.course.id),
  });
}

/** Starting a topic: those who read the context and post in it. */
export const mayCreateTopic = (p: Place): boolean => p.read && p.post;

/** Changing a topic: its moderators, or its author while they may still post there. */
export const mayEditTopic = (ctx: MockCtx, p: Place, t: TopicRow): boolean =>
  p.moderate || (t.user_id === ctx.caller.id && p.post);

/** Posting an entry: those who post there, and once the topic is locked only its moderators. */
export const mayPostIn = (ctx: MockCtx, p: Place, t: TopicRow): boolean =>
  p.post && (p.moderate || !isLocked(t, ctx.now()));

/** Changing an entry: its author while they may still post, or a moderator of the author's posts. */
export const mayEditEntry = (ctx: MockCtx, p: Place, e: EntryRow): boolean =>
  (e.user_id === ctx.caller.id && p.post) || moderatesEntryOf(ctx, p, e.user_id);

/** Making a topic graded: only a course's topic, by those who manage the course's content. */
export const mayGradeTopic = (ctx: MockCtx, p: Place): boolean =>
  p.course !== undefined && p.type === 'Course' && canManageContent(ctx, p.course);

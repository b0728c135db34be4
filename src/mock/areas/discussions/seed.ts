// Topics and announcements of the seeded school: threaded and side-comment discussions, one that
// requires an initial post, one delayed, one locked, one graded, a draft, a group discussion with a
// topic in each lab group, a group's own topic and a collection item's; entries and replies by
// several people (one entry with more than ten replies) and mixed read state.
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { audienceOf } from '../activity/notifications.js';
import { publishStreamItem } from '../activity/repo.js';
import {
  createCollectionItem,
  createEntry,
  createTopic,
  setTopicGroupSet,
  entryById,
  recordReply,
  setAllEntriesRead,
  setEntryRead,
  setSubscribed,
  setTopicRead,
  topicsByLastActivity,
  subscribeUnlessChosen,
  type NewTopic,
} from './repo.js';

/** Ids that docs, help examples and tests name. */
export const SEED_TOPICS = {
  welcome: 1,
  introductions: 2,
  membranes: 3,
  labSafety: 4,
  peerReview: 5,
  midtermReview: 6,
  housekeeping: 7,
  draft: 8,
  labReports: 9,
  labReportsGroup1: 10,
  labReportsGroup2: 11,
  chemOfficeHours: 12,
  benchPlanning: 13,
  videoAccuracy: 14,
} as const;

/** The seeded assignment the peer-review discussion is graded by (the Genetics Essay of BIO-101). */
const GRADED_BY = 3;

type TopicSeed = Partial<NewTopic> & {
  id: number;
  context_type: NewTopic['context_type'];
  context_id: number;
  user_id: number;
  title: string;
};

export function seedDiscussions(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  let minute = 0;
  // Everything happens in the first weeks of term, a few minutes apart, in the order written.
  const at = () => new Date(Date.parse('2026-09-01T14:00:00Z') + 37 * 60_000 * minute++).toISOString();
  const topic = (t: TopicSeed) => {
    const when = at();
    const published = t.workflow_state !== 'unpublished';
    const delayed = t.delayed_post_at ?? null;
    createTopic(db, {
      message: `<p>${t.title}</p>`,
      discussion_type: 'threaded',
      workflow_state: 'active',
      is_announcement: 0,
      require_initial_post: 0,
      pinned: 0,
      locked: 0,
      podcast_enabled: 0,
      podcast_has_student_posts: 0,
      delayed_post_at: null,
      lock_at: null,
      assignment_id: null,
      ...t,
      posted_at: published && !delayed ? when : null,
      now: when,
    });
    setTopicRead(db, t.id, t.user_id, 'read');
    if (!t.is_announcement) setSubscribed(db, t.id, t.user_id, true);
  };
  const post = (id: number, topicId: number, user: number, message: string, parent?: number) => {
    const when = at();
    createEntry(db, {
      id,
      topic: topicId,
      user,
      parent: parent === undefined ? undefined : entryById(db, parent),
      message: `<p>${message}</p>`,
      now: when,
    });
    setEntryRead(db, id, user, 'read');
    subscribeUnlessChosen(db, topicId, user);
    recordReply(db, topicId, when);
  };
  const T = SEED_TOPICS;

  createCollectionItem(db, { id: 1, user: 8, title: 'Mitochondria: the powerhouse (video)', now });

  // BIO-101
  topic({
    id: T.welcome,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Welcome to BIO-101',
    is_announcement: 1,
    discussion_type: 'side_comment',
  });
  topic({
    id: T.introductions,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Introduce yourself',
    pinned: 1,
    podcast_enabled: 1,
  });
  topic({
    id: T.membranes,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Cell membrane questions',
    discussion_type: 'side_comment',
  });
  topic({
    id: T.labSafety,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Lab safety reflection',
    require_initial_post: 1,
  });
  topic({
    id: T.peerReview,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Genetics essay peer review',
    assignment_id: GRADED_BY,
  });
  topic({
    id: T.midtermReview,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Midterm review session',
    delayed_post_at: '2027-01-11T15:00:00.000Z',
  });
  topic({
    id: T.housekeeping,
    context_type: 'Course',
    context_id: 1,
    user_id: 5,
    title: 'Week 1 housekeeping',
    lock_at: '2026-09-15T00:00:00.000Z',
  });
  topic({
    id: T.draft,
    context_type: 'Course',
    context_id: 1,
    user_id: 3,
    title: 'Final project ideas',
    workflow_state: 'unpublished',
  });
  topic({ id: T.labReports, context_type: 'Course', context_id: 1, user_id: 3, title: 'Lab group reports' });
  topic({
    id: T.labReportsGroup1,
    context_type: 'Group',
    context_id: 1,
    user_id: 3,
    title: 'Lab group reports',
    root_topic_id: T.labReports,
  });
  topic({
    id: T.labReportsGroup2,
    context_type: 'Group',
    context_id: 2,
    user_id: 3,
    title: 'Lab group reports',
    root_topic_id: T.labReports,
  });
  // Split by BIO-101's Lab Groups set, one topic per group, as a group discussion made through the API is.
  setTopicGroupSet(db, T.labReports, 1, now);
  // CHEM-201, a group's own topic, a collection item's
  topic({
    id: T.chemOfficeHours,
    context_type: 'Course',
    context_id: 2,
    user_id: 3,
    title: 'Office hours move to Thursday',
    is_announcement: 1,
    discussion_type: 'side_comment',
  });
  topic({ id: T.benchPlanning, context_type: 'Group', context_id: 1, user_id: 7, title: 'Bench 1 planning' });
  topic({
    id: T.videoAccuracy,
    context_type: 'CollectionItem',
    context_id: 1,
    user_id: 8,
    title: 'Is this video accurate?',
  });

  // Introductions: a threaded conversation, three levels deep.
  post(1, T.introductions, 7, 'Hi, I am Sam, a second-year biology major.');
  post(2, T.introductions, 8, 'Welcome Sam! Which lab section are you in?', 1);
  post(3, T.introductions, 7, 'Section A, Tuesday mornings.', 2);
  post(4, T.introductions, 9, 'Ravi here, I transferred from community college.');
  post(5, T.introductions, 3, 'Glad to have you, Ravi.', 4);
  post(6, T.introductions, 12, 'Hana, chemistry minor. Looking forward to the labs!');
  // Membranes: side comments, one entry with more than ten of them.
  post(7, T.membranes, 11, 'Why is the phospholipid bilayer selectively permeable?');
  const voices = [8, 9, 12, 7, 3, 10, 8, 9, 5, 12, 7, 11];
  voices.forEach((user, i) => {
    post(8 + i, T.membranes, user, `Reply ${i + 1} on permeability.`, 7);
  });
  post(20, T.membranes, 9, 'Do cholesterol molecules make the membrane stiffer?');
  // Lab safety: only those who posted see the others.
  post(21, T.labSafety, 7, 'Goggles stay on until the bench is cleared.');
  post(22, T.labSafety, 8, 'Know where the eyewash station is before you start.');
  post(23, T.labSafety, 7, 'Good point, I never checked that before.', 22);
  // Peer review, housekeeping (before it locked), the group topics, the collection item.
  post(24, T.peerReview, 10, 'My essay is on epigenetics; happy to swap with anyone.');
  post(25, T.peerReview, 11, 'I will review yours, Mina.', 24);
  post(26, T.housekeeping, 8, 'Is the lab manual on the reserve shelf?');
  post(27, T.housekeeping, 5, 'Yes, two copies at the front desk.', 26);
  post(28, T.labReportsGroup1, 7, 'I can write up the methods section.');
  post(29, T.labReportsGroup1, 11, 'I will take results and figures.', 28);
  post(30, T.labReportsGroup2, 9, 'Our group meets Wednesday after lab.');
  post(31, T.benchPlanning, 8, 'Can we swap benches with group 2 next week?');
  post(32, T.videoAccuracy, 7, 'The part about ATP synthase is simplified but right.');
  post(34, T.videoAccuracy, 8, 'Agreed, though the textbook figure is clearer.', 32);
  post(33, T.welcome, 9, 'Thanks, excited for the term!');

  // Mixed read state: the teacher has read introductions; Sofia read the topic and part of it,
  // and keeps one entry unread on purpose; Sam read all of the membranes thread.
  setTopicRead(db, T.introductions, 3, 'read');
  setAllEntriesRead(db, T.introductions, 3, 'read');
  setTopicRead(db, T.introductions, 8, 'read');
  setEntryRead(db, 1, 8, 'read');
  setEntryRead(db, 4, 8, 'unread', true);
  setTopicRead(db, T.membranes, 7, 'read');
  setAllEntriesRead(db, T.membranes, 7, 'read');
  setTopicRead(db, T.welcome, 7, 'read');
  // Ravi unsubscribed from the membranes topic after posting in it.
  setSubscribed(db, T.membranes, 9, false);

  // Each topic is in its context's streams as of its last post, as posting would have put it there.
  for (const t of topicsByLastActivity(db)) {
    const context = { type: t.context_type, id: t.context_id };
    publishStreamItem(db, {
      type: t.is_announcement === 1 ? 'Announcement' : 'DiscussionTopic',
      assetId: t.id,
      context,
      users: audienceOf(db, context),
      author: t.user_id ?? undefined,
      now: t.at,
    });
  }
}

// Discussions in the mock: topics and announcements with their per-user fields, entries and
// replies, require_initial_post, read state and subscriptions, the cached full view, and who may do what.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import type { Entry, Topic } from '../../src/spec/types/discussions.js';
import { ApiError } from '../../src/errors.js';
import { createMockHandler } from '../../src/mock/handler.js';
import { openMock } from '../../src/mock/runtime.js';
import { SEED_TOPICS as T } from '../../src/mock/areas/discussions/seed.js';
import type { ApiRequest } from '../../src/transport/types.js';
import { clientFor, collect, freshMock, seedSchool, statusOf, TOKENS } from '../helpers/mock-client.js';

const NOW = '2026-11-02T12:00:00.000Z';
const C1 = { course_id: 1 };
const as = (token: string, mock = freshMock()) => clientFor(mock, token).ops.discussions;
const topicOf = (token: string, topic_id: number, ctx: object = C1, mock = freshMock()) =>
  as(token, mock).getTopic({ ...ctx, topic_id } as never);

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('topics: fields computed from state', () => {
  it('gives each user their own read state, unread count and subscription', async () => {
    const mock = freshMock();
    const sofia = await topicOf(TOKENS.otherStudent, T.introductions, C1, mock);
    expect(sofia).toMatchObject({
      read_state: 'read',
      discussion_subentry_count: 6,
      subscribed: true,
      pinned: true,
      discussion_type: 'threaded',
      published: true,
    });
    // Her own entry (2) and entry 1 are read; 4 is forced unread; 3, 5, 6 she has not read.
    expect(sofia.unread_count).toBe(4);
    expect(sofia.podcast_url).toBe(`http://lms.mock/feeds/topics/${T.introductions}/user_8.rss`);
    const teacher = await topicOf(TOKENS.teacher, T.introductions, C1, mock);
    expect(teacher).toMatchObject({
      read_state: 'read',
      unread_count: 0,
      subscribed: true,
      user_name: 'Tess Teacher',
      permissions: { update: true, delete: true, attach: true },
    });
    const hana = await topicOf('12~mock-hana', T.introductions, C1, mock);
    expect(hana).toMatchObject({ read_state: 'unread', unread_count: 5, subscribed: true });
    expect(hana).not.toHaveProperty('subscription_hold');
    const ravi = await topicOf('9~mock-ravi', T.membranes, C1, mock);
    expect(ravi.subscribed).toBe(false);
  });

  it.each([
    ['an announcement', TOKENS.student, T.welcome, C1, 'topic_is_announcement'],
    ['a topic that requires an initial post', '9~mock-ravi', T.labSafety, C1, 'initial_post_required'],
  ])('holds subscriptions on %s', async (_what, token, id, ctx, hold) => {
    const t = await topicOf(token, id, ctx);
    expect(t.subscription_hold).toBe(hold);
    expect(t.subscribed).toBe(false);
  });

  it('says who may see posts of a require_initial_post topic', async () => {
    const mock = freshMock();
    expect((await topicOf('9~mock-ravi', T.labSafety, C1, mock)).user_can_see_posts).toBe(false);
    expect((await topicOf(TOKENS.student, T.labSafety, C1, mock)).user_can_see_posts).toBe(true);
    expect((await topicOf(TOKENS.teacher, T.labSafety, C1, mock)).user_can_see_posts).toBe(true);
    // An observer passes when the student they observe has posted.
    expect((await topicOf(TOKENS.observer, T.labSafety, C1, mock)).user_can_see_posts).toBe(true);
  });

  it('locks a topic whose lock_at has passed, for students only, with lock_info and an explanation', async () => {
    const mock = freshMock();
    const student = await topicOf(TOKENS.student, T.housekeeping, C1, mock);
    expect(student).toMatchObject({
      locked: true,
      locked_for_user: true,
      lock_info: { asset_string: `discussion_topic_${T.housekeeping}`, lock_at: '2026-09-15T00:00:00.000Z' },
    });
    expect(student.lock_explanation).toContain('locked');
    expect(student.permissions.attach).toBe(false);
    const teacher = await topicOf(TOKENS.teacher, T.housekeeping, C1, mock);
    expect(teacher).toMatchObject({ locked: true, locked_for_user: false });
    expect(teacher).not.toHaveProperty('lock_info');
    expect(
      await statusOf(as(TOKENS.student, mock).createEntry({ ...C1, topic_id: T.housekeeping, message: 'late' })),
    ).toBe(401);
    expect(
      await statusOf(
        as(TOKENS.teacher, mock).createEntry({ ...C1, topic_id: T.housekeeping, message: 'moderators still can' }),
      ),
    ).toBe('ok');
  });

  it('does not post a delayed topic before its time, by the mock clock', async () => {
    const mock = freshMock();
    const before = await topicOf(TOKENS.student, T.midtermReview, C1, mock);
    expect(before).toMatchObject({
      posted_at: null,
      delayed_post_at: '2027-01-11T15:00:00.000Z',
      locked_for_user: true,
      lock_info: { unlock_at: '2027-01-11T15:00:00.000Z' },
    });
    const later = new ApiClient({
      baseUrl: 'http://lms.mock',
      token: TOKENS.student,
      transport: createMockHandler({ db: mock.db, now: '2027-01-12T00:00:00.000Z' }),
    });
    const after = await later.ops.discussions.getTopic({ ...C1, topic_id: T.midtermReview });
    expect(after).toMatchObject({ posted_at: '2027-01-11T15:00:00.000Z', locked_for_user: false });
  });

  describe('a group discussion (group_category_id)', () => {
    const teacher = (mock: ReturnType<typeof freshMock>) => as(TOKENS.teacher, mock);

    it(
      'splits a course topic into a topic for each group ' + 'of the set, each user seeing those of their groups',
      async () => {
        const mock = freshMock();
        const root = await teacher(mock).createTopic({
          ...C1,
          title: 'Bench plans',
          message: '<p>Plan it</p>',
          published: true,
          group_category_id: 1,
        });
        expect(root.group_category_id).toBe(1);
        expect(root.group_topic_children.map((c) => c.group_id)).toEqual([1, 2]);
        expect(root.topic_children).toEqual(root.group_topic_children.map((c) => c.id));
        const [first] = root.group_topic_children;
        expect(await topicOf(TOKENS.student, first.id, { group_id: 1 }, mock)).toMatchObject({
          title: 'Bench plans',
          message: '<p>Plan it</p>',
          root_topic_id: root.id,
          group_category_id: null,
        });
        expect((await topicOf(TOKENS.student, root.id, C1, mock)).topic_children).toEqual([first.id]);
        expect(await collect(as(TOKENS.student, mock).listGroupTopics({ group_id: 1 }))).toEqual(
          expect.arrayContaining([expect.objectContaining({ id: first.id })]),
        );
      },
    );

    it('keeps its group topics in step with the root: title, message, locking', async () => {
      const mock = freshMock();
      const root = await teacher(mock).createTopic({
        ...C1,
        title: 'Bench plans',
        published: true,
        group_category_id: 1,
      });
      await teacher(mock).updateTopic({
        ...C1,
        topic_id: root.id,
        title: 'Bench plans, week 2',
        message: '<p>Again</p>',
        locked: true,
      });
      expect(await topicOf(TOKENS.student, root.group_topic_children[0].id, { group_id: 1 }, mock)).toMatchObject({
        title: 'Bench plans, week 2',
        message: '<p>Again</p>',
        locked: true,
      });
    });

    it('can be set later, changed or cleared while nobody has posted, and not after', async () => {
      const mock = freshMock();
      const plain = await teacher(mock).createTopic({ ...C1, title: 'Later split', published: true });
      expect(plain).toMatchObject({ group_category_id: null, topic_children: [] });
      const split = await teacher(mock).updateTopic({ ...C1, topic_id: plain.id, group_category_id: 1 });
      expect(split.topic_children).toHaveLength(2);
      const cleared = await teacher(mock).updateTopic({ ...C1, topic_id: plain.id, group_category_id: '' });
      expect(cleared).toMatchObject({ group_category_id: null, topic_children: [] });
      expect(await statusOf(topicOf(TOKENS.student, split.topic_children[0], { group_id: 1 }, mock))).toBe(404);
      const again = await teacher(mock).updateTopic({ ...C1, topic_id: plain.id, group_category_id: 1 });
      await as(TOKENS.student, mock).createEntry({
        group_id: 1,
        topic_id: again.topic_children[0],
        message: 'Bench 1 first',
      } as never);
      const refused = await teacher(mock)
        .updateTopic({ ...C1, topic_id: plain.id, group_category_id: '' })
        .catch((e: ApiError) => e);
      expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('once someone has posted') });
    });

    it.each([
      ["a group set that is not the course's", C1, { group_category_id: 99 }, 'no group set 99 in this course'],
      ['an announcement', C1, { is_announcement: true, group_category_id: 1 }, 'only a course discussion'],
      ["a group's own topic", { group_id: 1 }, { group_category_id: 1 }, 'only a course discussion'],
    ])('is refused for %s', async (_what, ctx, fields, message) => {
      const mock = freshMock();
      const error = await teacher(mock)
        .createTopic({ ...ctx, title: 'Nope', ...fields } as never)
        .catch((e: ApiError) => e);
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining(message) });
    });
  });

  it('lists group topics as children of their root topic, each user only those of their groups', async () => {
    const mock = freshMock();
    expect((await topicOf(TOKENS.student, T.labReports, C1, mock)).topic_children).toEqual([T.labReportsGroup1]);
    expect((await topicOf('9~mock-ravi', T.labReports, C1, mock)).topic_children).toEqual([T.labReportsGroup2]);
    expect((await topicOf(TOKENS.teacher, T.labReports, C1, mock)).topic_children).toEqual([
      T.labReportsGroup1,
      T.labReportsGroup2,
    ]);
    expect((await topicOf(TOKENS.student, T.labReportsGroup1, { group_id: 1 }, mock)).root_topic_id).toBe(T.labReports);
    // The root's entries include those of the caller's group topic, not the other group's.
    const entries = await collect(as(TOKENS.student, mock).listEntries({ ...C1, topic_id: T.labReports }));
    expect(entries.map((e) => e.id)).toEqual([28]);
    // A student in no group of the course is held from the group discussion.
    const admin = clientFor(mock, TOKENS.admin);
    await admin.ops.enrollments.enrollCourse({
      course_id: 1,
      enrollment: { user_id: 13, type: 'StudentEnrollment', enrollment_state: 'active' },
    });
    expect((await topicOf(TOKENS.observer, T.labReports, C1, mock)).subscription_hold).toBe('not_in_group_set');
    // Teachers are in no group: held too, from the root and from a group's topics.
    expect((await topicOf(TOKENS.teacher, T.labReports, C1, mock)).subscription_hold).toBe('not_in_group_set');
    expect(await topicOf(TOKENS.teacher, T.benchPlanning, { group_id: 1 }, mock)).toMatchObject({
      subscription_hold: 'not_in_group',
      subscribed: false,
    });
    expect(await topicOf(TOKENS.otherStudent, T.benchPlanning, { group_id: 1 }, mock)).toMatchObject({
      subscribed: true,
    });
    expect(await statusOf(as(TOKENS.teacher, mock).subscribe({ group_id: 1, topic_id: T.benchPlanning }))).toBe(400);
  });

  it('shows the graded topic with its assignment', async () => {
    const t = await topicOf(TOKENS.student, T.peerReview);
    expect(t.assignment_id).toBeTypeOf('number');
    expect(t.assignment).toMatchObject({ id: 3, name: 'Genetics Essay', points_possible: 100, course_id: 1 });
  });
});

describe('listing topics', () => {
  const titles = async (token: string, params: object = {}, ctx: object = C1) => {
    const d = as(token);
    const listed =
      'group_id' in ctx
        ? d.listGroupTopics({ ...ctx, ...params } as never)
        : d.listTopics({ ...ctx, ...params } as never);
    return (await collect(listed)).map((t) => (t as Topic).id);
  };

  it('lists discussions without announcements, in position order; drafts only for teachers', async () => {
    expect(await titles(TOKENS.student)).toEqual([2, 3, 4, 5, 6, 7, 9]);
    expect(await titles(TOKENS.teacher)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await titles(TOKENS.ta)).toContain(T.draft);
  });

  it.each([
    ['only announcements', { only_announcements: true }, [T.welcome]],
    ['recent activity first', { order_by: 'recent_activity' }, [7, 5, 4, 3, 2, 9, 6]],
    ['the locked scope, filtered after paging', { scope: 'locked' }, [T.housekeeping]],
    ['the unlocked scope', { scope: 'unlocked' }, [2, 3, 4, 5, 6, 9]],
    ['a search term (trigram index)', { search_term: 'MEMBRANE' }, [T.membranes]],
    ['a short search term', { search_term: 'la' }, [4, 9]],
  ])('lists %s', async (_what, params, expected) => {
    expect(await titles(TOKENS.student, params)).toEqual(expected);
  });

  it('pages smaller when the scope filters a page', async () => {
    const mock = freshMock();
    const page = await clientFor(mock, TOKENS.student).send(
      'GET',
      '/api/v1/courses/1/discussion_topics?scope=locked&per_page=3',
    );
    expect(JSON.parse(page.body as string)).toEqual([]);
    expect(page.headers.link).toContain('rel="next"');
  });

  it("lists a group's topics to its members and the course's moderators, not to other students", async () => {
    expect(await titles(TOKENS.student, {}, { group_id: 1 })).toEqual([T.labReportsGroup1, T.benchPlanning]);
    expect(await titles(TOKENS.teacher, {}, { group_id: 1 })).toEqual([T.labReportsGroup1, T.benchPlanning]);
    expect(await statusOf(collect(as('9~mock-ravi').listGroupTopics({ group_id: 1 })))).toBe(401);
  });

  it.each([
    ['an unknown order', { order_by: 'alphabetical' }],
    ['an unknown scope', { scope: 'sideways' }],
  ])('refuses %s with 400', async (_what, params) => {
    expect(await statusOf(collect(as(TOKENS.student).listTopics({ ...C1, ...params } as never)))).toBe(400);
  });
});

describe('creating, updating and deleting topics', () => {
  it("makes a teacher's new topic a draft unless published is sent; a student's is published", async () => {
    const mock = freshMock();
    const draft = await as(TOKENS.teacher, mock).createTopic({ ...C1, title: 'Draft one', message: '<p>x</p>' });
    expect(draft).toMatchObject({
      published: false,
      posted_at: null,
      read_state: 'read',
      subscribed: true,
      discussion_type: 'side_comment',
    });
    const published = await as(TOKENS.teacher, mock).createTopic({
      ...C1,
      title: 'Live one',
      published: true,
      discussion_type: 'threaded',
    });
    expect(published).toMatchObject({ published: true, posted_at: NOW, discussion_type: 'threaded' });
    const student = await as(TOKENS.student, mock).createTopic({ ...C1, title: 'Study group?' });
    expect(student).toMatchObject({
      published: true,
      user_name: 'Sam Student',
      permissions: { update: true, delete: true },
    });
    // Students do not see the draft.
    expect(await statusOf(topicOf(TOKENS.student, draft.id, C1, mock))).toBe(404);
    const publishedLater = await as(TOKENS.teacher, mock).updateTopic({ ...C1, topic_id: draft.id, published: true });
    expect(publishedLater).toMatchObject({ published: true, posted_at: NOW });
  });

  it("refuses a draft from a student with the API's message", async () => {
    const e = await failure(as(TOKENS.student).createTopic({ ...C1, title: 'x', published: false }));
    expect(e.status).toBe(400);
    expect(e.body).toEqual({ errors: { published: 'You do not have permission to set this topic to draft state.' } });
  });

  it('makes announcements only for those who may post them; others get a plain topic', async () => {
    const mock = freshMock();
    const teacher = await as(TOKENS.teacher, mock).createTopic({ ...C1, title: 'Quiz moved', is_announcement: true });
    expect(teacher).toMatchObject({
      is_announcement: true,
      published: true,
      subscription_hold: 'topic_is_announcement',
    });
    const student = await as(TOKENS.student, mock).createTopic({
      ...C1,
      title: 'Not an announcement',
      is_announcement: true,
    });
    expect(student.is_announcement).toBe(false);
    const announcements = await collect(as(TOKENS.student, mock).listTopics({ ...C1, only_announcements: true }));
    expect(announcements.map((t) => t.id)).toEqual([T.welcome, teacher.id]);
  });

  it('creates a graded topic with an assignment, and deleting it deletes the assignment', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const t = await teacher.ops.discussions.createTopic({
      ...C1,
      title: 'Graded debate',
      published: true,
      assignment: { points_possible: 15, due_at: '2026-12-01T00:00:00Z' },
    });
    expect(t.assignment).toMatchObject({
      name: 'Graded debate',
      points_possible: 15,
      submission_types: ['discussion_topic'],
    });
    const deleted = await teacher.ops.discussions.deleteTopic({ ...C1, topic_id: t.id });
    expect(deleted).toMatchObject({
      deleted_at: NOW,
      discussion_topic: { id: t.id, workflow_state: 'deleted', deleted_at: NOW },
    });
    expect(await statusOf(teacher.ops.assignments.get({ course_id: 1, id: t.assignment_id! }))).toBe(404);
    expect(await statusOf(teacher.ops.discussions.getTopic({ ...C1, topic_id: t.id }))).toBe(404);
  });

  it('turns a graded topic into a plain one with set_assignment=false', async () => {
    const mock = freshMock();
    const graded = await as(TOKENS.teacher, mock).createTopic({
      ...C1,
      title: 'Graded',
      assignment: { points_possible: 5 },
    });
    const t = await as(TOKENS.teacher, mock).updateTopic({
      ...C1,
      topic_id: graded.id,
      assignment: { set_assignment: false },
    });
    expect(t.assignment_id).toBeNull();
    expect(
      await statusOf(clientFor(mock, TOKENS.teacher).ops.assignments.get({ course_id: 1, id: graded.assignment_id! })),
    ).toBe(404);
  });

  it('places a topic after another with position_after, pins and delays', async () => {
    const mock = freshMock();
    const t = await as(TOKENS.teacher, mock).createTopic({
      ...C1,
      title: 'Second',
      published: true,
      position_after: T.introductions,
      pinned: true,
      delayed_post_at: '2026-12-24T00:00:00Z',
    });
    expect(t).toMatchObject({ pinned: true, posted_at: null, delayed_post_at: '2026-12-24T00:00:00.000Z' });
    const order = await collect(as(TOKENS.teacher, mock).listTopics(C1));
    expect(order.map((x) => x.id).slice(0, 3)).toEqual([T.introductions, t.id, T.membranes]);
  });

  it.each([
    ['an unknown discussion type', { discussion_type: 'flat' }],
    ['a bad timestamp', { lock_at: 'soon' }],
    ['a lock before the posting', { delayed_post_at: '2026-12-02T00:00:00Z', lock_at: '2026-12-01T00:00:00Z' }],
    ['an unknown position_after', { position_after: 999 }],
  ])('refuses %s with 400, creating nothing', async (_what, params) => {
    const mock = freshMock();
    expect(await statusOf(as(TOKENS.teacher, mock).createTopic({ ...C1, title: 'bad', ...params } as never))).toBe(400);
    expect((await collect(as(TOKENS.teacher, mock).listTopics({ ...C1, search_term: 'bad' }))).length).toBe(0);
  });
});

describe('who may do what', () => {
  // [who, create a topic, create an announcement, edit the teacher's topic, delete another's entry, moderate: edit a
  // section-2 student's entry]
  const matrix: [string, string, boolean, boolean, boolean, boolean, boolean][] = [
    ['a student', TOKENS.student, true, false, false, false, false],
    ['a TA limited to section 1', TOKENS.ta, true, true, true, true, false],
    ['a teacher', TOKENS.teacher, true, true, true, true, true],
    ['an admin', TOKENS.admin, true, true, true, true, true],
    ['an observer', TOKENS.observer, false, false, false, false, false],
  ];
  it.each(matrix)('%s', async (_who, token, create, announce, edit, deleteOthers, moderateOtherSection) => {
    const mock = freshMock();
    const d = as(token, mock);
    expect(await statusOf(d.createTopic({ ...C1, title: 'mine', published: true }))).toBe(create ? 'ok' : 401);
    if (create)
      expect(
        (await d.createTopic({ ...C1, title: 'news', is_announcement: true, published: true })).is_announcement,
      ).toBe(announce);
    expect(await statusOf(d.updateTopic({ ...C1, topic_id: T.introductions, title: 'Introductions' }))).toBe(
      edit ? 'ok' : 401,
    );
    // Entry 2 is Sofia's (section 1); entry 4 is Ravi's (section 2).
    expect(await statusOf(d.deleteEntry({ ...C1, topic_id: T.introductions, id: 2 }))).toBe(deleteOthers ? 'ok' : 401);
    expect(await statusOf(d.updateEntry({ ...C1, topic_id: T.introductions, id: 4, message: 'edited' }))).toBe(
      moderateOtherSection ? 'ok' : 401,
    );
  });

  it('lets the author edit and delete their own entry, and records the editor when someone else edits', async () => {
    const mock = freshMock();
    const edited = await as(TOKENS.student, mock).updateEntry({
      ...C1,
      topic_id: T.introductions,
      id: 1,
      message: '<p>Sam, third year now.</p>',
    });
    expect(edited).toMatchObject({ message: '<p>Sam, third year now.</p>', user_id: 7 });
    expect(edited).not.toHaveProperty('editor_id');
    const byTeacher = await as(TOKENS.teacher, mock).updateEntry({
      ...C1,
      topic_id: T.introductions,
      id: 1,
      message: '<p>[edited]</p>',
    });
    expect(byTeacher.editor_id).toBe(3);
    expect(await statusOf(as(TOKENS.student, mock).deleteEntry({ ...C1, topic_id: T.introductions, id: 1 }))).toBe(
      'ok',
    );
    expect(
      await statusOf(
        as(TOKENS.student, mock).updateEntry({ ...C1, topic_id: T.introductions, id: 1, message: 'again' }),
      ),
    ).toBe(404);
  });

  it('answers 401 (not 403) to an edit by neither the author nor a moderator', async () => {
    const e = await failure(
      as(TOKENS.otherStudent).updateEntry({ ...C1, topic_id: T.introductions, id: 1, message: 'hijack' }),
    );
    expect(e.status).toBe(401);
  });

  it('lets anyone read and post in a collection item, and its owner moderate', async () => {
    const mock = freshMock();
    const CI = { collection_item_id: 1 };
    expect((await as(TOKENS.student, mock).getTopic({ ...CI, topic_id: T.videoAccuracy })).title).toBe(
      'Is this video accurate?',
    );
    const mine = await as(TOKENS.student, mock).createEntry({
      ...CI,
      topic_id: T.videoAccuracy,
      message: 'Also the cristae diagram.',
    });
    expect(await statusOf(as('9~mock-ravi', mock).deleteEntry({ ...CI, topic_id: T.videoAccuracy, id: mine.id }))).toBe(
      401,
    );
    expect(
      await statusOf(as(TOKENS.otherStudent, mock).deleteEntry({ ...CI, topic_id: T.videoAccuracy, id: mine.id })),
    ).toBe('ok');
    expect(
      await statusOf(as(TOKENS.student, mock).getTopic({ collection_item_id: 99, topic_id: T.videoAccuracy })),
    ).toBe(404);
    // A topic is found only in its own context.
    expect(await statusOf(as(TOKENS.student, mock).getTopic({ ...C1, topic_id: T.videoAccuracy }))).toBe(404);
  });
});

describe('entries and replies', () => {
  it('lists top-level entries newest first, each with its ten newest replies', async () => {
    const entries = await collect(as(TOKENS.student).listEntries({ ...C1, topic_id: T.membranes }));
    expect(entries.map((e) => e.id)).toEqual([20, 7]);
    expect(entries[0]).not.toHaveProperty('recent_replies');
    expect(entries[0]).not.toHaveProperty('has_more_replies');
    expect(entries[1].recent_replies!.map((r) => r.id)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10]);
    expect(entries[1].has_more_replies).toBe(true);
    expect(entries[1]).toMatchObject({
      user_id: 11,
      user_name: 'Lucas Moreau',
      read_state: 'read',
      forced_read_state: false,
    });
  });

  it('lists all replies of an entry newest first, and only of a top-level entry', async () => {
    const mock = freshMock();
    const replies = await collect(
      as(TOKENS.teacher, mock).listReplies({ ...C1, topic_id: T.introductions, entry_id: 1 }),
    );
    expect(replies.map((r) => r.id)).toEqual([3, 2]);
    expect(
      await statusOf(collect(as(TOKENS.teacher, mock).listReplies({ ...C1, topic_id: T.introductions, entry_id: 2 }))),
    ).toBe(404);
  });

  it('posts entries and replies (201), threaded to any depth, side_comment one level only', async () => {
    const mock = freshMock();
    const d = as(TOKENS.otherStudent, mock);
    const entry = await d.createEntry({ ...C1, topic_id: T.membranes, message: '<p>What about proteins?</p>' });
    expect(entry).toMatchObject({ user_id: 8, parent_id: null, read_state: 'read', created_at: NOW });
    const reply = await as(TOKENS.student, mock).createReply({
      ...C1,
      topic_id: T.membranes,
      entry_id: entry.id,
      message: 'Channels!',
    });
    expect(reply.parent_id).toBe(entry.id);
    const refused = await failure(
      d.createReply({ ...C1, topic_id: T.membranes, entry_id: reply.id, message: 'deeper' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.messages.join(' ')).toContain('side_comment');
    const deep = await d.createReply({ ...C1, topic_id: T.introductions, entry_id: 3, message: 'Same here.' });
    expect(deep.parent_id).toBe(3);
    expect(await statusOf(d.createEntry({ ...C1, topic_id: T.introductions, message: '  ' }))).toBe(400);
    expect(
      await statusOf(
        as(TOKENS.observer, mock).createEntry({ ...C1, topic_id: T.introductions, message: 'observers read' }),
      ),
    ).toBe(401);
  });

  it('posting subscribes the author and counts as activity', async () => {
    const mock = freshMock();
    expect((await topicOf('10~mock-mina', T.membranes, C1, mock)).subscribed).toBe(true);
    expect((await topicOf('12~mock-hana', T.peerReview, C1, mock)).subscribed).toBe(false);
    await as('12~mock-hana', mock).createEntry({ ...C1, topic_id: T.peerReview, message: 'I can review one.' });
    const after = await topicOf('12~mock-hana', T.peerReview, C1, mock);
    expect(after).toMatchObject({ subscribed: true, last_reply_at: NOW });
  });

  it('lists entries by id in ascending order, deleted ones as deleted without user or message', async () => {
    const mock = freshMock();
    await as(TOKENS.otherStudent, mock).deleteEntry({ ...C1, topic_id: T.introductions, id: 2 });
    const listed = await collect(
      as(TOKENS.teacher, mock).entryList({ ...C1, topic_id: T.introductions, ids: [4, 2, 1] }),
    );
    expect(listed.map((e) => e.id)).toEqual([1, 2, 4]);
    expect(listed[1]).toMatchObject({ id: 2, deleted: true, parent_id: 1 });
    expect(listed[1]).not.toHaveProperty('user_id');
    expect(listed[1]).not.toHaveProperty('user_name');
    expect(listed[1]).not.toHaveProperty('message');
    // Deleted entries leave the entries and replies lists.
    expect(
      (await collect(as(TOKENS.teacher, mock).listReplies({ ...C1, topic_id: T.introductions, entry_id: 1 }))).map(
        (e) => e.id,
      ),
    ).toEqual([3]);
    expect(
      await statusOf(collect(as(TOKENS.teacher, mock).entryList({ ...C1, topic_id: T.introductions, ids: [1, 999] }))),
    ).toBe(404);
    expect(
      await statusOf(collect(as(TOKENS.teacher, mock).entryList({ ...C1, topic_id: T.introductions, ids: [21] }))),
    ).toBe(404);
  });

  it('attaches a file sent with the entry, stored as the files area stores uploads', async () => {
    const mock = freshMock();
    const data = new TextEncoder().encode('bench notes');
    const e = await as(TOKENS.student, mock).createEntry({
      ...C1,
      topic_id: T.membranes,
      message: 'notes attached',
      attachment: new File([data], 'notes.txt', { type: 'text/plain' }),
    });
    expect(e.attachment).toMatchObject({
      display_name: expect.stringContaining('notes.txt'),
      'content-type': 'text/plain',
      size: data.byteLength,
    });
    expect(e.attachments).toEqual([e.attachment]);
    const download = await clientFor(mock, undefined).send('GET', (e.attachment as { url: string }).url, {
      auth: false,
    });
    expect(new TextDecoder().decode(download.body as Uint8Array)).toBe('bench notes');
  });

  it("holds files over 1 KB to the poster's quota, and answers 400 past it", async () => {
    const mock = freshMock();
    const big = (n: number) => new File([new Uint8Array(n)], 'scan.pdf', { type: 'application/pdf' });
    const d = as(TOKENS.student, mock);
    expect(
      await statusOf(d.createEntry({ ...C1, topic_id: T.membranes, message: 'half', attachment: big(600 * 1024) })),
    ).toBe('ok');
    const over = await failure(
      d.createEntry({ ...C1, topic_id: T.membranes, message: 'too much', attachment: big(600 * 1024) }),
    );
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ errors: { base: 'User storage quota exceeded' } });
    // Small files are always accepted.
    expect(
      await statusOf(d.createEntry({ ...C1, topic_id: T.membranes, message: 'tiny', attachment: big(1024) })),
    ).toBe('ok');
    // Nothing of the refused entry was kept.
    const mine = (await collect(d.listEntries({ ...C1, topic_id: T.membranes }))).filter((e) => e.user_id === 7);
    expect(mine.map((e) => e.message)).toEqual(['tiny', 'half']);
  });
});

describe('require_initial_post', () => {
  const RAVI = '9~mock-ravi';
  const onTopic = { ...C1, topic_id: T.labSafety };
  const gated: [string, (c: ApiClient) => Promise<unknown>][] = [
    ['the full view', (c) => c.ops.discussions.viewTopic(onTopic)],
    ['the entries', (c) => collect(c.ops.discussions.listEntries(onTopic))],
    ['the replies', (c) => collect(c.ops.discussions.listReplies({ ...onTopic, entry_id: 22 }))],
    ['the entry list', (c) => collect(c.ops.discussions.entryList({ ...onTopic, ids: [21] }))],
    ['a reply', (c) => c.ops.discussions.createReply({ ...onTopic, entry_id: 22, message: 'me too' })],
    ['read_all', (c) => c.ops.discussions.markAllRead(onTopic)],
    ['an entry read', (c) => c.ops.discussions.markEntryRead({ ...onTopic, entry_id: 21 })],
    ['subscribing', (c) => c.ops.discussions.subscribe(onTopic)],
  ];

  it.each(gated)('answers 403 require_initial_post to %s before the caller has posted', async (_what, call) => {
    const mock = freshMock();
    const e = await failure(call(clientFor(mock, RAVI)));
    expect(e.status).toBe(403);
    expect(e.body).toBe('require_initial_post');
    // Moderators are exempt; so is a student who posted.
    expect(await statusOf(call(clientFor(mock, TOKENS.teacher)))).toBe('ok');
    expect(await statusOf(call(clientFor(mock, TOKENS.otherStudent)))).toBe('ok');
  });

  it(
    'lets the caller read the topic, mark it, unsubscribe ' + 'and post the initial entry; then opens the rest',
    async () => {
      const mock = freshMock();
      const d = as(RAVI, mock);
      expect(await statusOf(d.getTopic(onTopic))).toBe('ok');
      expect(await statusOf(d.markTopicRead(onTopic))).toBe('ok');
      expect(await statusOf(d.unsubscribe(onTopic))).toBe('ok');
      await d.createEntry({ ...onTopic, message: 'Tie long hair back.' });
      expect((await collect(d.listEntries(onTopic))).length).toBe(3);
      expect((await d.getTopic(onTopic)).user_can_see_posts).toBe(true);
    },
  );

  it('sends the bare word as the body over the wire', async () => {
    const res = await freshMock().handler({
      method: 'GET',
      url: 'http://lms.mock/api/v1/courses/1/discussion_topics/4/entries',
      headers: { authorization: `Bearer ${RAVI}` },
    });
    expect(res.status).toBe(403);
    expect(res.body).toBe('require_initial_post');
    expect(res.headers['content-type']).toContain('json');
  });
});

describe('read state and subscriptions, per user', () => {
  it('marks the topic read and unread (204), seen in the next read', async () => {
    const mock = freshMock();
    const d = as('12~mock-hana', mock);
    const onTopic = { ...C1, topic_id: T.introductions };
    const res = await clientFor(mock, '12~mock-hana').send('PUT', '/api/v1/courses/1/discussion_topics/2/read');
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await d.getTopic(onTopic)).read_state).toBe('read');
    await d.markTopicUnread(onTopic);
    expect((await d.getTopic(onTopic)).read_state).toBe('unread');
    // Only the topic's own text: the entries stay unread.
    expect((await d.getTopic(onTopic)).unread_count).toBe(5);
    // Another user's state is their own.
    expect((await topicOf(TOKENS.otherStudent, T.introductions, C1, mock)).read_state).toBe('read');
  });

  it('marks all entries read or unread, setting forced_read_state only when sent', async () => {
    const mock = freshMock();
    const d = as('12~mock-hana', mock);
    const onTopic = { ...C1, topic_id: T.introductions };
    await d.markAllRead(onTopic);
    expect(await d.getTopic(onTopic)).toMatchObject({ read_state: 'read', unread_count: 0 });
    expect(
      (await collect(d.entryList({ ...onTopic, ids: [1, 4] }))).map((e) => [e.read_state, e.forced_read_state]),
    ).toEqual([
      ['read', false],
      ['read', false],
    ]);
    await d.markAllUnread({ ...onTopic, forced_read_state: true });
    expect(await d.getTopic(onTopic)).toMatchObject({ read_state: 'unread', unread_count: 6 });
    expect((await collect(d.entryList({ ...onTopic, ids: [1] })))[0]).toMatchObject({
      read_state: 'unread',
      forced_read_state: true,
    });
  });

  it('marks one entry read or unread, with forced_read_state', async () => {
    const mock = freshMock();
    const d = as('12~mock-hana', mock);
    const onTopic = { ...C1, topic_id: T.introductions };
    await d.markEntryRead({ ...onTopic, entry_id: 1 });
    expect((await d.getTopic(onTopic)).unread_count).toBe(4);
    await d.markEntryUnread({ ...onTopic, entry_id: 1, forced_read_state: true });
    const [e] = await collect(d.entryList({ ...onTopic, ids: [1] }));
    expect(e).toMatchObject({ read_state: 'unread', forced_read_state: true });
    expect(await statusOf(d.markEntryRead({ ...onTopic, entry_id: 999 }))).toBe(404);
  });

  it('subscribes and unsubscribes (204), and refuses a held subscription', async () => {
    const mock = freshMock();
    const d = as('12~mock-hana', mock);
    const onTopic = { ...C1, topic_id: T.peerReview };
    await d.subscribe(onTopic);
    expect((await d.getTopic(onTopic)).subscribed).toBe(true);
    await d.unsubscribe(onTopic);
    expect((await d.getTopic(onTopic)).subscribed).toBe(false);
    expect(await statusOf(d.subscribe({ ...C1, topic_id: T.welcome }))).toBe(400);
  });
});

describe('the full topic view', () => {
  it('has the participants, the threaded view, unread and forced entries', async () => {
    const mock = freshMock();
    // Sofia marks by hand, so viewing changes nothing.
    await clientFor(mock, TOKENS.otherStudent).ops.users.updateSettings({ id: 'self', manual_mark_as_read: true });
    const d = as(TOKENS.otherStudent, mock);
    const view = await d.viewTopic({ ...C1, topic_id: T.introductions });
    expect(view.participants.map((p) => p.id)).toEqual([3, 7, 8, 9, 12]);
    expect(view.participants[0]).toEqual({
      id: 3,
      display_name: 'Tess',
      avatar_image_url: 'http://lms.mock/images/messages/avatar-50.png',
      html_url: 'http://lms.mock/users/3',
    });
    expect(view.unread_entries).toEqual([3, 4, 5, 6]);
    expect(view.forced_entries).toEqual([4]);
    expect(view.view.map((e) => e.id)).toEqual([1, 4, 6]);
    expect(view.view[0].replies![0]).toMatchObject({
      id: 2,
      parent_id: 1,
      user_id: 8,
      replies: [{ id: 3, parent_id: 2, user_id: 7, message: '<p>Section A, Tuesday mornings.</p>' }],
    });
    expect(view).not.toHaveProperty('new_entries');
    expect((await d.viewTopic({ ...C1, topic_id: T.introductions })).unread_entries).toEqual([3, 4, 5, 6]);
  });

  it('marks entries read on viewing unless the user marks by hand, but not forced ones', async () => {
    const mock = freshMock();
    const d = as(TOKENS.otherStudent, mock);
    expect((await d.viewTopic({ ...C1, topic_id: T.introductions })).unread_entries).toEqual([3, 4, 5, 6]);
    expect((await d.viewTopic({ ...C1, topic_id: T.introductions })).unread_entries).toEqual([4]);
    expect((await d.getTopic({ ...C1, topic_id: T.introductions })).unread_count).toBe(1);
  });

  it('shows deleted entries as deleted, keeping their replies', async () => {
    const mock = freshMock();
    await as(TOKENS.teacher, mock).deleteEntry({ ...C1, topic_id: T.introductions, id: 2 });
    const view = await as(TOKENS.teacher, mock).viewTopic({ ...C1, topic_id: T.introductions });
    const deleted = view.view[0].replies![0];
    expect(deleted).toMatchObject({ id: 2, deleted: true, replies: [{ id: 3 }] });
    expect(deleted).not.toHaveProperty('message');
    expect(deleted).not.toHaveProperty('user_id');
  });

  describe('cached: 503 after a write until rebuilt', () => {
    function cachedMock(delayMs: number) {
      const mock = openMock(':memory:', { LMS_MOCK_NOW: NOW }, seedSchool);
      let wall = 1_000_000;
      const handler = createMockHandler({ db: mock.db, now: NOW, viewRebuildMs: delayMs, wallClock: () => wall });
      let views = 0;
      const transport = (req: ApiRequest) => {
        if (req.url.includes('/view')) views++;
        return handler(req);
      };
      const waits: number[] = [];
      const client = (token: string) =>
        new ApiClient({
          baseUrl: 'http://lms.mock',
          token,
          transport,
          sleep: async (ms) => {
            waits.push(ms);
            wall += ms;
          },
        });
      return { client, views: () => views, waits, advance: (ms: number) => (wall += ms) };
    }

    it('answers 503 with an empty body while the structure is rebuilt, and serves it after', async () => {
      const m = cachedMock(250);
      const teacher = m.client(TOKENS.teacher);
      const posted = await teacher.ops.discussions.createEntry({
        ...C1,
        topic_id: T.introductions,
        message: 'Office hours moved.',
      });
      const raw = await teacher.send('GET', '/api/v1/courses/1/discussion_topics/2/view').catch((e: ApiError) => e);
      expect(raw).toBeInstanceOf(ApiError);
      expect((raw as ApiError).status).toBe(503);
      expect((raw as ApiError).body).toBe('');
      m.advance(250);
      const view = await teacher.ops.discussions.viewTopic({ ...C1, topic_id: T.introductions });
      expect(view.view.map((e) => e.id)).toEqual([1, 4, 6, posted.id]);
    });

    it('the client asks again by itself until the view is ready', async () => {
      const m = cachedMock(250);
      const teacher = m.client(TOKENS.teacher);
      const posted = await teacher.ops.discussions.createEntry({
        ...C1,
        topic_id: T.introductions,
        message: 'One more.',
      });
      const view = await teacher.ops.discussions.viewTopic({ ...C1, topic_id: T.introductions });
      expect(view.view.at(-1)!.id).toBe(posted.id);
      // 100 + 200 ms of waiting: the third try found it built.
      expect(m.waits).toEqual([100, 200]);
      expect(m.views()).toBe(3);
    });

    it('gives up after its tries, with the 503', async () => {
      const m = cachedMock(60_000);
      const teacher = m.client(TOKENS.teacher);
      await teacher.ops.discussions.createEntry({ ...C1, topic_id: T.introductions, message: 'x' });
      expect(await statusOf(teacher.ops.discussions.viewTopic({ ...C1, topic_id: T.introductions }))).toBe(503);
      expect(m.views()).toBe(6);
      // Only this route is retried by the client: an ordinary GET's 503 is the transport's business.
    });

    it('serves the last structure with the entries since, when include_new_entries=1 is asked', async () => {
      const m = cachedMock(60_000);
      const teacher = m.client(TOKENS.teacher);
      await teacher.ops.discussions.viewTopic({ ...C1, topic_id: T.introductions });
      const posted = await teacher.ops.discussions.createReply({
        ...C1,
        topic_id: T.introductions,
        entry_id: 4,
        message: 'Welcome!',
      });
      const view = await teacher.ops.discussions.viewTopic({
        ...C1,
        topic_id: T.introductions,
        include_new_entries: 1,
      });
      expect(view.view.map((e) => e.id)).toEqual([1, 4, 6]);
      expect(view.view[1].replies!.map((e) => e.id)).toEqual([5]);
      expect(view.new_entries).toEqual([
        expect.objectContaining({ id: posted.id, parent_id: 4, message: 'Welcome!', user_id: 3 }),
      ]);
      expect(view.participants.map((p) => p.id)).toContain(3);
    });

    it(
      "retries only the view: another route's 503 is answered " + 'at once (the transport below decides about those)',
      async () => {
        let calls = 0;
        const unavailable = async () => {
          calls++;
          return { status: 503, headers: {}, body: '' };
        };
        const client = new ApiClient({
          baseUrl: 'http://lms.mock',
          token: TOKENS.teacher,
          transport: unavailable,
          sleep: async () => undefined,
        });
        expect(await statusOf(client.ops.discussions.getTopic({ ...C1, topic_id: 2 }))).toBe(503);
        expect(calls).toBe(1);
        expect(await statusOf(client.ops.discussions.viewTopic({ ...C1, topic_id: 2 }))).toBe(503);
        expect(calls).toBe(1 + 6);
      },
    );

    it('is off by default: a view right after a write is current', async () => {
      const mock = freshMock();
      const teacher = clientFor(mock, TOKENS.teacher);
      const posted = await teacher.ops.discussions.createEntry({ ...C1, topic_id: T.introductions, message: 'now' });
      expect((await teacher.ops.discussions.viewTopic({ ...C1, topic_id: T.introductions })).view.at(-1)!.id).toBe(
        posted.id,
      );
    });
  });
});

describe('contexts', () => {
  it('refuses what the caller cannot see: other courses, groups they are not in, unknown ids', async () => {
    const mock = freshMock();
    // A topic is found only in its own context; one the caller cannot read says nothing of its topics.
    expect(await statusOf(topicOf(TOKENS.teacher, T.benchPlanning, { group_id: 2 }, mock))).toBe(404);
    expect(await statusOf(topicOf(TOKENS.student, T.benchPlanning, { group_id: 2 }, mock))).toBe(401);
    expect(await statusOf(topicOf(TOKENS.student, 999, { group_id: 2 }, mock))).toBe(401);
    expect(await statusOf(topicOf('9~mock-ravi', T.benchPlanning, { group_id: 1 }, mock))).toBe(401);
    expect(await statusOf(topicOf(TOKENS.student, 999, C1, mock))).toBe(404);
    expect(await statusOf(collect(as('4~mock-theo', mock).listTopics(C1)))).toBe(401);
    expect(await statusOf(topicOf(TOKENS.student, T.introductions, { course_id: 'sis_course_id:BIO-101' }, mock))).toBe(
      'ok',
    );
  });

  it('posts in a group topic as a member', async () => {
    const mock = freshMock();
    const e: Entry = await as(TOKENS.otherStudent, mock).createEntry({
      group_id: 1,
      topic_id: T.benchPlanning,
      message: 'Bench 2 is free on Friday.',
    });
    expect(e.user_id).toBe(8);
    expect(
      await statusOf(
        as('9~mock-ravi', mock).createEntry({ group_id: 1, topic_id: T.benchPlanning, message: 'not mine' }),
      ),
    ).toBe(401);
  });
});

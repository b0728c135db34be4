// The activity stream: items other areas publish, per-user read state, newest first, 21 a page,
// and its summary; lms activity with --summary and --watch.
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/mock/areas/activity/repo.js';
import { clientFor, collect, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { session } from '../helpers/run-lms.js';

const LUCAS = '11~mock-lucas';

describe('the activity stream', () => {
  it('holds the seeded invitation of an invited student, as a Message with its category and course', async () => {
    const items = (
      await collect(clientFor(freshMock(), TOKENS.admin, { asUser: '11' }).ops.users.activityStream({}))
    ).filter((i) => i.notification_category === 'Invitation');
    expect(items).toEqual([
      expect.objectContaining({
        type: 'Message',
        notification_category: 'Invitation',
        title: 'Course invitation: Organic Chemistry',
        read_state: false,
        context_type: 'course',
        course_id: 2,
        group_id: null,
        html_url: 'http://lms.mock/courses/2',
      }),
    ]);
  });

  it('holds the seeded grades: each graded submission, and a Grading message, newest first', async () => {
    const items = await collect(clientFor(freshMock(), TOKENS.admin, { asUser: '11' }).ops.users.activityStream({}));
    expect(
      items
        .filter((i) => i.type === 'Submission' || i.notification_category === 'Grading')
        .map((i) => [i.type, i.title, i.read_state]),
    ).toEqual([
      ['Message', 'Grade posted: Research Paper', false],
      ['Submission', 'Research Paper', false],
      ['Message', 'Grade posted: Cell Structure Lab Report', false],
      ['Submission', 'Cell Structure Lab Report', false],
    ]);
    expect(items.find((i) => i.title === 'Grade posted: Research Paper')).toMatchObject({
      message: 'Your grade for Research Paper is B.',
      course_id: 3,
    });
  });

  it('gets a new invitation on top when someone is enrolled as invited, and none for an active enrolment', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    await admin.ops.enrollments.enrollCourse({ course_id: 3, enrollment: { user_id: 2, type: 'StudentEnrollment' } });
    await admin.ops.enrollments.enrollCourse({
      course_id: 5,
      enrollment: { user_id: 2, type: 'TaEnrollment', enrollment_state: 'active' },
    });
    const hal = await collect(clientFor(mock, TOKENS.helpdesk).ops.users.activityStream({}));
    expect(hal.filter((i) => i.type === 'Message').map((i) => i.title)).toEqual(['Course invitation: World History']);
    expect(hal.find((i) => i.type === 'Message')).toMatchObject({ course_id: 3, read_state: false });
  });

  it('pages 21 at a time by default, newest first, without repeating or skipping', async () => {
    const mock = freshMock();
    for (let n = 1; n <= 30; n++) {
      sendMessage(mock.db, {
        user: 7,
        category: 'Grading',
        subject: `Note ${n}`,
        body: 'b',
        context: null,
        now: `2026-11-0${1 + Math.floor(n / 10)}T10:${String(n).padStart(2, '0')}:00.000Z`,
      });
    }
    const sam = clientFor(mock, TOKENS.student, { perPage: undefined });
    const firstPage: unknown[] = [];
    for await (const i of sam.ops.users.activityStream({}, { limit: 21 })) firstPage.push(i);
    expect(firstPage).toHaveLength(21);
    const all = await collect(clientFor(mock, TOKENS.student, { perPage: 4 }).ops.users.activityStream({}));
    expect(new Set(all.map((i) => i.id)).size).toBe(all.length);
    expect(all.filter((i) => i.title.startsWith('Note ')).map((i) => i.title)).toEqual(
      Array.from({ length: 30 }, (_, k) => `Note ${30 - k}`),
    );
  });

  it('cuts a message at 4 KB and leaves out an item whose asset is gone', async () => {
    const mock = freshMock();
    sendMessage(mock.db, {
      user: 7,
      category: 'Grading',
      subject: 'Long',
      body: 'x'.repeat(5000),
      context: null,
      now: '2026-11-01T10:00:00.000Z',
    });
    const gone = sendMessage(mock.db, {
      user: 7,
      category: 'Grading',
      subject: 'Gone',
      body: 'y',
      context: null,
      now: '2026-11-01T11:00:00.000Z',
    });
    mock.db.prepare(`DELETE FROM messages WHERE id = ?`).run(gone);
    const items = (await collect(clientFor(mock, TOKENS.student).ops.users.activityStream({}))).filter(
      (i) => i.title === 'Long' || i.title === 'Gone',
    );
    expect(items.map((i) => [i.title, i.message?.length])).toEqual([['Long', 4096]]);
  });

  it('summarises by type and category, unread and all', async () => {
    const mock = freshMock();
    sendMessage(mock.db, {
      user: 11,
      category: 'Grading',
      subject: 'Graded',
      body: 'b',
      context: { type: 'Course', id: 1 },
      now: '2026-11-01T10:00:00.000Z',
    });
    const summary = await clientFor(mock, LUCAS).ops.users.activityStreamSummary({});
    expect(summary.filter((e) => e.type === 'Message')).toEqual([
      { type: 'Message', notification_category: 'Grading', count: 3, unread_count: 3 },
      { type: 'Message', notification_category: 'Invitation', count: 1, unread_count: 1 },
    ]);
  });

  it('answers the same at /users/activity_stream', async () => {
    const lucas = clientFor(freshMock(), LUCAS);
    expect(await collect(lucas.ops.users.activityStreamAlias({}))).toEqual(
      await collect(lucas.ops.users.activityStream({})),
    );
  });
});

describe('what the other areas put in the stream', () => {
  const titles = async (mock: ReturnType<typeof freshMock>, token: string) =>
    (await collect(clientFor(mock, token).ops.users.activityStream({}, { limit: 3 }))).map((i) => [
      i.type,
      i.title,
      i.read_state,
    ]);

  it("a topic: on top of the students' streams, unread; read for its author; a draft only once published", async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const draft = await teacher.ops.discussions.createTopic({ course_id: 1, title: 'Osmosis lab prep' });
    expect((await titles(mock, TOKENS.student))[0]).not.toEqual(['DiscussionTopic', 'Osmosis lab prep', false]);
    await teacher.ops.discussions.updateTopic({ course_id: 1, topic_id: draft.id, published: true });
    expect((await titles(mock, TOKENS.student))[0]).toEqual(['DiscussionTopic', 'Osmosis lab prep', false]);
    expect((await titles(mock, TOKENS.teacher))[0]).toEqual(['DiscussionTopic', 'Osmosis lab prep', true]);
    // a student of another course sees nothing of it
    expect((await titles(mock, TOKENS.otherTeacher)).map((t) => t[1])).not.toContain('Osmosis lab prep');
    const item = (await collect(clientFor(mock, TOKENS.student).ops.users.activityStream({}, { limit: 1 })))[0]!;
    expect(item).toMatchObject({
      discussion_topic_id: draft.id,
      course_id: 1,
      total_root_discussion_entries: 0,
      require_initial_post: false,
      user_has_posted: null,
    });
  });

  it('a post brings its topic back to the top, with its first root entries', async () => {
    const mock = freshMock();
    await clientFor(mock, TOKENS.otherStudent).ops.discussions.createEntry({
      course_id: 1,
      topic_id: 5,
      message: 'Hi, I am Sofia again',
    });
    const top = (await collect(clientFor(mock, TOKENS.student).ops.users.activityStream({}, { limit: 1 })))[0]!;
    expect(top).toMatchObject({ type: 'DiscussionTopic', discussion_topic_id: 5, read_state: false });
    expect((top.root_discussion_entries as unknown[]).length).toBeLessThanOrEqual(3);
    expect(top.total_root_discussion_entries).toBeGreaterThanOrEqual(1);
  });

  it(
    'an announcement: an Announcement item and an Announcement ' + 'message for everyone in the course but its author',
    async () => {
      const mock = freshMock();
      await clientFor(mock, TOKENS.teacher).ops.discussions.createTopic({
        course_id: 1,
        title: 'Lab closed Friday',
        is_announcement: true,
        published: true,
      });
      expect(await titles(mock, TOKENS.student)).toEqual(
        expect.arrayContaining([
          ['Announcement', 'Lab closed Friday', false],
          ['Message', 'New announcement: Lab closed Friday', false],
        ]),
      );
      expect((await titles(mock, TOKENS.teacher)).map((t) => t[1])).not.toContain(
        'New announcement: Lab closed Friday',
      );
    },
  );

  it(
    "a conversation: on top of the recipient's stream, " + 'read once they have read it, gone once they delete it',
    async () => {
      const mock = freshMock();
      const [made] = await clientFor(mock, TOKENS.teacher).ops.conversations.create({
        recipients: ['7', '8'],
        subject: 'Your lab report',
        body: 'Please resubmit by Friday.',
        group_conversation: true,
      });
      const sam = clientFor(mock, TOKENS.student);
      expect((await titles(mock, TOKENS.student))[0]).toEqual(['Conversation', 'Your lab report', false]);
      const item = (await collect(sam.ops.users.activityStream({}, { limit: 1 })))[0]!;
      expect(item).toMatchObject({
        conversation_id: made!.id,
        private: false,
        participant_count: 3,
        message: 'Please resubmit by Friday.',
      });
      await sam.ops.conversations.get({ id: made!.id });
      expect((await titles(mock, TOKENS.student))[0]).toEqual(['Conversation', 'Your lab report', true]);
      await sam.ops.conversations.delete({ id: made!.id });
      expect((await titles(mock, TOKENS.student)).map((t) => t[1])).not.toContain('Your lab report');
    },
  );
});

describe('hiding an item', () => {
  it('keeps it out of the stream and the summary even when its asset changes again', async () => {
    const mock = freshMock();
    const sam = clientFor(mock, TOKENS.student);
    const topic = (await collect(sam.ops.users.activityStream({}))).find(
      (i) => i.type === 'DiscussionTopic' && i.discussion_topic_id === 5,
    )!;
    expect(await sam.ops.users.hideStreamItem({ id: topic.id })).toEqual({ hidden: true });
    await clientFor(mock, TOKENS.otherStudent).ops.discussions.createEntry({
      course_id: 1,
      topic_id: 5,
      message: 'One more thought',
    });
    expect((await collect(sam.ops.users.activityStream({}))).map((i) => i.id)).not.toContain(topic.id);
    // others still see it
    expect(
      (await collect(clientFor(mock, TOKENS.otherStudent).ops.users.activityStream({}))).map((i) => i.id),
    ).toContain(topic.id);
  });

  it("is 404 for an item not in the caller's stream", async () => {
    expect(await statusOf(clientFor(freshMock(), TOKENS.student).ops.users.hideStreamItem({ id: 99999 }))).toBe(404);
  });
});

describe('grading in the stream', () => {
  it(
    "a grade: the submission on top of the student's stream " + 'with its assignment and course, and a Grading notice',
    async () => {
      const mock = freshMock();
      const teacher = clientFor(mock, TOKENS.teacher);
      await teacher.ops.submissions.grade({
        course_id: 1,
        assignment_id: 3,
        user_id: 7,
        submission: { posted_grade: 'B' },
        comment: { text_comment: 'Solid argument.' },
      });
      const items = await collect(clientFor(mock, TOKENS.student).ops.users.activityStream({}, { limit: 2 }));
      const submission = items.find((i) => i.type === 'Submission')!;
      expect(submission).toMatchObject({
        title: 'Genetics Essay',
        message: 'Solid argument.',
        course_id: 1,
        read_state: false,
        course: { id: 1 },
        assignment: { id: 3 },
      });
      expect(submission.submission_id).toBeTypeOf('number');
      expect(items.find((i) => i.type === 'Message')).toMatchObject({
        notification_category: 'Grading',
        title: 'Grade posted: Genetics Essay',
      });
      // nobody else's stream shows it
      const sofia = await collect(clientFor(mock, TOKENS.otherStudent).ops.users.activityStream({}, { limit: 3 }));
      expect(sofia.map((i) => i.title)).not.toContain('Genetics Essay');
    },
  );
});

describe('lms activity', () => {
  it('lists the stream as a table, and --summary counts it', async () => {
    const lms = session();
    const table = await lms.run('activity', { tty: true, env: { LMS_TOKEN: LUCAS } });
    expect(table.stdout).toMatch(/^ID\s+TYPE\s+TITLE/);
    expect(table.stdout).toMatch(/Message\s+Course invitation/);
    const summary = await lms.run('activity --summary -o json', { env: { LMS_TOKEN: LUCAS } });
    expect(JSON.parse(summary.stdout)).toContainEqual({
      type: 'Message',
      notification_category: 'Invitation',
      count: 1,
      unread_count: 1,
    });
  });

  it('--watch prints what is there, then what arrives, as NDJSON when piped', async () => {
    const lms = session();
    const admin0 = clientFor(lms.mock, TOKENS.admin);
    await admin0.ops.enrollments.enrollCourse({ course_id: 5, enrollment: { user_id: 2, type: 'StudentEnrollment' } });
    const watching = lms.run('activity --watch --interval 0.02 --limit 3', { env: { LMS_TOKEN: TOKENS.helpdesk } });
    const admin = clientFor(lms.mock, TOKENS.admin);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await admin.ops.enrollments.enrollCourse({ course_id: 3, enrollment: { user_id: 2, type: 'StudentEnrollment' } });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await admin.ops.enrollments.enrollCourse({ course_id: 2, enrollment: { user_id: 2, type: 'StudentEnrollment' } });
    const r = await watching;
    expect(r.exitCode).toBe(0);
    const titles = r.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { title: string }).title);
    expect(titles).toEqual([
      'Course invitation: Biology Lab',
      'Course invitation: World History',
      'Course invitation: Organic Chemistry',
    ]);
  });

  it.each([
    ['--summary with --watch', 'activity --summary --watch', '--summary and --watch do not go together'],
    ['--interval without --watch', 'activity --interval 5', '--interval goes with --watch'],
    ['an interval that is no number', 'activity --watch --interval soon', '--interval must be a number of seconds'],
    ['-o json with --watch', 'activity --watch --interval 1 -o json', 'use -o ndjson'],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line, { env: { LMS_TOKEN: LUCAS } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

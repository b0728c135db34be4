// What a caller sees of a topic is one rule (posted yet, section-specific, the caller moderates),
// applied to every reader: the topic routes, its entries, and the activity stream with its summary
// and the notices about the topic. A delayed announcement enters the streams when it posts, by the
// mock's clock, with nothing run at that moment.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import { createMockHandler } from '../../src/mock/handler.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';

const BIO = { course_id: 1 };
const POSTS_AT = '2026-11-20T09:00:00.000Z';

/** A client of `token` whose mock clock says `now`. */
const at = (mock: MockRuntime, now: string, token: string) =>
  new ApiClient({
    baseUrl: 'http://lms.mock',
    token,
    userAgent: 'lms-test',
    transport: createMockHandler({ db: mock.db, now }),
  });

/** A raw request to the mock as `token`, for parameters the client does not send (specific_sections). */
async function request(
  mock: MockRuntime,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: Record<string, unknown>,
) {
  const res = await mock.handler({
    method,
    url: `http://lms.mock/api/v1/${path}`,
    headers: {
      authorization: `Bearer ${token}`,
      'user-agent': 'lms-test',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: res.json as Record<string, unknown> & { id: number } };
}

describe('a delayed announcement in the activity stream', () => {
  it(
    "is absent from a student's stream and summary, " + 'with its notice, until it posts; then both are there',
    async () => {
      const mock = freshMock();
      // The seeded announcements each of them has already.
      const seeded = async (token: string) =>
        (await clientFor(mock, token).ops.users.activityStreamSummary({})).find((e) => e.type === 'Announcement')
          ?.count ?? 0;
      const before: Record<string, number> = {
        [TOKENS.student]: await seeded(TOKENS.student),
        [TOKENS.observer]: await seeded(TOKENS.observer),
      };
      const created = await clientFor(mock, TOKENS.teacher).ops.discussions.createTopic({
        ...BIO,
        title: 'Exam room change',
        message: 'Room 4B',
        is_announcement: true,
        delayed_post_at: POSTS_AT,
      });
      const seen = async (now: string, token: string = TOKENS.student) => {
        const client = at(mock, now, token);
        const items = (await collect(client.ops.users.activityStream({}))).filter((i) =>
          i.title.includes('Exam room change'),
        );
        const summary = await client.ops.users.activityStreamSummary({});
        return {
          items: items.map((i) => [i.type, i.title]).sort(),
          announcements: (summary.find((e) => e.type === 'Announcement')?.count ?? 0) - before[token]!,
          notices: summary.find((e) => e.notification_category === 'Announcement')?.count ?? 0,
        };
      };

      for (const token of [TOKENS.student, TOKENS.observer]) {
        expect(await seen('2026-11-20T08:59:59.000Z', token)).toEqual({ items: [], announcements: 0, notices: 0 });
        expect(await seen('2026-11-20T09:00:01.000Z', token)).toEqual({
          items: [
            ['Announcement', 'Exam room change'],
            ['Message', 'New announcement: Exam room change'],
          ],
          announcements: 1,
          notices: 1,
        });
      }
      // Its teacher (who moderates it) has it in the stream from the start.
      const teacher = (
        await collect(at(mock, '2026-11-03T00:00:00.000Z', TOKENS.ta).ops.users.activityStream({}))
      ).filter((i) => i.title.includes('Exam room change'));
      expect(teacher.map((i) => i.type)).toContain('Announcement');
      // Nor can a student find it by id or in the list before then.
      expect(
        await statusOf(
          at(mock, '2026-11-19T00:00:00.000Z', TOKENS.student).ops.discussions.getTopic({
            ...BIO,
            topic_id: created.id,
          }),
        ),
      ).toBe(404);
    },
  );
});

describe('a section-specific topic', () => {
  /**
   * A topic for section 2 of BIO-101 (Mina's; Sam and the observer Olive, who observes him, are in section 1), with an
   * entry.
   */
  async function sectionTwoTopic(mock: MockRuntime): Promise<number> {
    const created = await request(mock, TOKENS.teacher, 'POST', 'courses/1/discussion_topics', {
      title: 'Section 2 lab swap',
      message: 'Swap benches',
      published: true,
      specific_sections: '2',
    });
    expect(created).toMatchObject({ status: 200, json: { is_section_specific: true } });
    await clientFor(mock, TOKENS.privateStudent).ops.discussions.createEntry({
      ...BIO,
      topic_id: created.json.id,
      message: 'Bench 3 works for me',
    });
    return created.json.id;
  }

  it.each([
    ['a student of another section', TOKENS.student],
    ['an observer of a student of another section', TOKENS.observer],
  ])('is hidden, with its entries, from %s', async (_who, token) => {
    const mock = freshMock();
    const id = await sectionTwoTopic(mock);
    for (const rest of ['', '/entries', '/view', '/view?include_new_entries=1', '/entry_list?ids[]=1']) {
      expect((await request(mock, token, 'GET', `courses/1/discussion_topics/${id}${rest}`)).status, rest).toBe(404);
    }
    expect((await request(mock, token, 'PUT', `courses/1/discussion_topics/${id}/subscribed`)).status).toBe(404);
    const listed = await collect(clientFor(mock, token).ops.discussions.listTopics(BIO));
    expect(listed.map((t) => t.id)).not.toContain(id);
    const stream = await collect(clientFor(mock, token).ops.users.activityStream({}));
    expect(stream.map((i) => i.title)).not.toContain('Section 2 lab swap');
  });

  it('is there, with its entries, for a student of its section and for the teacher', async () => {
    const mock = freshMock();
    const id = await sectionTwoTopic(mock);
    for (const token of [TOKENS.privateStudent, TOKENS.teacher]) {
      const entries = await collect(clientFor(mock, token).ops.discussions.listEntries({ ...BIO, topic_id: id }));
      expect(entries.map((e) => e.message)).toEqual(['Bench 3 works for me']);
      expect((await collect(clientFor(mock, token).ops.discussions.listTopics(BIO))).map((t) => t.id)).toContain(id);
    }
  });

  it(
    "is refused to who does not moderate, and to sections of another course; `all` makes it the whole course's " +
      'again',
    async () => {
      const mock = freshMock();
      expect(
        (
          await request(mock, TOKENS.student, 'POST', 'courses/1/discussion_topics', {
            title: 'Mine',
            specific_sections: '1',
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await request(mock, TOKENS.teacher, 'POST', 'courses/1/discussion_topics', {
            title: 'Elsewhere',
            specific_sections: '3',
          })
        ).status,
      ).toBe(400);
      const id = await sectionTwoTopic(mock);
      expect((await request(mock, TOKENS.student, 'GET', `courses/1/discussion_topics/${id}/entries`)).status).toBe(
        404,
      );
      expect(
        (await request(mock, TOKENS.teacher, 'PUT', `courses/1/discussion_topics/${id}`, { specific_sections: 'all' }))
          .json,
      ).toMatchObject({ is_section_specific: false });
      expect((await request(mock, TOKENS.student, 'GET', `courses/1/discussion_topics/${id}/entries`)).status).toBe(
        200,
      );
    },
  );
});

describe('a delayed topic before it posts', () => {
  const BEFORE = '2026-11-10T00:00:00.000Z';
  const counts = (json: Record<string, unknown>) => ({
    discussion_subentry_count: json.discussion_subentry_count,
    unread_count: json.unread_count,
    last_reply_at: json.last_reply_at === null ? null : 'set',
  });

  it.each([
    ['a student', TOKENS.student, { discussion_subentry_count: 0, unread_count: 0, last_reply_at: null }],
    ['an observer', TOKENS.observer, { discussion_subentry_count: 0, unread_count: 0, last_reply_at: null }],
    [
      'its teacher, who moderates it',
      TOKENS.ta,
      { discussion_subentry_count: 1, unread_count: 1, last_reply_at: 'set' },
    ],
  ])('shows %s the counts of its entries only as it shows the entries', async (_who, token, hidden) => {
    const mock = freshMock();
    const created = await at(mock, BEFORE, TOKENS.teacher).ops.discussions.createTopic({
      ...BIO,
      title: 'Lab debrief',
      message: 'Tell us',
      published: true,
      delayed_post_at: POSTS_AT,
    });
    await at(mock, BEFORE, TOKENS.teacher).ops.discussions.createEntry({
      ...BIO,
      topic_id: created.id,
      message: 'First thoughts from staff',
    });
    const topic = async (now: string) =>
      counts(
        (await at(mock, now, token).ops.discussions.getTopic({ ...BIO, topic_id: created.id })) as unknown as Record<
          string,
          unknown
        >,
      );
    const list = async (now: string) =>
      counts(
        (await collect(at(mock, now, token).ops.discussions.listTopics({ ...BIO }))).find(
          (t) => t.id === created.id,
        ) as unknown as Record<string, unknown>,
      );
    expect(await topic('2026-11-20T08:59:59.000Z')).toEqual(hidden);
    expect(await list('2026-11-20T08:59:59.000Z')).toEqual(hidden);
    // Once it posts, its entry and its count are there for all of them.
    expect(await topic('2026-11-20T09:00:01.000Z')).toEqual({
      discussion_subentry_count: 1,
      unread_count: 1,
      last_reply_at: 'set',
    });
  });

  it('moves its stream items when its post time moves later: the stream orders it by the new time', async () => {
    const mock = freshMock();
    const LATER = '2026-11-24T09:00:00.000Z';
    const teacher = at(mock, BEFORE, TOKENS.teacher);
    const moved = await teacher.ops.discussions.createTopic({
      ...BIO,
      title: 'Moved notice',
      message: 'M',
      is_announcement: true,
      delayed_post_at: POSTS_AT,
    });
    await teacher.ops.discussions.createTopic({
      ...BIO,
      title: 'Between notice',
      message: 'B',
      is_announcement: true,
      delayed_post_at: '2026-11-22T09:00:00.000Z',
    });
    await teacher.ops.discussions.updateTopic({ ...BIO, topic_id: moved.id, delayed_post_at: LATER });
    const items = async (now: string) =>
      (await collect(at(mock, now, TOKENS.student).ops.users.activityStream({})))
        .filter((i) => / notice$/.test(i.title))
        .map((i) => [i.type, i.title, i.created_at]);
    // Not at its first time, since it posts later now.
    expect(await items('2026-11-21T00:00:00.000Z')).toEqual([]);
    const between = [
      ['Announcement', 'Between notice', '2026-11-22T09:00:00.000Z'],
      ['Message', 'New announcement: Between notice', '2026-11-22T09:00:00.000Z'],
    ];
    expect(await items('2026-11-23T00:00:00.000Z')).toEqual(expect.arrayContaining(between));
    expect(await items('2026-11-23T00:00:00.000Z')).toHaveLength(2);
    // Newest first: it and its notice posted after the other, at the new time.
    const all = await items('2026-11-25T00:00:00.000Z');
    expect(all.slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['Announcement', 'Moved notice', LATER],
        ['Message', 'New announcement: Moved notice', LATER],
      ]),
    );
    expect(all.slice(2)).toEqual(expect.arrayContaining(between));
    expect(all).toHaveLength(4);
  });
});

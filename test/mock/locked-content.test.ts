// What a topic or quiz shows to those it is locked for, and to those who may not manage or grade
// it. A topic not yet posted keeps its message from everyone but its moderators (the lock
// explanation stands in its place, in a topic read alone or in a list); one closed for replies, by
// date or by hand, can still be read and says so (`lock_info.can_view`). A quiz's access code goes
// only to those who grade or manage it; its IP filter, which real instances send to everyone taking
// the quiz, stays.
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import type { Topic } from '../../src/spec/types/discussions.js';
import { SEED_TOPICS as T } from '../../src/mock/areas/discussions/seed.js';
import { createMockHandler } from '../../src/mock/handler.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const DESIGNER = '6~mock-designer';
const C1 = { course_id: 1 };
const topics = (token: string) => clientFor(mock, token).ops.discussions;
const quizzes = (token: string) => clientFor(mock, token).ops.quizzes;

const MIDTERM_MESSAGE = '<p>Midterm review session</p>';
const NOT_YET = 'This topic is locked until 2027-01-11T15:00:00.000Z.';

describe('a topic not yet posted', () => {
  it.each([
    ['a student', NOT_YET, TOKENS.student],
    ['an observer', NOT_YET, TOKENS.observer],
    ['the teacher', MIDTERM_MESSAGE, TOKENS.teacher],
    ['a TA', MIDTERM_MESSAGE, TOKENS.ta],
    ['the designer', MIDTERM_MESSAGE, DESIGNER],
  ])('shows %s the message %j, alone and in the list', async (_who, message, token) => {
    const alone = await topics(token).getTopic({ ...C1, topic_id: T.midtermReview });
    const listed = (await collect(topics(token).listTopics(C1))).find((t) => t.id === T.midtermReview);
    for (const topic of [alone, listed!]) expect(topic.message).toBe(message);
  });

  it('explains the lock with its unlock date only, and nothing that says it may be read', async () => {
    const topic = await topics(TOKENS.student).getTopic({ ...C1, topic_id: T.midtermReview });
    expect(topic).toMatchObject({ locked_for_user: true, lock_explanation: NOT_YET });
    expect(topic.lock_info).toEqual({
      asset_string: `discussion_topic_${T.midtermReview}`,
      unlock_at: '2027-01-11T15:00:00.000Z',
    });
  });

  it('shows the message once the topic is posted, by the mock clock', async () => {
    const later = new ApiClient({
      baseUrl: 'http://lms.mock',
      token: TOKENS.student,
      transport: createMockHandler({ db: mock.db, now: '2027-01-12T00:00:00.000Z' }),
    });
    const topic = await later.ops.discussions.getTopic({ ...C1, topic_id: T.midtermReview });
    expect(topic).toMatchObject({ message: MIDTERM_MESSAGE, locked_for_user: false });
    expect(topic).not.toHaveProperty('lock_info');
  });
});

describe('a topic closed for replies', () => {
  it('can still be read after its lock date, and says so', async () => {
    const topic = await topics(TOKENS.student).getTopic({ ...C1, topic_id: T.housekeeping });
    expect(topic).toMatchObject({
      message: '<p>Week 1 housekeeping</p>',
      locked_for_user: true,
      lock_explanation: 'This topic was locked 2026-09-15T00:00:00.000Z.',
    });
    expect(topic.lock_info).toEqual({
      asset_string: `discussion_topic_${T.housekeeping}`,
      lock_at: '2026-09-15T00:00:00.000Z',
      can_view: true,
    });
  });

  it('can still be read when locked by hand', async () => {
    await topics(TOKENS.teacher).updateTopic({ ...C1, topic_id: T.membranes, locked: true });
    const listed = (await collect(topics(TOKENS.student).listTopics(C1))).find((t) => t.id === T.membranes) as Topic;
    expect(listed).toMatchObject({
      message: '<p>Cell membrane questions</p>',
      locked_for_user: true,
      lock_explanation: 'This topic is locked.',
    });
    expect(listed.lock_info).toEqual({ asset_string: `discussion_topic_${T.membranes}`, can_view: true });
  });
});

describe('quiz fields by role', () => {
  // Quiz 1 (BIO-101) is given an access code first, so that every role has something to be shown or not.
  beforeEach(async () => {
    await quizzes(TOKENS.teacher).update({
      course_id: 1,
      id: 1,
      quiz: { access_code: 'osmosis', ip_filter: '10.0.0.0/8' },
    });
  });

  it.each([
    [
      'a student',
      TOKENS.student,
      { ip_filter: '10.0.0.0/8' },
      ['access_code', 'speed_grader_url', 'can_unpublish', 'unpublishable'],
    ],
    [
      'an observer',
      TOKENS.observer,
      { ip_filter: '10.0.0.0/8' },
      ['access_code', 'speed_grader_url', 'can_unpublish', 'unpublishable'],
    ],
    // The designer manages the quiz without grading it.
    [
      'the designer',
      DESIGNER,
      { ip_filter: '10.0.0.0/8', access_code: 'osmosis', can_unpublish: true },
      ['speed_grader_url'],
    ],
    [
      'the teacher',
      TOKENS.teacher,
      { ip_filter: '10.0.0.0/8', access_code: 'osmosis', can_unpublish: true, speed_grader_url: null },
      [],
    ],
  ] as const)('shows %s what real instances show them', async (_who, token, shown, hidden) => {
    const quiz = await quizzes(token).get({ course_id: 1, id: 1 });
    expect(quiz).toMatchObject(shown);
    for (const field of hidden) expect(quiz).not.toHaveProperty(field);
  });
});

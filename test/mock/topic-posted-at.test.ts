// posted_at is when a topic actually posted: a topic delayed again after it posted is unposted until
// its new time, and a delayed topic keeps the time it posted at through later edits.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import { createMockHandler } from '../../src/mock/handler.js';
import { clientFor, freshMock, TOKENS } from '../helpers/mock-client.js';

const BIO = { course_id: 1 };
const NOW = '2026-11-02T12:00:00.000Z';

describe('posted_at of a topic given a delayed_post_at', () => {
  it('a posted topic delayed to a later time is unposted until then, and posted at that time', async () => {
    const mock = freshMock();
    const at = (now: string, token: string = TOKENS.student) =>
      new ApiClient({ baseUrl: 'http://lms.mock', token, transport: createMockHandler({ db: mock.db, now }) }).ops
        .discussions;
    const topic = await clientFor(mock, TOKENS.teacher).ops.discussions.createTopic({
      ...BIO,
      title: 'Field trip',
      published: true,
    });
    expect(topic.posted_at).toBe(NOW);

    const delayed = await at('2026-11-03T08:00:00.000Z', TOKENS.teacher).updateTopic({
      ...BIO,
      topic_id: topic.id,
      delayed_post_at: '2026-12-01T09:00:00Z',
    });
    expect(delayed).toMatchObject({ published: true, delayed_post_at: '2026-12-01T09:00:00.000Z', posted_at: null });
    expect(await at('2026-11-30T00:00:00.000Z').getTopic({ ...BIO, topic_id: topic.id })).toMatchObject({
      posted_at: null,
      locked_for_user: true,
    });
    expect(await at('2026-12-02T00:00:00.000Z').getTopic({ ...BIO, topic_id: topic.id })).toMatchObject({
      posted_at: '2026-12-01T09:00:00.000Z',
      locked_for_user: false,
    });
  });

  it('an edit after the delay has passed keeps the time the topic posted at', async () => {
    const mock = freshMock();
    const at = (now: string) =>
      new ApiClient({
        baseUrl: 'http://lms.mock',
        token: TOKENS.teacher,
        transport: createMockHandler({ db: mock.db, now }),
      }).ops.discussions;
    const topic = await at(NOW).createTopic({
      ...BIO,
      title: 'Reading week',
      published: true,
      delayed_post_at: '2026-11-10T09:00:00Z',
    });
    expect(topic.posted_at).toBeNull();
    const edited = await at('2026-11-20T00:00:00.000Z').updateTopic({
      ...BIO,
      topic_id: topic.id,
      title: 'Reading week (updated)',
    });
    expect(edited).toMatchObject({ title: 'Reading week (updated)', posted_at: '2026-11-10T09:00:00.000Z' });
  });
});

// States and their transitions as real instances move them: a resubmission after grading, and the
// moves of the spec's "States and transitions" table that other tests do not already walk through.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import { createMockHandler } from '../../src/mock/handler.js';
import { SEED_TOPICS as T } from '../../src/mock/areas/discussions/seed.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

const BIO = { course_id: 1 };

describe('a submission resubmitted after grading', () => {
  it('goes back to submitted, keeping its grade, which no longer matches (the seeded one too)', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher).ops.submissions;
    // Mina (11) was graded 20 on her first draft, then sent a revision.
    expect(await teacher.get({ ...BIO, assignment_id: 1, user_id: 11 })).toMatchObject({
      workflow_state: 'submitted',
      grade: '20',
      score: 20,
      attempt: 2,
      grade_matches_current_submission: false,
      grader_id: 3,
      graded_at: '2026-09-17T13:00:00Z',
    });

    // Sam's genetics essay was graded B+; he sends a new attempt.
    const sam = clientFor(mock, TOKENS.student).ops.submissions;
    const before = await teacher.get({ ...BIO, assignment_id: 3, user_id: 7 });
    expect(before).toMatchObject({ workflow_state: 'graded', grade: 'B+', grade_matches_current_submission: true });
    const resubmitted = await sam.submit({
      ...BIO,
      assignment_id: 3,
      submission: { submission_type: 'online_text_entry', body: '<p>Second go</p>' },
    });
    expect(resubmitted).toMatchObject({
      workflow_state: 'submitted',
      attempt: 2,
      grade: 'B+',
      score: before.score,
      entered_grade: 'B+',
      grade_matches_current_submission: false,
      graded_at: before.graded_at,
      grader_id: before.grader_id,
    });
    // A third attempt before anyone grades: still submitted, still not matching.
    const third = await sam.submit({
      ...BIO,
      assignment_id: 3,
      submission: { submission_type: 'online_url', url: 'https://example.edu/v3' },
    });
    expect(third).toMatchObject({
      workflow_state: 'submitted',
      attempt: 3,
      grade: 'B+',
      grade_matches_current_submission: false,
    });
    // It waits for a grader again.
    const essay = await clientFor(mock, TOKENS.teacher).ops.assignments.get({ ...BIO, id: 3 });
    expect(essay.needs_grading_count).toBe(2);
  });

  it('is graded again by the same grade: graded, matching, and the grade now belongs to the new attempt', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher).ops.submissions;
    const versions = () =>
      Number(value(mock.db, 'SELECT count(*) FROM submission_versions WHERE assignment_id = 1 AND user_id = 11'));
    const before = versions();
    const graded = await teacher.grade({ ...BIO, assignment_id: 1, user_id: 11, submission: { posted_grade: '20' } });
    expect(graded).toMatchObject({
      workflow_state: 'graded',
      grade: '20',
      grade_matches_current_submission: true,
      graded_at: '2026-11-02T12:00:00.000Z',
    });
    expect(versions()).toBe(before + 1);
    const history = (await teacher.get({ ...BIO, assignment_id: 1, user_id: 11, include: ['submission_history'] }))
      .submission_history!;
    expect(history.map((h) => [h.attempt, h.workflow_state, h.grade])).toEqual([
      [1, 'submitted', null],
      [2, 'graded', '20'],
    ]);
    // Sent again (a retry), it changes nothing.
    await teacher.grade({ ...BIO, assignment_id: 1, user_id: 11, submission: { posted_grade: '20' } });
    expect(versions()).toBe(before + 1);
  });

  it('is graded again through update_grades by the same grade', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.teacher);
    await admin.ops.grading.updateGrades({ ...BIO, assignment_id: 1, grade_data: { 11: { posted_grade: '20' } } });
    await mock.jobs.idle();
    expect(await admin.ops.submissions.get({ ...BIO, assignment_id: 1, user_id: 11 })).toMatchObject({
      workflow_state: 'graded',
      grade_matches_current_submission: true,
    });
  });
});

describe('the transitions the spec states, where other tests do not walk them', () => {
  it('a topic whose lock_at is ahead is unlocked until then, and locked after', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher).ops.discussions;
    const topic = await teacher.createTopic({
      ...BIO,
      title: 'Locks on Friday',
      published: true,
      lock_at: '2026-11-06T17:00:00Z',
    });
    const student = (now: string) =>
      new ApiClient({
        baseUrl: 'http://lms.mock',
        token: TOKENS.student,
        transport: createMockHandler({ db: mock.db, now }),
      }).ops.discussions;
    expect(await student('2026-11-02T12:00:00.000Z').getTopic({ ...BIO, topic_id: topic.id })).toMatchObject({
      locked: false,
      locked_for_user: false,
    });
    expect(await student('2026-11-07T00:00:00.000Z').getTopic({ ...BIO, topic_id: topic.id })).toMatchObject({
      locked: true,
      locked_for_user: true,
    });
  });

  it(
    'a draft published by update with a delayed_post_at ' + 'ahead is posted at that time, posted_at null until then',
    async () => {
      const mock = freshMock();
      const teacher = clientFor(mock, TOKENS.teacher).ops.discussions;
      const updated = await teacher.updateTopic({
        ...BIO,
        topic_id: T.draft,
        published: true,
        delayed_post_at: '2026-12-01T09:00:00Z',
      });
      expect(updated).toMatchObject({ published: true, delayed_post_at: '2026-12-01T09:00:00.000Z', posted_at: null });
      const at = (now: string) =>
        new ApiClient({
          baseUrl: 'http://lms.mock',
          token: TOKENS.student,
          transport: createMockHandler({ db: mock.db, now }),
        }).ops.discussions;
      expect(await at('2026-11-30T00:00:00.000Z').getTopic({ ...BIO, topic_id: T.draft })).toMatchObject({
        posted_at: null,
        locked_for_user: true,
      });
      expect(await at('2026-12-02T00:00:00.000Z').getTopic({ ...BIO, topic_id: T.draft })).toMatchObject({
        posted_at: '2026-12-01T09:00:00.000Z',
        locked_for_user: false,
      });
    },
  );

  it('reading marks an unread conversation read, and leaves an archived one archived', async () => {
    const mock = freshMock();
    const ravi = clientFor(mock, '9~mock-ravi').ops.conversations;
    expect((await ravi.get({ id: 3 })).workflow_state).toBe('archived');
    expect((await ravi.get({ id: 3 })).workflow_state).toBe('archived');
    const tess = clientFor(mock, TOKENS.teacher).ops.conversations;
    expect((await tess.get({ id: 1, auto_mark_as_read: false })).workflow_state).toBe('unread');
    await tess.get({ id: 1 });
    expect((await tess.get({ id: 1, auto_mark_as_read: false })).workflow_state).toBe('read');
  });

  it('the batch events set each state from any state, archived included', async () => {
    const mock = freshMock();
    const ravi = clientFor(mock, '9~mock-ravi').ops.conversations;
    const progress = await ravi.batchUpdate({ conversation_ids: [3], event: 'mark_as_read' });
    expect(progress).toMatchObject({ workflow_state: 'queued', completion: 0 });
    await mock.jobs.idle();
    expect((await ravi.get({ id: 3 })).workflow_state).toBe('read');
    await ravi.batchUpdate({ conversation_ids: [3], event: 'mark_as_unread' });
    await mock.jobs.idle();
    expect((await ravi.get({ id: 3, auto_mark_as_read: false })).workflow_state).toBe('unread');
    const done = await clientFor(mock, '9~mock-ravi').ops.progress.get({ id: progress.id });
    expect(done).toMatchObject({ workflow_state: 'completed', completion: 100 });
  });

  it('an unsubscribed participant of a group conversation is not flagged unread by a new message', async () => {
    const mock = freshMock();
    const theo = clientFor(mock, TOKENS.otherTeacher).ops.conversations;
    await clientFor(mock, TOKENS.admin).ops.conversations.addMessage({ id: 8, body: 'Agenda attached.' });
    expect(await theo.get({ id: 8, auto_mark_as_read: false })).toMatchObject({
      workflow_state: 'read',
      subscribed: false,
    });
    const tess = await clientFor(mock, TOKENS.teacher).ops.conversations.get({ id: 8, auto_mark_as_read: false });
    expect(tess.workflow_state).toBe('unread');
    expect(await collect(theo.list({ scope: 'unread' }))).toEqual([]);
  });
});

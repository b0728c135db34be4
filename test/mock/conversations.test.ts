// Conversations in the mock, rule by rule, through the API as a client sees it: sending (sync and
// async), the inbox's scopes and filters, each participant's own view, and batch updates.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { Conversation, ConversationBatch } from '../../src/spec/types/conversations.js';
import { generateSchool } from '../../src/mock/generate.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, freshMock, statusOf, TOKENS, failure } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const RAVI = '9~mock-ravi';
const LUCAS = '11~mock-lucas';

/** A raw request, for what an operation's body does not show (status, headers, object-shaped lists). */
async function raw(token: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>) {
  const res = await clientFor(mock, token).send(
    method,
    path,
    method === 'GET' ? { query: body as never } : { body: body as never },
  );
  return {
    status: res.status,
    headers: res.headers,
    body: JSON.parse(String(typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body))) as unknown,
  };
}

const ids = (list: Conversation[]) => list.map((c) => c.id);

describe('the seeded inbox', () => {
  it.each([
    ['the inbox', TOKENS.teacher, {}, [8, 5, 3, 2, 1]],
    ['unread', TOKENS.teacher, { scope: 'unread' }, [8, 5, 1]],
    ['unread, for a participant who unsubscribed', TOKENS.otherTeacher, { scope: 'unread' }, []],
    ['starred', TOKENS.teacher, { scope: 'starred' }, [3]],
    ['sent', TOKENS.teacher, { scope: 'sent' }, [3, 2, 1]],
    ['archived', RAVI, { scope: 'archived' }, [3]],
    ['the inbox without archived', RAVI, {}, []],
    ['a course filter', TOKENS.student, { filter: ['course_1'] }, [4, 2, 1]],
    ['a user filter', TOKENS.teacher, { filter: ['user_9'] }, [3]],
    ['filters, any of them', TOKENS.teacher, { filter: ['user_9', 'group_1'] }, [3, 2]],
    ['filters, all of them', TOKENS.teacher, { filter: ['user_9', 'group_1'], filter_mode: 'and' }, []],
    ['a group filter', TOKENS.otherStudent, { filter: ['group_1'] }, [2]],
  ] as const)('lists %s, most recent first', async (_what, token, params, expected) => {
    expect(ids(await collect(as(token).conversations.list(params as never)))).toEqual(expected);
  });

  it('answers every field of a conversation as the caller sees it', async () => {
    const [c] = await collect(as(TOKENS.student).conversations.list({ filter: ['user_5'] }));
    expect(c).toMatchObject({
      id: 4,
      subject: 'Fwd: Lab report feedback',
      workflow_state: 'unread',
      message_count: 1,
      private: true,
      starred: false,
      subscribed: true,
      audience: [5],
      audience_contexts: { courses: { 1: ['TaEnrollment'] }, groups: {} },
      participants: [
        { id: 5, name: 'Tara', full_name: 'Tara Assistant' },
        { id: 7, name: 'Sam', full_name: 'Sam Student' },
      ],
      visible: true,
      context_code: 'course_1',
      context_name: 'Introduction to Biology',
      last_authored_message: null,
      properties: [],
    });
    expect(c.messages).toBeUndefined();
  });

  it('pages by key, and include_all_conversation_ids answers an object with every id', async () => {
    const paged = await collect(clientFor(mock, TOKENS.teacher, { perPage: 2 }).ops.conversations.list({}));
    expect(ids(paged)).toEqual([8, 5, 3, 2, 1]);
    const r = await raw(TOKENS.teacher, 'GET', '/api/v1/conversations', {
      include_all_conversation_ids: true,
      per_page: 2,
    });
    expect(r.body).toMatchObject({ conversation_ids: [8, 5, 3, 2, 1] });
    expect(ids((r.body as { conversations: Conversation[] }).conversations)).toEqual([8, 5]);
    expect(r.headers.link).toContain('rel="next"');
  });

  it('refuses an unknown filter_mode with the array-shaped 400', async () => {
    expect(await failure(collect(as(TOKENS.teacher).conversations.list({ filter_mode: 'xor' as never })))).toEqual({
      status: 400,
      body: [{ attribute: 'filter_mode', message: 'invalid' }],
    });
  });
});

describe('show, update, delete', () => {
  it(
    'shows messages newest first, marks read unless told ' + 'not to, and adds forwarded authors to the participants',
    async () => {
      const sam = as(TOKENS.student);
      const kept = await sam.conversations.get({ id: 4, auto_mark_as_read: false });
      expect(kept.workflow_state).toBe('unread');
      const c = await sam.conversations.get({ id: 4 });
      expect(c.workflow_state).toBe('read');
      expect(c.submissions).toEqual([]);
      expect(c.participants.map((p) => p.id)).toEqual([5, 7, 3]);
      expect(c.messages![0].forwarded_messages[0]).toMatchObject({
        author_id: 3,
        body: 'Your lab report is missing the data table from week 3.',
      });
      const thread = await as(TOKENS.teacher).conversations.get({ id: 1 });
      expect(thread.messages!.map((m) => m.author_id)).toEqual([7, 3]);
      expect((await as(TOKENS.teacher).conversations.unreadCount({})).unread_count).toBe('2');
    },
  );

  it('carries attachments and media comments, flagged in properties', async () => {
    const group = await as(TOKENS.otherStudent).conversations.get({ id: 2 });
    expect(group.properties).toEqual(['attachments']);
    expect(group.messages![0].attachments[0]).toMatchObject({
      display_name: 'bench-schedule.txt',
      'content-type': 'text/plain',
    });
    const media = await as('10~mock-mina').conversations.get({ id: 7 });
    expect(media.properties).toEqual(['media_objects']);
    expect(media.messages![1].media_comment).toMatchObject({ media_id: 'm-seed-history-1', media_type: 'video' });
  });

  it.each([
    ['someone who does not take part', TOKENS.otherStudent, 1],
    ['an unknown conversation', TOKENS.teacher, 999],
    ['a non-numeric id', TOKENS.teacher, 'abc'],
  ])('answers 404 to %s', async (_what, token, id) => {
    expect(await statusOf(as(token).conversations.get({ id }))).toBe(404);
  });

  it("changes only the caller's state; subscription only where several people write", async () => {
    const c = await as(TOKENS.teacher).conversations.update({
      id: 1,
      conversation: { workflow_state: 'archived', starred: true, subscribed: false },
    });
    expect(c).toMatchObject({ workflow_state: 'archived', starred: true, subscribed: true });
    expect((await as(TOKENS.student).conversations.get({ id: 1 })).starred).toBe(false);
    expect(
      (
        await as(TOKENS.teacher).conversations.update({
          id: 8,
          conversation: { subscribed: false, workflow_state: 'read' },
        })
      ).subscribed,
    ).toBe(false);
    // Unsubscribed, Tess still gets the next message, but neither unread nor on top of her inbox.
    const before = await collect(as(TOKENS.teacher).conversations.list({}));
    await as(TOKENS.admin).conversations.addMessage({ id: 8, body: 'Room changed.' });
    const after = await collect(as(TOKENS.teacher).conversations.list({}));
    expect(ids(after)).toEqual(ids(before));
    expect(after[0]).toMatchObject({ id: 8, workflow_state: 'read', message_count: 2, last_message: 'Room changed.' });
    expect(
      await failure(
        as(TOKENS.teacher).conversations.update({ id: 1, conversation: { workflow_state: 'lost' as never } }),
      ),
    ).toMatchObject({ status: 400 });
  });

  it("deletes the caller's view only, answering message_count 0 and no last message", async () => {
    const gone = await as(TOKENS.teacher).conversations.delete({ id: 1 });
    expect(gone).toMatchObject({ id: 1, visible: false, message_count: 0, last_message: null });
    expect(await statusOf(as(TOKENS.teacher).conversations.get({ id: 1 }))).toBe(404);
    expect(ids(await collect(as(TOKENS.teacher).conversations.list({})))).not.toContain(1);
    expect((await as(TOKENS.student).conversations.get({ id: 1 })).message_count).toBe(2);
    // A new message brings it back to the teacher, with only that message.
    await as(TOKENS.student).conversations.addMessage({ id: 1, body: 'Added the table.' });
    expect((await as(TOKENS.teacher).conversations.get({ id: 1 })).messages!.map((m) => m.body)).toEqual([
      'Added the table.',
    ]);
  });

  it("removes messages from the caller's view; removing the last deletes it for them", async () => {
    const c = await as(TOKENS.teacher).conversations.get({ id: 1 });
    const [newest, oldest] = c.messages!;
    const after = await as(TOKENS.teacher).conversations.removeMessages({ id: 1, remove: [newest.id] });
    expect(after).toMatchObject({ message_count: 1, last_message: oldest.body, visible: true });
    expect((await as(TOKENS.teacher).conversations.removeMessages({ id: 1, remove: [oldest.id] })).visible).toBe(false);
    expect(await statusOf(as(TOKENS.teacher).conversations.get({ id: 1 }))).toBe(404);
    expect((await as(TOKENS.student).conversations.get({ id: 1 })).message_count).toBe(2);
  });

  it('marks everything read, answering exactly {}, and counts unread as a string', async () => {
    expect(await raw(TOKENS.teacher, 'POST', '/api/v1/conversations/mark_all_as_read')).toMatchObject({
      status: 200,
      body: {},
    });
    expect(await as(TOKENS.teacher).conversations.unreadCount({})).toEqual({ unread_count: '0' });
    expect(await collect(as(TOKENS.teacher).conversations.list({ scope: 'unread' }))).toEqual([]);
  });
});

describe('add_message and add_recipients', () => {
  it('adds a message for everyone (unread for the others) or for some participants only', async () => {
    const all = await as(TOKENS.teacher).conversations.addMessage({ id: 2, body: 'Bench 2 moved to Thursday.' });
    expect(all.messages!.map((m) => [m.body, m.participating_user_ids])).toEqual([
      ['Bench 2 moved to Thursday.', [3, 7, 8, 11]],
    ]);
    expect(all.last_authored_message).toBe('Bench 2 moved to Thursday.');
    expect((await as(TOKENS.otherStudent).conversations.get({ id: 2, auto_mark_as_read: false })).workflow_state).toBe(
      'unread',
    );
    const some = await as(TOKENS.teacher).conversations.addMessage({ id: 2, body: 'Sam, see me.', recipients: ['7'] });
    expect(some.messages![0].participating_user_ids).toEqual([3, 7]);
    expect((await as(TOKENS.otherStudent).conversations.get({ id: 2 })).message_count).toBe(2);
    expect(await failure(as(TOKENS.teacher).conversations.addMessage({ id: 2, body: ' ' }))).toEqual({
      status: 400,
      body: {},
    });
  });

  it('adds people to a group conversation: they see it from the start, after a generated message', async () => {
    const c = await as(TOKENS.teacher).conversations.addRecipients({ id: 2, recipients: ['12', '7'] });
    expect(c.messages).toHaveLength(1);
    expect(c.messages![0]).toMatchObject({
      generated: true,
      body: 'Hana Sato was added to the conversation by Tess Teacher',
    });
    expect(c.audience).toEqual([7, 8, 11, 12]);
    const hana = await as('12~mock-hana').conversations.get({ id: 2 });
    expect(hana.messages!.map((m) => m.generated)).toEqual([true, false]);
  });

  it.each([
    ['no recipients', 2, [], { status: 400, body: {} }],
    ['a private conversation', 1, ['9'], { status: 400 }],
    [
      'nobody the caller may message',
      2,
      ['999'],
      { status: 400, body: [{ attribute: 'recipients', message: 'invalid' }] },
    ],
  ] as const)('refuses to add recipients with %s', async (_what, id, recipients, expected) => {
    expect(
      await failure(as(TOKENS.teacher).conversations.addRecipients({ id, recipients: [...recipients] })),
    ).toMatchObject(expected);
  });
});

describe('create (sync)', () => {
  it(
    'sends to one person: 201, one conversation with its message; the private conversation is reused, its subject ' +
      'kept',
    async () => {
      const r = await raw(TOKENS.teacher, 'POST', '/api/v1/conversations', {
        recipients: ['8'],
        subject: 'Lab safety',
        body: 'Goggles on Monday.',
      });
      expect(r.status).toBe(201);
      const [c] = r.body as Conversation[];
      expect(c).toMatchObject({
        subject: 'Lab safety',
        private: true,
        audience: [8],
        message_count: 1,
        workflow_state: 'read',
      });
      expect(c.messages!.map((m) => m.body)).toEqual(['Goggles on Monday.']);
      const [again] = await as(TOKENS.teacher).conversations.create({
        recipients: ['8'],
        subject: 'Other',
        body: 'And gloves.',
      });
      expect(again).toMatchObject({ id: c.id, subject: 'Lab safety', message_count: 2 });
      expect(
        (await as(TOKENS.otherStudent).conversations.get({ id: c.id, auto_mark_as_read: false })).workflow_state,
      ).toBe('unread');
    },
  );

  it('sends to several people as one private conversation each, reusing existing ones, without messages', async () => {
    const made = await as(TOKENS.teacher).conversations.create({
      recipients: ['7', '9', '12'],
      subject: 'Reminder',
      body: 'Reports due Friday.',
    });
    expect(made.map((c) => c.audience[0]).sort((a, b) => a - b)).toEqual([7, 9, 12]);
    expect(made.every((c) => c.private && c.messages === undefined)).toBe(true);
    expect(made.map((c) => c.id)).toEqual(expect.arrayContaining([1, 3]));
    // Ravi had archived his copy: the new message brings it back to his inbox, unread.
    expect((await collect(as(RAVI).conversations.list({ scope: 'unread' }))).map((c) => c.id)).toEqual([3]);
  });

  it('sends one group conversation to a context, resolving synthetic contexts and leaving the sender out', async () => {
    const [c] = await as(TOKENS.teacher).conversations.create({
      recipients: ['course_1_students'],
      group_conversation: true,
      body: 'Quiz moved.',
      subject: 'Quiz',
    });
    expect(c).toMatchObject({ private: false, audience: [7, 8, 9, 10, 11, 12] });
    const [all] = await as(TOKENS.teacher).conversations.create({
      recipients: ['course_1'],
      group_conversation: true,
      body: 'Hello all.',
    });
    expect(all.audience).toEqual([5, 6, 7, 8, 11, 13, 9, 10, 12].sort((a, b) => a - b));
    const [section] = await as(TOKENS.teacher).conversations.create({
      recipients: ['section_2'],
      group_conversation: true,
      body: 'Section B.',
    });
    expect(section.audience).toEqual([9, 10, 12]);
    const [group] = await as(TOKENS.teacher).conversations.create({
      recipients: ['group_2'],
      group_conversation: true,
      body: 'Lab Group 2.',
      context_code: 'group_2',
    });
    expect(group).toMatchObject({ audience: [9, 10, 12], context_code: 'group_2', context_name: 'Lab Group 2' });
    expect(ids(await collect(as('12~mock-hana').conversations.list({ filter: ['group_2'] })))).toEqual([group.id]);
  });

  it('with bulk_message sends a separate group copy to each recipient', async () => {
    const made = await as(TOKENS.teacher).conversations.create({
      recipients: ['7', '8'],
      group_conversation: true,
      bulk_message: true,
      body: 'Your grade is posted.',
    });
    expect(made).toHaveLength(2);
    expect(made.every((c) => !c.private && c.audience.length === 1)).toBe(true);
    expect(made[0].id).not.toBe(1);
  });

  it('with force_new makes a new non-private conversation even for one recipient with a private one', async () => {
    const made = await as(TOKENS.teacher).conversations.create({
      recipients: ['7'],
      force_new: true,
      subject: 'A fresh thread',
      body: 'New topic.',
    });
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ private: false, subject: 'A fresh thread', audience: [7] });
    expect(made[0]!.id).not.toBe(1);
    // without it, the private conversation of the two is reused
    const [reused] = await as(TOKENS.teacher).conversations.create({ recipients: ['7'], body: 'Same thread.' });
    expect(reused!.id).toBe(1);
  });

  it("attaches the sender's uploaded files, and only those", async () => {
    const [c] = await as(TOKENS.teacher).conversations.create({
      recipients: ['7'],
      body: 'Schedule again.',
      attachment_ids: [1],
    });
    expect(c.messages![0].attachments.map((a) => a.id)).toEqual([1]);
    expect(
      await failure(as(TOKENS.student).conversations.create({ recipients: ['3'], body: 'Mine?', attachment_ids: [1] })),
    ).toEqual({
      status: 400,
      body: [{ attribute: 'attachment_ids', message: 'invalid' }],
    });
  });

  it.each([
    ['no recipients', TOKENS.teacher, { recipients: [], body: 'x' }, [{ attribute: 'recipients', message: 'blank' }]],
    ['a blank body', TOKENS.teacher, { recipients: ['7'], body: '  ' }, [{ attribute: 'body', message: 'blank' }]],
    [
      'only unknown recipients',
      TOKENS.teacher,
      { recipients: ['999', 'course_99'], body: 'x' },
      [{ attribute: 'recipients', message: 'invalid' }],
    ],
    [
      'someone the sender shares nothing with',
      TOKENS.student,
      { recipients: ['4'], body: 'x' },
      [{ attribute: 'recipients', message: 'invalid' }],
    ],
    [
      'a course the sender is not in',
      TOKENS.student,
      { recipients: ['course_4'], body: 'x' },
      [{ attribute: 'recipients', message: 'restricted by role' }],
    ],
    [
      "a context_code outside the sender's",
      TOKENS.student,
      { recipients: ['8'], body: 'x', context_code: 'course_3' },
      [{ attribute: 'context_code', message: 'invalid' }],
    ],
    [
      'a media comment of no known type',
      TOKENS.teacher,
      { recipients: ['7'], body: 'x', media_comment_id: 'm1', media_comment_type: 'gif' },
      [{ attribute: 'media_comment_type', message: 'invalid' }],
    ],
    [
      'an unknown mode',
      TOKENS.teacher,
      { recipients: ['7'], body: 'x', mode: 'later' },
      [{ attribute: 'mode', message: 'invalid' }],
    ],
  ] as const)('refuses %s with the array-shaped 400, creating nothing', async (_what, token, params, body) => {
    const before = await collect(as(TOKENS.teacher).conversations.list({ scope: 'sent' }));
    expect(await failure(as(token).conversations.create(params as never))).toEqual({ status: 400, body });
    expect(await collect(as(TOKENS.teacher).conversations.list({ scope: 'sent' }))).toEqual(before);
  });

  it('caps a group conversation at 100 recipients, but not a bulk send', async () => {
    generateSchool(mock.db, { users: 120, courses: 1, now: '2026-11-01T00:00:00Z' });
    const tooMany = await failure(
      as(TOKENS.admin).conversations.create({ recipients: ['course_6_students'], group_conversation: true, body: 'x' }),
    );
    expect(tooMany).toEqual({
      status: 400,
      body: [{ attribute: 'recipients', message: 'too many for group conversation' }],
    });
    const bulk = await as(TOKENS.admin).conversations.create({
      recipients: ['course_6_students'],
      group_conversation: true,
      bulk_message: true,
      body: 'x',
    });
    expect(bulk).toHaveLength(120);
  });
});

describe('messaging the class as a whole (send_messages_all)', () => {
  const RESTRICTED = { status: 400, body: [{ attribute: 'recipients', message: 'restricted by role' }] };
  // Tara's TA role is limited to section A (section 1); she reaches the class there.
  const SENDERS = [
    ['a teacher', TOKENS.teacher, true],
    ['a TA', TOKENS.ta, true],
    ['an admin', TOKENS.admin, true],
    ['a student', TOKENS.student, false],
    ['an observer', TOKENS.observer, false],
  ] as const;
  const CLASSES = ['course_1', 'course_1_students', 'course_1_observers', 'section_1', 'section_1_students'];

  it.each(SENDERS.flatMap(([who, token, may]) => CLASSES.map((to) => [who, to, token, may] as const)))(
    '%s, to %s',
    async (_who, to, token, may) => {
      const before = (await collect(as(token).conversations.list({ scope: 'sent' }))).length;
      const made = as(token).conversations.create({ recipients: [to], body: 'To everyone.', group_conversation: true });
      if (may) {
        expect((await made)[0].audience.length).toBeGreaterThan(0);
      } else {
        expect(await failure(made)).toEqual(RESTRICTED);
        // Named beside a person it may message, a class within reach still refuses the whole message
        // (an observer's reach has no sections: one named is dropped, as any context out of reach).
        if (token === TOKENS.student || to.startsWith('course_')) {
          expect(
            await failure(as(token).conversations.create({ recipients: ['3', to], body: 'To everyone.' })),
          ).toEqual(RESTRICTED);
        }
        expect((await collect(as(token).conversations.list({ scope: 'sent' }))).length).toBe(before);
      }
    },
  );

  it("leaves a student's messages to people, to a group and to the course's instructors as they were", async () => {
    for (const recipients of [['8'], ['group_1'], ['course_1_teachers'], ['course_1_tas']]) {
      const [c] = await as(TOKENS.student).conversations.create({
        recipients,
        body: 'Hello',
        group_conversation: true,
      });
      expect(c.audience.length, recipients.join()).toBeGreaterThan(0);
    }
  });

  it('refuses adding the class to a conversation as it refuses starting one', async () => {
    const [c] = await as(TOKENS.student).conversations.create({
      recipients: ['3', '8'],
      body: 'Hello',
      group_conversation: true,
    });
    expect(
      await failure(as(TOKENS.student).conversations.addRecipients({ id: c.id, recipients: ['course_1_students'] })),
    ).toEqual(RESTRICTED);
    const [t] = await as(TOKENS.teacher).conversations.create({
      recipients: ['5', '7'],
      body: 'Hello',
      group_conversation: true,
    });
    expect(
      (await as(TOKENS.teacher).conversations.addRecipients({ id: t.id, recipients: ['course_1_students'] })).audience
        .length,
    ).toBeGreaterThan(2);
  });
});

describe('create (async) and batches', () => {
  it(
    'answers 202 [] with the batch id at once, and ' + 'delivers in the background while the batch is watched',
    async () => {
      generateSchool(mock.db, { users: 300, courses: 1, now: '2026-11-01T00:00:00Z' });
      const r = await raw(TOKENS.admin, 'POST', '/api/v1/conversations', {
        recipients: ['course_6_students'],
        subject: 'Welcome',
        body: 'Welcome to the course.',
        mode: 'async',
      });
      expect(r.status).toBe(202);
      expect(r.body).toEqual([]);
      const batchId = Number(r.headers['x-conversation-batch-id']);
      const seen: { batch: ConversationBatch; delivered: number }[] = [];
      for (;;) {
        const batch = (await as(TOKENS.admin).conversations.batches({})).find((b) => b.id === batchId);
        if (!batch) break;
        const delivered = (await collect(as(TOKENS.admin).conversations.list({ scope: 'sent', filter: ['course_6'] })))
          .length;
        seen.push({ batch, delivered });
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      expect(seen[0].batch).toMatchObject({
        workflow_state: 'created',
        completion: 0,
        recipient_count: 300,
        subject: 'Welcome',
        tags: ['course_6'],
      });
      expect(seen[0].batch.message).toMatchObject({ body: 'Welcome to the course.', author_id: 1 });
      const sending = seen.filter((s) => s.batch.workflow_state === 'sending');
      expect(sending.length).toBeGreaterThan(5);
      // Completion grows, and the conversations appear as it proceeds.
      for (let i = 1; i < seen.length; i++)
        expect(seen[i].batch.completion).toBeGreaterThanOrEqual(seen[i - 1].batch.completion);
      for (const s of sending) expect(s.delivered).toBe(Math.round(s.batch.completion * 300));
      await mock.jobs.idle();
      const sent = await collect(as(TOKENS.admin).conversations.list({ scope: 'sent', filter: ['course_6'] }));
      expect(sent).toHaveLength(300);
      expect(sent.every((c) => c.private && c.subject === 'Welcome' && c.audience.length === 1)).toBe(true);
    },
  );

  it('drops a batch whose every delivery failed from the list, with its Progress failed', async () => {
    const r = await raw(TOKENS.teacher, 'POST', '/api/v1/conversations', {
      recipients: ['7', '8'],
      body: 'x',
      mode: 'async',
    });
    const batchId = Number(r.headers['x-conversation-batch-id']);
    mock.db.prepare(`UPDATE users SET workflow_state = 'deleted' WHERE id IN (7, 8)`).run();
    await mock.jobs.idle();
    expect(await as(TOKENS.teacher).conversations.batches({})).toEqual([]);
    expect(
      (
        mock.db.prepare(`SELECT workflow_state FROM conversation_batches WHERE id = ?`).get(batchId) as {
          workflow_state: string;
        }
      ).workflow_state,
    ).toBe('error');
    const progressId = (
      mock.db.prepare(`SELECT progress_id FROM conversation_batches WHERE id = ?`).get(batchId) as {
        progress_id: number;
      }
    ).progress_id;
    expect(await as(TOKENS.teacher).progress.get({ id: progressId })).toMatchObject({
      workflow_state: 'failed',
      tag: 'conversation_batch',
    });
  });

  it('sends one recipient (or one group conversation) at once even when asked for async', async () => {
    const r = await raw(TOKENS.teacher, 'POST', '/api/v1/conversations', {
      recipients: ['7'],
      body: 'x',
      mode: 'async',
    });
    expect(r.status).toBe(201);
    expect(r.headers['x-conversation-batch-id']).toBeUndefined();
  });
});

describe('batch update (PUT /api/v1/conversations)', () => {
  it.each([
    ['no conversation_ids', { event: 'star' }, 'conversation_ids not specified'],
    ['conversation_ids that is not a list', { conversation_ids: '1', event: 'star' }, 'conversation_ids not specified'],
    [
      'more than 500 ids',
      { conversation_ids: Array.from({ length: 501 }, (_, i) => String(i + 1)), event: 'star' },
      'conversation batch size limit (500) exceeded',
    ],
    ['no event', { conversation_ids: ['1'] }, 'event not specified'],
    ['an unknown event', { conversation_ids: ['1'], event: 'explode' }, 'invalid event'],
  ])('refuses %s with {"message"}', async (_what, body, message) => {
    expect(await failure(raw(TOKENS.teacher, 'PUT', '/api/v1/conversations', body))).toEqual({
      status: 400,
      body: { message },
    });
  });

  it.each([
    ['mark_as_read', { workflow_state: 'read' }],
    ['mark_as_unread', { workflow_state: 'unread' }],
    ['archive', { workflow_state: 'archived' }],
    ['star', { starred: true }],
  ] as const)('applies %s in the background through a Progress', async (event, expected) => {
    const started = await as(TOKENS.teacher).conversations.batchUpdate({ conversation_ids: [1, 2, 8], event });
    expect(started).toMatchObject({
      tag: 'conversation_batch_update',
      workflow_state: 'queued',
      completion: 0,
      context_type: 'User',
      context_id: 3,
      user_id: 3,
    });
    await mock.jobs.idle();
    expect(await as(TOKENS.teacher).progress.get({ id: started.id })).toMatchObject({
      workflow_state: 'completed',
      completion: 100,
      message: '3 items processed',
    });
    for (const id of [1, 2, 8])
      expect(await as(TOKENS.teacher).conversations.get({ id, auto_mark_as_read: false })).toMatchObject(expected);
  });

  it("destroys the caller's view, unstars, and reports the ids the caller does not take part in", async () => {
    const started = await as(TOKENS.teacher).conversations.batchUpdate({
      conversation_ids: [3, 4, 1],
      event: 'unstar',
    });
    await mock.jobs.idle();
    expect(await as(TOKENS.teacher).progress.get({ id: started.id })).toMatchObject({
      workflow_state: 'completed',
      message: '3 items processed\nThe user is not participating in this conversation: 4',
    });
    expect((await as(TOKENS.teacher).conversations.get({ id: 3 })).starred).toBe(false);
    const destroy = await as(TOKENS.teacher).conversations.batchUpdate({ conversation_ids: [1, 2], event: 'destroy' });
    await mock.jobs.idle();
    expect((await as(TOKENS.teacher).progress.get({ id: destroy.id })).workflow_state).toBe('completed');
    expect(ids(await collect(as(TOKENS.teacher).conversations.list({})))).toEqual([8, 5, 3]);
    expect((await as(TOKENS.student).conversations.get({ id: 1 })).message_count).toBe(2);
    const none = await as(LUCAS).conversations.batchUpdate({ conversation_ids: [1, 3], event: 'archive' });
    await mock.jobs.idle();
    expect((await as(LUCAS).progress.get({ id: none.id })).workflow_state).toBe('failed');
  });

  it('archives 500 conversations in one batch', async () => {
    generateSchool(mock.db, { users: 500, courses: 1, now: '2026-11-01T00:00:00Z' });
    await as(TOKENS.admin).conversations.create({ recipients: ['course_6_students'], body: 'Hello' });
    const sent = await collect(as(TOKENS.admin).conversations.list({ filter: ['course_6'] }));
    expect(sent).toHaveLength(500);
    const started = await as(TOKENS.admin).conversations.batchUpdate({
      conversation_ids: sent.map((c) => c.id),
      event: 'archive',
    });
    await mock.jobs.idle();
    expect(await as(TOKENS.admin).progress.get({ id: started.id })).toMatchObject({
      workflow_state: 'completed',
      message: '500 items processed',
    });
    expect(await collect(as(TOKENS.admin).conversations.list({ filter: ['course_6'] }))).toEqual([]);
    expect(
      await collect(as(TOKENS.admin).conversations.list({ scope: 'archived', filter: ['course_6'] })),
    ).toHaveLength(500);
  });
});

// Conversation rules where the mock once answered otherwise: which batches GET batches lists, and
// what mark_all_as_read does to an archived conversation.
import { describe, expect, it } from 'vitest';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

const RAVI = '9~mock-ravi';

describe('GET /api/v1/conversations/batches', () => {
  it('lists a batch while it is created or sending, and not once it has failed', async () => {
    const mock = freshMock();
    const tess = clientFor(mock, TOKENS.teacher);
    const res = await tess.send('POST', '/api/v1/conversations', {
      body: { recipients: ['7', '8'], body: 'x', mode: 'async' } as never,
    });
    const batchId = Number(res.headers['x-conversation-batch-id']);
    expect((await tess.ops.conversations.batches({})).map((b) => [b.id, b.workflow_state])).toEqual([
      [batchId, 'created'],
    ]);
    // Every recipient is gone by the time the batch is delivered.
    mock.db.prepare(`UPDATE users SET workflow_state = 'deleted' WHERE id IN (7, 8)`).run();
    await mock.jobs.idle();
    expect(value(mock.db, `SELECT workflow_state FROM conversation_batches WHERE id = ?`, batchId)).toBe('error');
    expect(await tess.ops.conversations.batches({})).toEqual([]);
  });
});

describe('POST /api/v1/conversations/mark_all_as_read', () => {
  it('marks every conversation read, an archived one included', async () => {
    const mock = freshMock();
    const ravi = clientFor(mock, RAVI).ops.conversations;
    expect((await ravi.get({ id: 3, auto_mark_as_read: false })).workflow_state).toBe('archived');
    expect(await ravi.markAllRead({})).toEqual({});
    expect((await ravi.get({ id: 3, auto_mark_as_read: false })).workflow_state).toBe('read');
    expect(await collect(ravi.list({ scope: 'archived' }))).toEqual([]);
    const tess = clientFor(mock, TOKENS.teacher).ops.conversations;
    await tess.markAllRead({});
    expect((await tess.unreadCount({})).unread_count).toBe('0');
  });
});

// End to end: conversations as the built binary sends them to `lms mock serve` over HTTP — an async
// send to 500 people delivered in the server's background and followed to its end, then a batch
// update of those 500 conversations, and the inbox of another user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { env } = e2eWorkspace('e2e-conversations');
let server: Served;
let http: Record<string, string>;

const lms = (line: string[], token = ADMIN, input?: string) => spawnLms(line, { ...http, LMS_TOKEN: token }, input);

async function json(line: string[], token?: string): Promise<unknown> {
  const r = await lms([...line, '-o', 'json'], token);
  expect(r.exitCode, `${line.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as unknown;
}

beforeAll(async () => {
  await ensureBuilt();
  // The seeded school and a generated course (id 6) of 500 people.
  const seeded = await spawnLms(['mock', 'seed', '--yes', '--users', '500', '--courses', '1'], env);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  server = await serveMock(env, ['--quiet']);
  http = { ...env, LMS_BASE_URL: server.url };
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('lms conv over HTTP', () => {
  it('sends to 500 people with --async, following the batch in the server to its end, then archives the 500 in one ' +
    'batch', async () => {
    const sent = await lms([
      'conv',
      'send',
      '--to',
      'course_6',
      '--subject',
      'Welcome',
      '--body',
      'Welcome to the course.',
      '--async',
      '-v',
      '-o',
      'json',
    ]);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ workflow_state: 'sent', recipient_count: 500, completion: 1 });
    expect(sent.stderr).toMatch(/batch \d+ 100% sent, 500\/500 sent/);

    const conversations = (await json([
      'conv',
      'list',
      '--filter',
      'course_6',
      '--all',
      '--fields',
      'id,subject,private',
    ])) as { id: number; subject: string; private: boolean }[];
    expect(conversations).toHaveLength(500);
    expect(conversations.every((c) => c.subject === 'Welcome' && c.private)).toBe(true);

    const ids = conversations.map((c) => c.id).join('\n');
    const archived = await lms(
      [
        'conv',
        'batch',
        '--ids-file',
        '-',
        '--event',
        'archive',
        '-v',
        '-o',
        'json',
        '--fields',
        'workflow_state,message',
      ],
      ADMIN,
      ids,
    );
    expect(archived.exitCode, archived.stderr).toBe(0);
    expect(JSON.parse(archived.stdout)).toEqual({ workflow_state: 'completed', message: '500 items processed' });
    expect(archived.stderr).toMatch(/archive 500 100% completed/);
    expect(await json(['conv', 'list', '--filter', 'course_6', '--all', '--fields', 'id'])).toEqual([]);
    expect(
      await json(['conv', 'list', '--scope', 'archived', '--filter', 'course_6', '--all', '--fields', 'id']),
    ).toHaveLength(500);
  }, 60_000);

  it('returns at once with --no-wait while the server delivers, and the batch is seen moving', async () => {
    const started = (await json([
      'conv',
      'send',
      '--to',
      'course_6_students',
      '--body',
      'Reminder',
      '--async',
      '--no-wait',
    ])) as { batch_id: number; recipient_count: number };
    expect(started.batch_id).toBeGreaterThan(0);
    const seen: number[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${server.url}/api/v1/conversations/batches`, {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      const batch = ((await res.json()) as { id: number; completion: number }[]).find((b) => b.id === started.batch_id);
      if (!batch) break;
      seen.push(batch.completion);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen.some((c) => c > 0 && c < 1)).toBe(true);
    expect(await json(['conv', 'batches'])).toEqual([]);
  }, 60_000);

  it('shows a student their inbox, a message read and a reply, and searches recipients', async () => {
    const SAM = '7~mock-sam';
    expect(await json(['conv', 'list', '--scope', 'unread', '--fields', 'id,subject'], SAM)).toEqual([
      { id: 4, subject: 'Fwd: Lab report feedback' },
    ]);
    const c = (await json(['conv', 'get', '4'], SAM)) as {
      workflow_state: string;
      messages: { forwarded_messages: unknown[] }[];
    };
    expect(c.workflow_state).toBe('read');
    expect(c.messages[0].forwarded_messages).toHaveLength(1);
    expect(await json(['conv', 'reply', '4', '--body', 'Got it, thanks.', '--fields', 'message_count'], SAM)).toEqual({
      message_count: 2,
    });
    expect(await json(['conv', 'unread'], SAM)).toEqual({ unread_count: 0 });
    expect(await json(['recipients', 'search', 'tara', '--fields', 'id,full_name'], SAM)).toEqual([
      { id: 5, full_name: 'Tara Assistant' },
    ]);
  }, 60_000);
});

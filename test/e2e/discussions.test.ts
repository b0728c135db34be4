// End to end: lms topics and lms announcements as the built binary runs them against `lms mock
// serve`, whose full topic view answers 503 for a while after each write (LMS_MOCK_VIEW_DELAY_MS):
// the command still gets the view, because the client asks again by itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const TEACHER = '3~mock-tteacher';
const STUDENT = '7~mock-sam';
const RAVI = '9~mock-ravi';

const { dir, env } = e2eWorkspace('e2e-discussions');
let server: Served;
/** A server whose view, once out of date, stays so for ten minutes: what --new-entries is for. */
let slow: Served;

function lms(line: string[], token = ADMIN, input?: string, on = server) {
  return spawnLms(line, { ...env, LMS_BASE_URL: on.url, LMS_TOKEN: token }, input);
}

async function json(line: string[], token?: string, input?: string, on = server): Promise<unknown> {
  const r = await lms([...line, '-o', 'json'], token, input, on);
  expect(r.exitCode, `${line.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as unknown;
}

beforeAll(async () => {
  await ensureBuilt();
  [server, slow] = await Promise.all([
    serveMock({ ...env, LMS_MOCK_VIEW_DELAY_MS: '3000' }, ['--quiet']),
    serveMock({ ...env, LMS_MOCK_DB: join(dir, 'slow.db'), LMS_MOCK_VIEW_DELAY_MS: '600000' }, ['--quiet']),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), slow?.stop()]);
});

describe('lms topics over HTTP', () => {
  it('lists topics and announcements of a course and a group', async () => {
    const [topics, announcements, group] = await Promise.all([
      json(['topics', 'list', '--course', 'sis_course_id:BIO-101', '--fields', 'id,title'], STUDENT),
      json(['announcements', 'list', '--course', '1', '--fields', 'id,is_announcement'], STUDENT),
      json(['topics', 'list', '--group', '1', '--fields', 'id,root_topic_id'], STUDENT),
    ]);
    expect((topics as { id: number }[]).map((t) => t.id)).toEqual([2, 3, 4, 5, 6, 7, 9]);
    expect(announcements).toEqual([{ id: 1, is_announcement: true }]);
    expect(group).toEqual([
      { id: 10, root_topic_id: 9 },
      { id: 13, root_topic_id: null },
    ]);
  });

  it('posts with a message from stdin and an attachment, and the view answers after its rebuild', async () => {
    const file = join(dir, 'figure.txt');
    writeFileSync(file, 'absorbance 0.42\n');
    const entry = (await json(
      ['topics', 'post', '3', '--course', '1', '--message-file', '-', '--attach', file],
      STUDENT,
      '<p>My results</p>',
    )) as {
      id: number;
      message: string;
      attachment: { url: string; size: number };
    };
    expect(entry).toMatchObject({ message: '<p>My results</p>', attachment: { size: 16 } });
    expect(entry.attachment.url.startsWith(`${server.url}/files/`)).toBe(true);
    // Right after the write the server's view is still being rebuilt (503, for 3 s: longer than a command takes to
    // start on a busy machine); the command waits it out.
    const r = await lms(['topics', 'view', '3', '--course', '1', '-o', 'json', '-v'], TEACHER);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/retry .*503|503 GET/);
    const view = JSON.parse(r.stdout) as { view: { id: number }[] };
    expect(view.view.map((e) => e.id)).toContain(entry.id);
  });

  it('takes the last view with what came since, with --new-entries, while it is rebuilt', async () => {
    await json(['topics', 'view', '2', '--course', '1'], TEACHER, undefined, slow);
    const reply = (await json(
      ['topics', 'reply', '2', '4', '--course', '1', '--message', '<p>Welcome, Ravi</p>'],
      STUDENT,
      undefined,
      slow,
    )) as { id: number };
    const view = (await json(['topics', 'view', '2', '--course', '1', '--new-entries'], TEACHER, undefined, slow)) as {
      view: { id: number }[];
      new_entries: { id: number }[];
    };
    expect(view.view.map((e) => e.id)).toEqual([1, 4, 6]);
    expect(view.new_entries.map((e) => e.id)).toEqual([reply.id]);
  });

  it('creates, updates and deletes a teacher\u2019s topic: a draft until published', async () => {
    const created = (await json(
      ['topics', 'create', '--course', '1', '--title', 'Exam prep', '--discussion-type', 'threaded'],
      TEACHER,
    )) as { id: number; published: boolean };
    expect(created.published).toBe(false);
    expect(
      await json(
        ['topics', 'update', String(created.id), '--course', '1', '--publish', '--fields', 'published'],
        TEACHER,
      ),
    ).toEqual({ published: true });
    const deleted = (await json(['topics', 'delete', String(created.id), '--course', '1', '--yes'], TEACHER)) as {
      discussion_topic: { workflow_state: string };
    };
    expect(deleted.discussion_topic.workflow_state).toBe('deleted');
  });

  it('exits 3 with require_initial_post until the student posts, and 3 for an edit by another student', async () => {
    const gated = await lms(['topics', 'entries', '4', '--course', '1'], RAVI);
    expect(gated.exitCode).toBe(3);
    expect(gated.stderr).toContain('require_initial_post');
    const edit = await lms(['topics', 'edit-entry', '2', '1', '--course', '1', '--message', 'not mine'], RAVI);
    expect(edit.exitCode).toBe(3);
  });

  it('marks read state and subscriptions per user', async () => {
    const hana = '12~mock-hana';
    expect((await lms(['topics', 'read-all', '5', '--course', '1'], hana)).exitCode).toBe(0);
    expect((await lms(['topics', 'unsubscribe', '5', '--course', '1'], hana)).exitCode).toBe(0);
    expect(
      await json(['topics', 'get', '5', '--course', '1', '--fields', 'read_state,unread_count,subscribed'], hana),
    ).toEqual({ read_state: 'read', unread_count: 0, subscribed: false });
    expect(await json(['topics', 'get', '5', '--course', '1', '--fields', 'read_state'], RAVI)).toEqual({
      read_state: 'unread',
    });
  });
});

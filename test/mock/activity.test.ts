// The activity stream: items other areas publish, per-user read state, newest first, 21 a page,
// and its summary; lms activity with --summary and --watch.
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/mock/areas/activity/repo.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';
import { session } from '../helpers/run-lms.js';

const LUCAS = '11~mock-lucas';

describe('the activity stream', () => {
  it('holds the seeded invitation of an invited student, as a Message with its category and course', async () => {
    const items = await collect(clientFor(freshMock(), TOKENS.admin, { asUser: '11' }).ops.users.activityStream({}));
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

  it('gets a new invitation on top when someone is enrolled as invited, and none for an active enrolment', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    await admin.ops.enrollments.enrollCourse({ course_id: 3, enrollment: { user_id: 13, type: 'StudentEnrollment' } });
    await admin.ops.enrollments.enrollCourse({ course_id: 5, enrollment: { user_id: 13, type: 'TaEnrollment', enrollment_state: 'active' } });
    const olive = await collect(clientFor(mock, TOKENS.observer).ops.users.activityStream({}));
    expect(olive.map((i) => i.title)).toEqual(['Course invitation: World History']);
    expect(olive[0]).toMatchObject({ course_id: 3, read_state: false });
  });

  it('pages 21 at a time by default, newest first, without repeating or skipping', async () => {
    const mock = freshMock();
    for (let n = 1; n <= 30; n++) {
      sendMessage(mock.db, { user: 7, category: 'Grading', subject: `Note ${n}`, body: 'b', context: null, now: `2026-11-0${1 + Math.floor(n / 10)}T10:${String(n).padStart(2, '0')}:00.000Z` });
    }
    const sam = clientFor(mock, TOKENS.student, { perPage: undefined });
    const firstPage: unknown[] = [];
    for await (const i of sam.ops.users.activityStream({}, { limit: 21 })) firstPage.push(i);
    expect(firstPage).toHaveLength(21);
    const all = await collect(clientFor(mock, TOKENS.student, { perPage: 4 }).ops.users.activityStream({}));
    expect(all.map((i) => i.title)).toEqual(Array.from({ length: 30 }, (_, k) => `Note ${30 - k}`));
  });

  it('cuts a message at 4 KB and leaves out an item whose asset is gone', async () => {
    const mock = freshMock();
    sendMessage(mock.db, { user: 7, category: 'Grading', subject: 'Long', body: 'x'.repeat(5000), context: null, now: '2026-11-01T10:00:00.000Z' });
    const gone = sendMessage(mock.db, { user: 7, category: 'Grading', subject: 'Gone', body: 'y', context: null, now: '2026-11-01T11:00:00.000Z' });
    mock.db.prepare(`DELETE FROM messages WHERE id = ?`).run(gone);
    const items = await collect(clientFor(mock, TOKENS.student).ops.users.activityStream({}));
    expect(items.map((i) => [i.title, i.message?.length])).toEqual([['Long', 4096]]);
  });

  it('summarises by type and category, unread and all', async () => {
    const mock = freshMock();
    sendMessage(mock.db, { user: 11, category: 'Grading', subject: 'Graded', body: 'b', context: { type: 'Course', id: 1 }, now: '2026-11-01T10:00:00.000Z' });
    const summary = await clientFor(mock, LUCAS).ops.users.activityStreamSummary({});
    expect(summary).toEqual([
      { type: 'Message', notification_category: 'Grading', count: 1, unread_count: 1 },
      { type: 'Message', notification_category: 'Invitation', count: 1, unread_count: 1 },
    ]);
  });

  it('answers the same at /users/activity_stream', async () => {
    const lucas = clientFor(freshMock(), LUCAS);
    expect(await collect(lucas.ops.users.activityStreamAlias({}))).toEqual(await collect(lucas.ops.users.activityStream({})));
  });
});

describe('lms activity', () => {
  it('lists the stream as a table, and --summary counts it', async () => {
    const lms = session();
    const table = await lms.run('activity', { tty: true, env: { LMS_TOKEN: LUCAS } });
    expect(table.stdout).toMatch(/^ID\s+TYPE\s+TITLE/);
    expect(table.stdout).toMatch(/Message\s+Course invitation/);
    const summary = await lms.run('activity --summary -o json', { env: { LMS_TOKEN: LUCAS } });
    expect(JSON.parse(summary.stdout)).toEqual([{ type: 'Message', notification_category: 'Invitation', count: 1, unread_count: 1 }]);
  });

  it('--watch prints what is there, then what arrives, as NDJSON when piped', async () => {
    const lms = session();
    const watching = lms.run('activity --watch --interval 0.02 --limit 3', { env: { LMS_TOKEN: TOKENS.observer } });
    const admin = clientFor(lms.mock, TOKENS.admin);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await admin.ops.enrollments.enrollCourse({ course_id: 3, enrollment: { user_id: 13, type: 'StudentEnrollment' } });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await admin.ops.enrollments.enrollCourse({ course_id: 2, enrollment: { user_id: 13, type: 'StudentEnrollment' } });
    await admin.ops.enrollments.enrollCourse({ course_id: 5, enrollment: { user_id: 13, type: 'StudentEnrollment' } });
    const r = await watching;
    expect(r.exitCode).toBe(0);
    const titles = r.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { title: string }).title);
    expect(titles).toEqual(['Course invitation: World History', 'Course invitation: Organic Chemistry', 'Course invitation: Biology Lab']);
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

import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { collect, TOKENS, clientFor, freshMock, statusOf } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string, extra?: { perPage?: number; asUser?: string }) => clientFor(mock, token, extra).ops.users;

describe('authentication', () => {
  it('answers 401 without a token, and 401 with WWW-Authenticate for a bad one', async () => {
    const none = await mock.handler({ method: 'GET', url: 'http://lms.mock/api/v1/users/self', headers: {} });
    expect(none.status).toBe(401);
    expect(JSON.parse(String(none.body))).toEqual({
      status: 'unauthenticated',
      errors: [{ message: 'user authorization required' }],
    });
    const bad = await mock.handler({
      method: 'GET',
      url: 'http://lms.mock/api/v1/users/self',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="canvas-lms"');
  });

  it('answers an unknown route with 404 in the API error shape', async () => {
    const res = await mock.handler({
      method: 'GET',
      url: 'http://lms.mock/api/v1/nothing/here',
      headers: { authorization: `Bearer ${TOKENS.admin}` },
    });
    expect(res.status).toBe(404);
    expect(JSON.parse(String(res.body))).toEqual({ errors: [{ message: 'The specified resource does not exist.' }] });
  });
});

describe('users list', () => {
  it('pages with absolute Link URLs built from the request host', async () => {
    const res = await mock.handler({
      method: 'GET',
      url: 'http://127.0.0.1:9/api/v1/accounts/1/users?per_page=5',
      headers: { authorization: `Bearer ${TOKENS.admin}` },
    });
    expect(JSON.parse(String(res.body))).toHaveLength(5);
    expect(res.headers.link).toMatch(
      /<http:\/\/127\.0\.0\.1:9\/api\/v1\/accounts\/1\/users\?page=bookmark:[\w-]+&per_page=5>; rel="next"/,
    );
    // Counting a large list is what the keyset avoids: no rel="last", as real instances do.
    expect(res.headers.link).not.toContain('rel="last"');
    const all = await collect(as(TOKENS.admin, { perPage: 5 }).list({ account_id: 1 }));
    expect(all.map((u) => u.id)).toHaveLength(13);
    expect(new Set(all.map((u) => u.id)).size).toBe(13);
  });

  it.each([
    ['name', 'okafor', [10]],
    ['login', 'sofia', [8]],
    ['SIS id', 'S-00', [7, 8, 9]],
    ['email', 'tara@exa', [5]],
  ])('searches by %s', async (_what, term, ids) => {
    const found = await collect(as(TOKENS.admin).list({ account_id: 1, search_term: term }));
    expect(found.map((u) => u.id).sort((a, b) => a - b)).toEqual(ids);
  });

  it('rejects a search term under 3 characters with 400', async () => {
    const error = await collect(as(TOKENS.admin).list({ account_id: 1, search_term: 'ab' })).catch((e: ApiError) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).messages).toEqual(['3 or more characters is required']);
  });

  it.each([
    ['admin', TOKENS.admin, 'ok'],
    ['helpdesk admin', TOKENS.helpdesk, 'ok'],
    ['teacher', TOKENS.teacher, 401],
    ['student', TOKENS.student, 401],
  ] as const)('lets the %s list account users: %s', async (_who, token, expected) => {
    expect(await statusOf(collect(as(token).list({ account_id: 1 })))).toBe(expected);
  });
});

describe("a course's users", () => {
  const courses = (token: string) => clientFor(mock, token).ops.courses;

  it.each([
    ['name', 'okafor', [10]],
    ['login', 'sofia', [8]],
    ['SIS id', 'S-01', [10, 11, 12]],
    ['email', 'ravi@example', [9]],
  ])('searches by %s', async (_what, term, ids) => {
    const found = await collect(courses(TOKENS.teacher).users({ course_id: 1, search_term: term }));
    expect(found.map((u) => u.id).sort((a, b) => a - b)).toEqual(ids);
  });

  it('lists everyone enrolled, in sortable-name order, and no one of another course', async () => {
    const found = await collect(courses(TOKENS.teacher).users({ course_id: 1 }));
    expect(found.map((u) => u.sortable_name)).toEqual(
      [...found.map((u) => u.sortable_name)].sort((a, b) => a.localeCompare(b)),
    );
    expect(found.map((u) => u.id)).toContain(3);
    expect(found.map((u) => u.id)).not.toContain(4);
  });

  it('gives the email address with include[]=email, to those who may see it', async () => {
    const plain = await collect(courses(TOKENS.teacher).users({ course_id: 1, search_term: 'ravi' }));
    expect(plain[0]).not.toHaveProperty('email');
    const withEmail = await collect(
      courses(TOKENS.teacher).users({ course_id: 1, search_term: 'ravi', include: ['email'] }),
    );
    expect(withEmail[0]).toMatchObject({ id: 9, login_id: 'ravi', email: 'ravi@example.edu' });
    const classmate = await collect(
      courses(TOKENS.student).users({ course_id: 1, search_term: 'ravi', include: ['email'] }),
    );
    expect(classmate[0]).toMatchObject({ id: 9 });
    expect(classmate[0].email ?? null).toBeNull();
  });

  it("limits a section-limited TA to their sections' people", async () => {
    const found = await collect(courses(TOKENS.ta).users({ course_id: 1 }));
    expect(found.map((u) => u.id)).toContain(7);
    expect(found.map((u) => u.id)).not.toContain(10);
  });

  it.each([
    ['a search term under 2 characters', TOKENS.teacher, 1, 'a', 400],
    ['someone outside the course', TOKENS.otherTeacher, 1, undefined, 401],
    ['a missing course', TOKENS.admin, 987654, undefined, 404],
  ] as const)('refuses %s', async (_what, token, course, term, status) => {
    expect(
      await statusOf(collect(courses(token).users({ course_id: course, ...(term ? { search_term: term } : {}) }))),
    ).toBe(status);
  });
});

describe('users get', () => {
  it.each([
    ['self', TOKENS.student, 'self', 'ok'],
    ['an SIS id', TOKENS.admin, 'sis_user_id:S-007', 'ok'],
    ['a login id', TOKENS.admin, 'sis_login_id:sofia', 'ok'],
    ['a classmate', TOKENS.student, '8', 'ok'],
    ['someone sharing no course', TOKENS.otherTeacher, '8', 401],
    ['a missing user', TOKENS.admin, '987654321', 404],
  ] as const)('%s', async (_what, token, id, expected) => {
    expect(await statusOf(as(token).get({ id }))).toBe(expected);
  });
});

describe('users create', () => {
  it('creates a user with login, SIS id and email, visible in the list', async () => {
    const created = await as(TOKENS.admin).create({
      account_id: 1,
      user: { name: 'Jane Q Doe', time_zone: 'Mountain Time (US & Canada)', locale: 'de' },
      pseudonym: { unique_id: 'jdoe', sis_user_id: 'SIS-9', password: 'pw' },
      communication_channel: { type: 'email', address: 'jdoe@example.edu' },
    });
    expect(created).toMatchObject({
      name: 'Jane Q Doe',
      sortable_name: 'Doe, Jane Q',
      short_name: 'Jane Q Doe',
      login_id: 'jdoe',
      sis_user_id: 'SIS-9',
      email: 'jdoe@example.edu',
      time_zone: 'America/Denver',
      locale: 'de',
    });
    const found = await collect(as(TOKENS.admin).list({ account_id: 1, search_term: 'jdoe' }));
    expect(found.map((u) => u.id)).toEqual([created.id]);
  });

  it.each([
    ['no login id', { pseudonym: { unique_id: '' } }, 400, "pseudonym.unique_id: can't be blank"],
    [
      'a taken login id (any case)',
      { pseudonym: { unique_id: 'SAM' } },
      400,
      'pseudonym.unique_id: ID already in use for this account and authentication provider',
    ],
    [
      'a taken SIS id',
      { pseudonym: { unique_id: 'x1', sis_user_id: 'S-007' } },
      400,
      'pseudonym.sis_user_id: SIS ID "S-007" is already in use',
    ],
    [
      'a bad time zone',
      { pseudonym: { unique_id: 'x2' }, user: { time_zone: 'Mars/Olympus' } },
      400,
      "user.time_zone: 'Mars/Olympus' is not a known time zone",
    ],
    [
      'a bad locale',
      { pseudonym: { unique_id: 'x3' }, user: { locale: 'english' } },
      400,
      "user.locale: 'english' is not a two-letter ISO 639-1 code",
    ],
  ])('rejects %s', async (_what, params, status, message) => {
    const error = await as(TOKENS.admin)
      .create({ account_id: 1, ...(params as { pseudonym: { unique_id: string } }) })
      .catch((e: ApiError) => e);
    expect(error).toMatchObject({ status, messages: [message] });
  });

  it('needs SIS permission for sis_user_id, but not without it', async () => {
    expect(
      await statusOf(as(TOKENS.helpdesk).create({ account_id: 1, pseudonym: { unique_id: 'h1', sis_user_id: 'H-1' } })),
    ).toBe(401);
    expect(await statusOf(as(TOKENS.helpdesk).create({ account_id: 1, pseudonym: { unique_id: 'h1' } }))).toBe('ok');
    expect(await statusOf(as(TOKENS.teacher).create({ account_id: 1, pseudonym: { unique_id: 't1' } }))).toBe(401);
  });
});

describe('users update', () => {
  it('changes names, time zone and locale, and keeps what was not sent', async () => {
    const updated = await as(TOKENS.student).update({
      id: 'self',
      user: { short_name: 'Sammy', time_zone: 'Europe/Berlin' },
    });
    expect(updated).toMatchObject({
      id: 7,
      name: 'Sam Student',
      short_name: 'Sammy',
      time_zone: 'Europe/Berlin',
      locale: 'en',
    });
  });

  it('sets the avatar from an option token, which wins over a URL', async () => {
    const options = await as(TOKENS.student).avatars({ user_id: 'self' });
    const external = options.find((o) => o.type === 'external')!;
    const updated = await as(TOKENS.student).update({
      id: 'self',
      user: { avatar: { token: external.token, url: 'https://x.example/a.png' } },
    });
    expect(updated.avatar_url).toBe(external.url);
    const byUrl = await as(TOKENS.student).update({ id: 'self', user: { avatar: { url: 'https://x.example/a.png' } } });
    expect(byUrl.avatar_url).toBe('https://x.example/a.png');
    expect(await statusOf(as(TOKENS.student).update({ id: 'self', user: { avatar: { token: 'forged' } } }))).toBe(400);
  });

  it("refuses another user's record to a non-admin", async () => {
    expect(await statusOf(as(TOKENS.student).update({ id: 8, user: { name: 'X' } }))).toBe(401);
    expect(await statusOf(as(TOKENS.helpdesk).update({ id: 8, user: { name: 'Sofia S' } }))).toBe('ok');
  });
});

describe('users delete', () => {
  it('removes the user from lists and lookups', async () => {
    await as(TOKENS.admin).delete({ account_id: 1, id: 9 });
    expect(await statusOf(as(TOKENS.admin).get({ id: 9 }))).toBe(404);
    const all = await collect(as(TOKENS.admin).list({ account_id: 1 }));
    expect(all.map((u) => u.id)).not.toContain(9);
  });

  it('lets users delete themselves, after which their token fails', async () => {
    await as(TOKENS.student).delete({ account_id: 1, id: 'self' });
    const error = await as(TOKENS.student)
      .get({ id: 'self' })
      .catch((e: ApiError) => e);
    expect(error).toMatchObject({ status: 401 });
  });

  it('refuses to delete someone else without the permission', async () => {
    expect(await statusOf(as(TOKENS.teacher).delete({ account_id: 1, id: 7 }))).toBe(401);
  });
});

describe('who may manage whom', () => {
  const makeSubAccountAdmin = () => clientFor(mock, TOKENS.admin).ops.admins.create({ account_id: 3, user_id: 4 });

  it('a sub-account admin cannot delete the root admin, through its own account or the root', async () => {
    await makeSubAccountAdmin();
    expect(await statusOf(as(TOKENS.otherTeacher).delete({ account_id: 3, id: 1 }))).toBe(401);
    expect(await statusOf(as(TOKENS.otherTeacher).delete({ account_id: 1, id: 1 }))).toBe(401);
    expect(await statusOf(as(TOKENS.admin).get({ id: 'self' }))).toBe('ok');
  });

  it('a sub-account admin manages the users within its account, and no one outside it', async () => {
    await makeSubAccountAdmin();
    // Account 3 (Humanities) has World History, where user 11 is a student; Sam (7) studies only in Science courses.
    expect(await statusOf(as(TOKENS.otherTeacher).delete({ account_id: 3, id: 7 }))).toBe(401);
    expect(await statusOf(as(TOKENS.otherTeacher).delete({ account_id: 3, id: 11 }))).toBe('ok');
    expect(await statusOf(as(TOKENS.admin).get({ id: 11 }))).toBe(404);
  });

  it('a helpdesk role cannot change or delete an AccountAdmin, and still manages students', async () => {
    expect(await statusOf(as(TOKENS.helpdesk).update({ id: 1, user: { name: 'Hacked' } }))).toBe(401);
    expect(await statusOf(as(TOKENS.helpdesk).delete({ account_id: 1, id: 1 }))).toBe(401);
    expect((await as(TOKENS.admin).get({ id: 1 })).name).not.toBe('Hacked');
    expect(await statusOf(as(TOKENS.helpdesk).update({ id: 8, user: { name: 'Sofia S' } }))).toBe('ok');
    expect(await statusOf(as(TOKENS.helpdesk).delete({ account_id: 1, id: 9 }))).toBe('ok');
  });

  it('the root admin manages a sub-account admin', async () => {
    await makeSubAccountAdmin();
    expect(await statusOf(as(TOKENS.admin).update({ id: 4, user: { name: 'Theo T' } }))).toBe('ok');
  });
});

describe('settings', () => {
  it('reads and updates manual_mark_as_read for oneself', async () => {
    expect(await as(TOKENS.student).getSettings({ id: 'self' })).toMatchObject({ manual_mark_as_read: false });
    expect(await as(TOKENS.student).updateSettings({ id: 'self', manual_mark_as_read: true })).toMatchObject({
      manual_mark_as_read: true,
    });
    expect(await as(TOKENS.student).getSettings({ id: 7 })).toMatchObject({ manual_mark_as_read: true });
    expect(await statusOf(as(TOKENS.otherStudent).getSettings({ id: 7 }))).toBe(401);
  });
});

describe('follow', () => {
  it('follows a public profile once, however often asked, and unfollows', async () => {
    const first = await as(TOKENS.student).follow({ user_id: 8 });
    const again = await as(TOKENS.student).follow({ user_id: 8 });
    expect(first).toEqual({ following_user_id: 7, followed_user_id: 8, created_at: '2026-11-02T12:00:00.000Z' });
    expect(again).toEqual(first);
    expect(mock.db.prepare('SELECT count(*) AS n FROM follows').get()).toEqual({ n: 1 });
    await as(TOKENS.student).unfollow({ user_id: 8 });
    await as(TOKENS.student).unfollow({ user_id: 8 });
    expect(mock.db.prepare('SELECT count(*) AS n FROM follows').get()).toEqual({ n: 0 });
  });

  it.each([
    ['oneself', 'self', 400],
    ['a private profile', '10', 401],
  ] as const)('refuses to follow %s', async (_what, id, status) => {
    expect(await statusOf(as(TOKENS.student).follow({ user_id: id }))).toBe(status);
  });
});

describe('profile', () => {
  it('includes the calendar feed only for the caller', async () => {
    const own = await as(TOKENS.student).profile({ user_id: 'self' });
    expect(own.calendar?.ics).toMatch(/^http:\/\/lms\.mock\/feeds\/calendars\/user_\w+\.ics$/);
    const other = await as(TOKENS.admin).profile({ user_id: 7 });
    expect(other).not.toHaveProperty('calendar');
    expect(other).toMatchObject({ id: 7, primary_email: 'sam@example.edu', login_id: 'sam', sis_user_id: 'S-007' });
  });
});

describe('avatars', () => {
  it('offers external and no_pic with only their four fields, and attachment options with file fields', async () => {
    const { uploadFile } = await import('../../src/client/upload.js');
    const client = clientFor(mock, TOKENS.student);
    const ticket = await client.ops.users.uploadFile({ user_id: 'self', name: 'me.png', size: 4 });
    await uploadFile(client, ticket, {
      name: 'me.png',
      data: new Uint8Array([137, 80, 78, 71]),
      contentType: 'image/png',
    });
    const options = await as(TOKENS.student).avatars({ user_id: 'self' });
    expect(options.map((o) => o.type)).toEqual(['external', 'attachment', 'no_pic']);
    expect(Object.keys(options[0]).sort()).toEqual(['display_name', 'token', 'type', 'url']);
    expect(Object.keys(options[2]).sort()).toEqual(['display_name', 'token', 'type', 'url']);
    expect(options[1]).toMatchObject({ type: 'attachment', filename: 'me.png', 'content-type': 'image/png', size: 4 });
    expect(options[1].id).toBeTypeOf('number');
  });
});

describe('page views', () => {
  it('records one per API request, newest first, filtered by time', async () => {
    const client = clientFor(mock, TOKENS.student);
    await client.ops.users.get({ id: 'self' });
    await client.ops.users.profile({ user_id: 'self' });
    const views = await collect(client.ops.users.pageViews({ user_id: 'self' }));
    expect(views.map((v) => `${v.controller}.${v.action}`)).toEqual(['users.profile', 'users.get']);
    const none = await collect(client.ops.users.pageViews({ user_id: 'self', end_time: '2026-01-01T00:00:00Z' }));
    expect(none).toEqual([]);
    expect(await statusOf(collect(clientFor(mock, TOKENS.otherStudent).ops.users.pageViews({ user_id: 7 })))).toBe(401);
    expect(await statusOf(collect(clientFor(mock, TOKENS.admin).ops.users.pageViews({ user_id: 7 })))).toBe('ok');
  });
});

describe('masquerading', () => {
  it('lets an admin act as another user, and nobody else', async () => {
    const me = await as(TOKENS.admin, { asUser: 'sis_user_id:S-008' }).get({ id: 'self' });
    expect(me.id).toBe(8);
    expect(await statusOf(as(TOKENS.helpdesk, { asUser: '8' }).get({ id: 'self' }))).toBe(401);
  });
});

describe('file upload', () => {
  it('runs the three steps, keeps the bytes, and serves them back', async () => {
    const { uploadFile } = await import('../../src/client/upload.js');
    const client = clientFor(mock, TOKENS.student);
    const ticket = await client.ops.users.uploadFile({
      user_id: 'self',
      name: 'notes.txt',
      size: 5,
      content_type: 'text/plain',
    });
    expect(ticket.upload_url).toMatch(/^http:\/\/lms\.mock\/files_api\/uploads\/\w+$/);
    const attachment = await uploadFile(client, ticket, {
      name: 'notes.txt',
      data: new TextEncoder().encode('hello'),
      contentType: 'text/plain',
    });
    expect(attachment).toMatchObject({
      display_name: 'notes.txt',
      filename: 'notes.txt',
      'content-type': 'text/plain',
      size: 5,
    });
    const download = await mock.handler({ method: 'GET', url: attachment.url, headers: {} });
    expect(Buffer.from(download.body as Uint8Array).toString()).toBe('hello');
    expect(await client.ops.files.get({ id: attachment.id })).toMatchObject({ id: attachment.id, size: 5 });
    // The upload URL works once.
    const reuse = await mock.handler({ method: 'POST', url: ticket.upload_url, headers: {}, body: '' });
    expect(reuse.status).toBe(404);
  });

  it('renames on duplicate when asked, and replaces by default', async () => {
    const { uploadFile } = await import('../../src/client/upload.js');
    const client = clientFor(mock, TOKENS.student);
    const put = async (onDuplicate?: 'rename' | 'overwrite') =>
      uploadFile(
        client,
        await client.ops.users.uploadFile({ user_id: 'self', name: 'a.txt', size: 1, on_duplicate: onDuplicate }),
        { name: 'a.txt', data: new Uint8Array([65]), contentType: 'text/plain' },
      );
    const first = await put();
    const renamed = await put('rename');
    expect(renamed.display_name).toBe('a-1.txt');
    await put('overwrite');
    expect(await statusOf(client.ops.files.get({ id: first.id }))).toBe(404);
  });

  it("refuses to start an upload into someone else's files", async () => {
    expect(
      await statusOf(clientFor(mock, TOKENS.student).ops.users.uploadFile({ user_id: 8, name: 'x.txt', size: 1 })),
    ).toBe(401);
  });
});

describe("personal fields follow the caller's rights", () => {
  const sis = ['sis_user_id'];
  const logins = ['login_id', 'email'];
  const profileSis = ['sis_user_id', 'sis_login_id'];
  const profileLogins = ['login_id', 'primary_email'];
  it.each([
    ['a classmate', TOKENS.student, 8, false, false],
    ['oneself', TOKENS.student, 7, true, true],
    ['their teacher', TOKENS.teacher, 7, true, true],
    ['the helpdesk (manages logins, reads no SIS data)', TOKENS.helpdesk, 8, false, true],
    ['the account admin', TOKENS.admin, 8, true, true],
  ])('%s', async (_who, token, id, seesSis, seesLogins) => {
    const user = (await as(token).get({ id })) as unknown as Record<string, unknown>;
    const profile = (await as(token).profile({ user_id: id })) as unknown as Record<string, unknown>;
    for (const field of sis) expect(field in user, `user.${field}`).toBe(seesSis);
    for (const field of profileSis) expect(field in profile, `profile.${field}`).toBe(seesSis);
    for (const field of logins) expect(field in user, `user.${field}`).toBe(seesLogins);
    for (const field of profileLogins) expect(field in profile, `profile.${field}`).toBe(seesLogins);
    if (seesLogins) expect(user.login_id).toBeTruthy();
    expect(user.name).toBeTruthy();
  });
});

describe("a user's logins and user[event]", () => {
  const states = async (token: string, id: number) =>
    (await collect(as(token).logins({ user_id: id }))).map((l) => l.workflow_state);

  it('lists the logins to the user and to admins who read logins; SIS ids only to SIS readers', async () => {
    const [login] = await collect(as(TOKENS.admin).logins({ user_id: 7 }));
    expect(login).toMatchObject({
      user_id: 7,
      account_id: 1,
      unique_id: 'sam',
      sis_user_id: 'S-007',
      workflow_state: 'active',
    });
    expect(Object.keys(login)).toEqual(expect.arrayContaining(['id', 'integration_id', 'created_at']));
    const [asHelpdesk] = await collect(as(TOKENS.helpdesk).logins({ user_id: 7 }));
    expect(asHelpdesk.unique_id).toBe('sam');
    expect(asHelpdesk).not.toHaveProperty('sis_user_id');
    expect(asHelpdesk).not.toHaveProperty('integration_id');
    expect(await states(TOKENS.student, 7)).toEqual(['active']);
    expect(await statusOf(collect(as(TOKENS.otherStudent).logins({ user_id: 7 })))).toBe(401);
    expect(await statusOf(collect(as(TOKENS.teacher).logins({ user_id: 7 })))).toBe(401);
    expect(await statusOf(collect(as(TOKENS.admin).logins({ user_id: 9999 })))).toBe(404);
  });

  it('suspends and unsuspends every login, as those who may manage the user', async () => {
    await as(TOKENS.helpdesk).update({ id: 7, user: { event: 'suspend' } });
    expect(await states(TOKENS.admin, 7)).toEqual(['suspended']);
    // Suspending again changes nothing; the record is answered as any update's.
    expect((await as(TOKENS.admin).update({ id: 7, user: { event: 'suspend' } })).id).toBe(7);
    expect(await states(TOKENS.admin, 7)).toEqual(['suspended']);
    await as(TOKENS.admin).update({ id: 7, user: { event: 'unsuspend' } });
    expect(await states(TOKENS.admin, 7)).toEqual(['active']);
  });

  it('refuses the event from whoever may not manage the user, and from a user for themself', async () => {
    expect(await statusOf(as(TOKENS.teacher).update({ id: 7, user: { event: 'suspend' } }))).toBe(401);
    expect(await statusOf(as(TOKENS.otherStudent).update({ id: 7, user: { event: 'suspend' } }))).toBe(401);
    // Sam may change his own name, but not suspend himself: the whole update is refused.
    expect(await statusOf(as(TOKENS.student).update({ id: 7, user: { name: 'S', event: 'suspend' } }))).toBe(401);
    expect((await as(TOKENS.admin).get({ id: 7 })).name).toBe('Sam Student');
    // An admin's own event is ignored, as Canvas ignores it.
    await as(TOKENS.admin).update({ id: 1, user: { event: 'suspend' } });
    expect(await states(TOKENS.admin, 1)).toEqual(['active']);
    expect(await states(TOKENS.admin, 7)).toEqual(['active']);
  });

  it('ignores an event that is neither suspend nor unsuspend, as Canvas does', async () => {
    const res = await mock.handler({
      method: 'PUT',
      url: 'http://lms.mock/api/v1/users/7',
      headers: { authorization: `Bearer ${TOKENS.admin}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user[event]=delete&user[short_name]=Sammy',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(String(res.body))).toMatchObject({ id: 7, short_name: 'Sammy' });
    expect(await states(TOKENS.admin, 7)).toEqual(['active']);
  });
});

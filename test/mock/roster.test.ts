// The roster areas of the mock, rule by rule: admins, sections with cross-listing, enrollments —
// each permission asked of roles as data, through the API as a client sees it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { collect, TOKENS, clientFor, freshMock, statusOf, failure } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;

describe('admins', () => {
  it('lists the account admins with their roles, for callers who manage memberships only', async () => {
    const admins = await collect(as(TOKENS.admin).admins.list({ account_id: 1 }));
    expect(admins.map((a) => [a.user.id, a.role, a.role_id])).toEqual([
      [1, 'AccountAdmin', 1],
      [2, 'Helpdesk', 7],
    ]);
    expect(admins[0].user.login_id).toBe('admin');
    expect(await statusOf(collect(as(TOKENS.helpdesk).admins.list({ account_id: 1 })))).toBe(401);
    expect(await statusOf(collect(as(TOKENS.teacher).admins.list({ account_id: 1 })))).toBe(401);
  });

  it('adds an admin who can act as one in the next request; adding again changes nothing', async () => {
    expect(await statusOf(collect(as(TOKENS.teacher).users.list({ account_id: 1 })))).toBe(401);
    const added = await as(TOKENS.admin).admins.create({ account_id: 1, user_id: 3 });
    expect(added).toMatchObject({ role: 'AccountAdmin', role_id: 1, workflow_state: 'active', user: { id: 3 } });
    expect((await collect(as(TOKENS.teacher).users.list({ account_id: 1 }))).length).toBe(13);
    const again = await as(TOKENS.admin).admins.create({ account_id: 1, user_id: 'sis_user_id:T-003' });
    expect(again.id).toBe(added.id);
  });

  it('adds a custom role by name, and makes an unknown role name an AccountAdmin as real instances do', async () => {
    expect((await as(TOKENS.admin).admins.create({ account_id: 2, user_id: 4, role: 'Helpdesk' })).role_id).toBe(7);
    expect((await as(TOKENS.admin).admins.create({ account_id: 2, user_id: 5, role: 'Dean of Everything' })).role).toBe(
      'AccountAdmin',
    );
  });

  it.each([
    ['no user_id', { account_id: 1 }, 400],
    ['an unknown user', { account_id: 1, user_id: 999 }, 404],
    ['a user without a login on that root account', { account_id: 4, user_id: 7 }, 404],
    ['an unknown account', { account_id: 99, user_id: 7 }, 404],
  ] as const)('refuses %s', async (_what, params, status) => {
    // Ada also administers the second root account, where no seeded user has a login.
    mock.db
      .prepare(
        `INSERT INTO account_users (account_id, user_id, role_id, created_at) VALUES (4, 1, 1, '2026-01-01T00:00:00Z')`,
      )
      .run();
    expect(await statusOf(as(TOKENS.admin).admins.create(params as never))).toBe(status);
  });

  it('removes a role only when it is named, unless it is the default one', async () => {
    expect(await statusOf(as(TOKENS.admin).admins.delete({ account_id: 1, user_id: 2 }))).toBe(404);
    const removed = await as(TOKENS.admin).admins.delete({ account_id: 1, user_id: 2, role: 'Helpdesk' });
    expect(removed).toMatchObject({ role: 'Helpdesk', workflow_state: 'deleted' });
    expect(await statusOf(collect(as(TOKENS.helpdesk).users.list({ account_id: 1 })))).toBe(401);
    expect(await statusOf(as(TOKENS.admin).admins.delete({ account_id: 1, user_id: 2, role: 'Helpdesk' }))).toBe(404);
  });
});

describe('sections', () => {
  it("lists a course's sections, the cross-listed one with its original course", async () => {
    const sections = await collect(as(TOKENS.teacher).sections.list({ course_id: 1 }));
    expect(sections.map((s) => [s.id, s.course_id, s.nonxlist_course_id, s.sis_section_id])).toEqual([
      [1, 1, null, 'BIO-101-A'],
      [2, 1, null, 'BIO-101-B'],
      [7, 1, 5, 'BIO-101L-ONL'],
    ]);
    expect(sections[2]).toMatchObject({ start_at: '2026-09-07T00:00:00Z', end_at: '2026-11-27T00:00:00Z' });
    // A student sees the sections, but not their SIS ids.
    expect((await collect(as(TOKENS.student).sections.list({ course_id: 1 })))[0].sis_section_id).toBeNull();
  });

  it('includes students when asked', async () => {
    const [a] = await collect(
      as(TOKENS.teacher).sections.list({ course_id: 'sis_course_id:BIO-101', include: ['students'] }),
    );
    expect(a.students?.map((s) => s.id)).toEqual([11, 7, 8]);
  });

  it('creates and updates a section; a SIS id only for callers who manage SIS data', async () => {
    const byTeacher = await as(TOKENS.teacher).sections.create({
      course_id: 1,
      course_section: { name: 'Lab C', sis_section_id: 'BIO-101-C' },
    });
    expect(byTeacher).toMatchObject({ name: 'Lab C', course_id: 1, sis_section_id: null });
    const byAdmin = await as(TOKENS.admin).sections.update({
      id: byTeacher.id,
      course_section: { sis_section_id: 'BIO-101-C' },
    });
    expect(byAdmin).toMatchObject({ name: 'Lab C', sis_section_id: 'BIO-101-C' });
    expect((await as(TOKENS.admin).sections.get({ id: 'sis_section_id:BIO-101-C' })).id).toBe(byTeacher.id);
    expect(
      await statusOf(
        as(TOKENS.admin).sections.create({
          course_id: 1,
          course_section: { name: 'Dup', sis_section_id: 'BIO-101-A' },
        }),
      ),
    ).toBe(400);
    expect(await statusOf(as(TOKENS.ta).sections.create({ course_id: 1, course_section: { name: 'By TA' } }))).toBe(
      401,
    );
    expect(await statusOf(as(TOKENS.teacher).sections.create({ course_id: 1, course_section: { name: '' } }))).toBe(
      400,
    );
  });

  it('reads a section by course and directly; the wrong course is a 404', async () => {
    expect((await as(TOKENS.student).sections.getInCourse({ course_id: 1, id: 2 })).name).toBe('BIO-101 Section B');
    expect(await statusOf(as(TOKENS.admin).sections.getInCourse({ course_id: 2, id: 2 }))).toBe(404);
    expect(await statusOf(as('12~mock-hana').sections.get({ id: 5 }))).toBe(401);
  });

  it('refuses to delete a section with enrollments, and deletes an empty one', async () => {
    const refused = await failure(as(TOKENS.admin).sections.delete({ id: 2 }));
    expect(refused).toEqual({ status: 400, body: { message: "You can't delete a section that has enrollments" } });
    const empty = await as(TOKENS.teacher).sections.create({ course_id: 1, course_section: { name: 'Empty' } });
    expect((await as(TOKENS.teacher).sections.delete({ id: empty.id })).id).toBe(empty.id);
    expect(await statusOf(as(TOKENS.teacher).sections.get({ id: empty.id }))).toBe(404);
  });

  it('cross-lists a section with its enrollments, and moves it back', async () => {
    const moved = await as(TOKENS.teacher).sections.crosslist({ id: 2, new_course_id: 'sis_course_id:BIO-101L' });
    expect(moved).toMatchObject({ id: 2, course_id: 5, nonxlist_course_id: 1 });
    const inLab = await collect(
      as(TOKENS.teacher).enrollments.listCourse({ course_id: 5, type: ['StudentEnrollment'] }),
    );
    expect(inLab.map((e) => e.user_id).sort()).toEqual([10, 12, 9]);
    expect(
      (await collect(as(TOKENS.teacher).enrollments.listCourse({ course_id: 1, type: ['StudentEnrollment'] }))).map(
        (e) => e.course_section_id,
      ),
    ).not.toContain(2);

    const back = await as(TOKENS.teacher).sections.uncrosslist({ id: 2 });
    expect(back).toMatchObject({ course_id: 1, nonxlist_course_id: null });
    expect(await failure(as(TOKENS.teacher).sections.uncrosslist({ id: 2 }))).toEqual({
      status: 400,
      body: { message: 'section is not cross-listed' },
    });
  });

  it('cross-lists only within the root account, and with rights in both courses', async () => {
    expect(await statusOf(as(TOKENS.admin).sections.crosslist({ id: 1, new_course_id: 4 }))).toBe(404);
    // Theo teaches HIST-110 but has no rights to manage BIO-101's sections.
    expect(await statusOf(as(TOKENS.otherTeacher).sections.crosslist({ id: 4, new_course_id: 1 }))).toBe(401);
    // Re-cross-listing keeps the original course.
    await as(TOKENS.admin).sections.crosslist({ id: 7, new_course_id: 2 });
    expect((await as(TOKENS.admin).sections.get({ id: 7 })).nonxlist_course_id).toBe(5);
  });
});

describe('enrollment lists', () => {
  it(
    "lists a course's active and invited enrollments by " + 'default, by type, then sortable name, with the user',
    async () => {
      const list = await collect(as(TOKENS.teacher).enrollments.listCourse({ course_id: 2 }));
      expect(list.map((e) => [e.type, e.user_id, e.enrollment_state])).toEqual([
        ['StudentEnrollment', 11, 'invited'],
        ['StudentEnrollment', 9, 'active'],
        ['StudentEnrollment', 7, 'active'],
        ['StudentEnrollment', 8, 'active'],
        ['TeacherEnrollment', 3, 'active'],
      ]);
      expect(list[0].user).toMatchObject({
        id: 11,
        name: 'Lucas Moreau',
        sortable_name: 'Moreau, Lucas',
        login_id: 'lucas',
      });
    },
  );

  it.each([
    ['completed', { state: ['completed'] }, [12]],
    ['inactive', { state: ['inactive'] }, [10]],
    ['several states', { state: ['completed', 'inactive'] }, [10, 12]],
    ['a type', { type: ['TeacherEnrollment'] }, [3]],
    ['a role by name (type ignored)', { role: ['TeacherEnrollment'], type: ['StudentEnrollment'] }, [3]],
    ['one user', { user_id: 'sis_user_id:S-009' }, [9]],
  ] as const)('filters by %s', async (_what, filter, users) => {
    const list = await collect(as(TOKENS.admin).enrollments.listCourse({ course_id: 2, ...(filter as object) }));
    expect(list.map((e) => e.user_id).sort((a, b) => a - b)).toEqual(users);
  });

  it('finds a custom course role by name', async () => {
    const list = await collect(as(TOKENS.admin).enrollments.listCourse({ course_id: 5, role: ['Grader'] }));
    expect(list.map((e) => [e.user_id, e.type, e.role])).toEqual([[4, 'TaEnrollment', 'Grader']]);
  });

  it('shows a section-limited TA the roster of their own section only', async () => {
    const seen = await collect(as(TOKENS.ta).enrollments.listCourse({ course_id: 1 }));
    expect(new Set(seen.map((e) => e.course_section_id))).toEqual(new Set([1]));
    const teacherSees = await collect(as(TOKENS.teacher).enrollments.listCourse({ course_id: 1 }));
    expect(new Set(teacherSees.map((e) => e.course_section_id))).toEqual(new Set([1, 2, 7]));
  });

  it('lists by section', async () => {
    const list = await collect(as(TOKENS.teacher).enrollments.listSection({ section_id: 'sis_section_id:BIO-101-B' }));
    expect(list.map((e) => e.user_id).sort((a, b) => a - b)).toEqual([9, 10, 12]);
  });

  it("lets users list their own enrollments, and only admins anyone else's", async () => {
    const mine = await collect(as(TOKENS.student).enrollments.listUser({ user_id: 'self' }));
    expect(mine.map((e) => e.course_id).sort()).toEqual([1, 2]);
    expect(await statusOf(collect(as(TOKENS.student).enrollments.listUser({ user_id: 8 })))).toBe(401);
    expect((await collect(as(TOKENS.admin).enrollments.listUser({ user_id: 8 }))).length).toBe(3);
  });

  it.each([
    ['an unknown type', { type: ['DeanEnrollment'] }],
    ['an unknown state', { state: ['sleeping'] }],
  ] as const)('refuses %s', async (_what, filter) => {
    expect(
      await statusOf(collect(as(TOKENS.admin).enrollments.listCourse({ course_id: 1, ...(filter as object) }))),
    ).toBe(400);
  });
});

describe('enrolling', () => {
  it('enrols invited by default, active when asked, without the user object', async () => {
    const invited = await as(TOKENS.teacher).enrollments.enrollCourse({
      course_id: 1,
      enrollment: { user_id: 13, type: 'StudentEnrollment' },
    });
    expect(invited).toMatchObject({
      user_id: 13,
      course_id: 1,
      course_section_id: 1,
      type: 'StudentEnrollment',
      role: 'StudentEnrollment',
      enrollment_state: 'invited',
    });
    expect(invited.user).toBeUndefined();
    const active = await as(TOKENS.admin).enrollments.enrollCourse({
      course_id: 3,
      enrollment: { user_id: 7, enrollment_state: 'active' },
    });
    expect(active).toMatchObject({ type: 'StudentEnrollment', enrollment_state: 'active', course_section_id: 4 });
    // The admin of one root account has no rights in another.
    expect(
      await statusOf(as(TOKENS.admin).enrollments.enrollCourse({ course_id: 4, enrollment: { user_id: 7 } })),
    ).toBe(401);
  });

  it('infers the type from a custom role, into the section of the URL', async () => {
    const e = await as(TOKENS.admin).enrollments.enrollSection({
      section_id: 2,
      enrollment: { user_id: 5, role: 'Grader', limit_privileges_to_course_section: true },
    });
    expect(e).toMatchObject({
      course_id: 1,
      course_section_id: 2,
      type: 'TaEnrollment',
      role: 'Grader',
      role_id: 8,
      limit_privileges_to_course_section: true,
    });
  });

  it('returns the existing enrollment when the same one is made again', async () => {
    const first = await as(TOKENS.admin).enrollments.enrollCourse({ course_id: 3, enrollment: { user_id: 7 } });
    const second = await as(TOKENS.admin).enrollments.enrollCourse({
      course_id: 3,
      enrollment: { user_id: 7, enrollment_state: 'active' },
    });
    expect(second.id).toBe(first.id);
    expect(second.enrollment_state).toBe('active');
  });

  it.each([
    ['no parameters', {}, 400, { message: 'No parameters given' }],
    [
      'no user',
      { enrollment: { type: 'StudentEnrollment' } },
      400,
      { message: "Can't create an enrollment without a user. Include enrollment[user_id] to create an enrollment" },
    ],
    ['an invalid type', { enrollment: { user_id: 7, type: 'DeanEnrollment' } }, 400, { message: 'Invalid type' }],
    ['an invalid role', { enrollment: { user_id: 7, role: 'Dean' } }, 400, { message: 'Invalid role' }],
    ['an account role', { enrollment: { user_id: 7, role: 'Helpdesk' } }, 400, { message: 'Invalid role' }],
    [
      "a type that is not the role's",
      { enrollment: { user_id: 7, role: 'Grader', type: 'StudentEnrollment' } },
      400,
      { message: 'The specified type must match the base type for the role' },
    ],
    ['an unknown user', { enrollment: { user_id: 999 } }, 404, undefined],
    ['a section of another course', { enrollment: { user_id: 7, course_section_id: 3 } }, 404, undefined],
  ] as const)('refuses %s', async (_what, params, status, body) => {
    const r = await failure(
      as(TOKENS.admin).enrollments.enrollCourse({ course_id: 1, ...(params as object) } as never),
    );
    expect(r.status).toBe(status);
    if (body) expect(r.body).toEqual(body);
  });

  it('refuses an enrollment in a concluded course', async () => {
    mock.db.prepare(`UPDATE courses SET workflow_state = 'completed' WHERE id = 3`).run();
    const r = await failure(as(TOKENS.admin).enrollments.enrollCourse({ course_id: 3, enrollment: { user_id: 7 } }));
    expect(r).toEqual({ status: 400, body: { message: "Can't add an enrollment to a concluded course." } });
  });

  it.each([
    ['a teacher adds a student', TOKENS.teacher, 1, 'StudentEnrollment', 'ok'],
    ['a teacher adds a TA', TOKENS.teacher, 1, 'TaEnrollment', 'ok'],
    ['a TA adds a student to their own section', TOKENS.ta, 1, 'StudentEnrollment', 'ok'],
    ['a section-limited TA adds a student elsewhere', TOKENS.ta, 2, 'StudentEnrollment', 401],
    ['a TA adds a teacher', TOKENS.ta, 1, 'TeacherEnrollment', 401],
    ['a student adds anyone', TOKENS.student, 1, 'StudentEnrollment', 401],
    ['the helpdesk, without course rights', TOKENS.helpdesk, 1, 'StudentEnrollment', 401],
    ['a teacher of another course', TOKENS.otherTeacher, 1, 'StudentEnrollment', 401],
  ] as const)('%s: %s', async (_what, token, section, type, expected) => {
    expect(
      await statusOf(as(token).enrollments.enrollSection({ section_id: section, enrollment: { user_id: 13, type } })),
    ).toBe(expected);
  });
});

describe('ending enrollments', () => {
  const samInBio = async () =>
    (
      await collect(as(TOKENS.admin).enrollments.listCourse({ course_id: 1, user_id: 7, type: ['StudentEnrollment'] }))
    )[0];

  it.each([
    [undefined, 'completed'],
    ['conclude', 'completed'],
    ['delete', 'deleted'],
    ['deactivate', 'inactive'],
    ['inactivate', 'inactive'],
  ] as const)('task %s leaves the enrollment %s', async (task, state) => {
    const e = await samInBio();
    const ended = await as(TOKENS.teacher).enrollments.end({ course_id: 1, id: e.id, ...(task ? { task } : {}) });
    expect(ended).toMatchObject({ id: e.id, enrollment_state: state });
    const after = await collect(as(TOKENS.admin).enrollments.listCourse({ course_id: 1, user_id: 7, state: [state] }));
    expect(after.map((x) => x.id)).toContain(e.id);
  });

  it('refuses students, other courses and unknown ids', async () => {
    const e = await samInBio();
    expect(await statusOf(as(TOKENS.student).enrollments.end({ course_id: 1, id: e.id }))).toBe(401);
    expect(await statusOf(as(TOKENS.admin).enrollments.end({ course_id: 2, id: e.id }))).toBe(404);
    expect(await statusOf(as(TOKENS.admin).enrollments.end({ course_id: 1, id: 99999 }))).toBe(404);
  });
});

describe('enrollment type words', () => {
  it.each(['constructor', '__proto__', 'toString', 'Teacher'])(
    'enrollment_type=%s is a 400, never a crash',
    async (word) => {
      const res = await mock.handler({
        method: 'GET',
        url: `http://lms.mock/api/v1/courses?enrollment_type=${word}`,
        headers: { authorization: `Bearer ${TOKENS.teacher}` },
      });
      expect(res.status).toBe(400);
    },
  );
});

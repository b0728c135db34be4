// Changing a course, and changing and deleting an assignment, in the mock: only what a request names
// changes, under the rules create applies to the same fields; who may is who may create; a course
// with graded student work stays published, an assignment with turned-in work too; a deleted
// assignment leaves every list with its grades kept and takes the discussion it grades along; a
// quiz's assignment is the quiz's.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { createRole } from '../../src/mock/school/accounts/repo.js';
import { addAdmin } from '../../src/mock/areas/admins/repo.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const admin = () => as(TOKENS.admin);
const teacher = () => as(TOKENS.teacher);
const rows = (sql: string, ...args: unknown[]) => mock.db.prepare(sql).all(...(args as never[]));
const invalid = (field: string, message: string, model?: string) => {
  const entry = { [field]: [{ attribute: field, type: expect.any(String), message }] };
  return { errors: model ? { [model]: entry } : entry };
};

describe('PUT /api/v1/courses/:id', () => {
  it('changes what it names and keeps the rest', async () => {
    const before = await admin().courses.get({ id: 3 });
    const after = await admin().courses.update({
      id: 'sis_course_id:HIST-110',
      course: { name: 'World History I', start_at: '2026-08-31T00:00:00Z', time_zone: 'Tokyo' },
    });
    expect(after).toEqual({
      ...before,
      name: 'World History I',
      start_at: '2026-08-31T00:00:00.000Z',
      time_zone: 'Asia/Tokyo',
    });
    expect(await admin().courses.get({ id: 3 })).toEqual(after);
    // The search index follows the new name.
    expect(
      (await collect(admin().courses.listAccount({ account_id: 1, search_term: 'History I' }))).map((c) => c.id),
    ).toEqual([3]);
  });

  it('clears a date with "" (null), and falls back from a blank name or code as create does', async () => {
    const c = await admin().courses.update({ id: 3, course: { end_at: null, name: '  ', course_code: '' } });
    expect(c).toMatchObject({ end_at: null, name: 'Unnamed Course', course_code: 'Unnamed Course' });
  });

  it('sets, and clears, an SIS id that no other course of the root account holds', async () => {
    expect(await admin().courses.update({ id: 3, course: { sis_course_id: 'HIST-110-F27' } })).toMatchObject({
      sis_course_id: 'HIST-110-F27',
    });
    expect(await admin().courses.get({ id: 'sis_course_id:HIST-110-F27' })).toMatchObject({ id: 3 });
    // Its own SIS id again is no clash.
    expect(await admin().courses.update({ id: 3, course: { sis_course_id: 'HIST-110-F27' } })).toMatchObject({
      sis_course_id: 'HIST-110-F27',
    });
    expect(await failure(admin().courses.update({ id: 3, course: { sis_course_id: 'BIO-101' } }))).toEqual({
      status: 400,
      body: invalid('sis_source_id', 'SIS ID "BIO-101" is already in use', 'course'),
    });
    expect(await admin().courses.update({ id: 3, course: { sis_course_id: '' } })).toMatchObject({
      sis_course_id: null,
    });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'an end before the start',
      { end_at: '2026-08-01T00:00:00Z' },
      'conclude_at',
      'end date must be after the start date',
    ],
    ['an unknown time zone', { time_zone: 'Mars/Olympus' }, 'time_zone', "'Mars/Olympus' is not a known time zone"],
    ['an event Canvas does not take', { event: 'archive' }, 'event', 'must be one of offer, claim, conclude, delete'],
  ])('refuses %s with a 400 naming the field, and changes nothing', async (_what, course, field, message) => {
    const before = await admin().courses.get({ id: 3 });
    expect(await failure(admin().courses.update({ id: 3, course: course as never }))).toEqual({
      status: 400,
      body: invalid(field, message, 'course'),
    });
    expect(await admin().courses.get({ id: 3 })).toEqual(before);
  });

  it('publishes (offer) and unpublishes (claim) a course; one whose students have grades stays published', async () => {
    const made = await admin().courses.create({ account_id: 2, course: { name: 'Genetics' } });
    expect(made.workflow_state).toBe('unpublished');
    expect(await admin().courses.update({ id: made.id, course: { event: 'offer' } })).toMatchObject({
      workflow_state: 'available',
    });
    expect(await admin().courses.update({ id: made.id, course: { event: 'claim' } })).toMatchObject({
      workflow_state: 'unpublished',
    });
    // BIO-101's students have graded lab reports.
    expect(await failure(admin().courses.update({ id: 1, course: { event: 'claim' } }))).toEqual({
      status: 400,
      body: invalid('workflow_state', 'Course cannot be unpublished if student submissions exist.', 'course'),
    });
    expect(await admin().courses.get({ id: 1 })).toMatchObject({ workflow_state: 'available' });
  });

  it('concludes a course (still found), reopens it with claim, and deletes it (gone to the API)', async () => {
    const made = await admin().courses.create({ account_id: 2, course: { name: 'Ecology', sis_course_id: 'ECO-1' } });
    expect(await admin().courses.update({ id: made.id, course: { event: 'conclude' } })).toMatchObject({
      workflow_state: 'completed',
    });
    expect(await admin().courses.get({ id: 'sis_course_id:ECO-1' })).toMatchObject({ workflow_state: 'completed' });
    expect(await admin().courses.update({ id: made.id, course: { event: 'claim' } })).toMatchObject({
      workflow_state: 'unpublished',
    });
    expect(await statusOf(teacher().courses.update({ id: made.id, course: { event: 'delete' } }))).toBe(401);
    expect(await admin().courses.update({ id: made.id, course: { event: 'delete' } })).toMatchObject({
      workflow_state: 'deleted',
    });
    expect(await statusOf(admin().courses.get({ id: made.id }))).toBe(404);
    expect(await statusOf(admin().courses.update({ id: made.id, course: { event: 'offer' } }))).toBe(404);
  });

  it(
    'is for those who may create courses in its account: ' + 'not its teacher; an SIS id also needs manage_sis',
    async () => {
      expect(await statusOf(teacher().courses.update({ id: 1, course: { name: 'Mine now' } }))).toBe(401);
      expect(await statusOf(as(TOKENS.helpdesk).courses.update({ id: 1, course: { name: 'Mine now' } }))).toBe(401);
      // A root-account role that creates courses but does not manage SIS data.
      const role = createRole(mock.db, {
        name: 'Course Creator',
        base: 'AccountMembership',
        account: 1,
        permissions: ['manage_courses'],
      });
      addAdmin(mock.db, { account: 1, user: 2, role, now: '2026-11-02T12:00:00.000Z' });
      const creator = as(TOKENS.helpdesk).courses;
      expect(await creator.update({ id: 1, course: { name: 'Biology I' } })).toMatchObject({ name: 'Biology I' });
      expect(await statusOf(creator.update({ id: 1, course: { name: 'Biology II', sis_course_id: 'BIO-102' } }))).toBe(
        401,
      );
      expect(await admin().courses.get({ id: 1 })).toMatchObject({ name: 'Biology I', sis_course_id: 'BIO-101' });
      expect(await statusOf(admin().courses.update({ id: 999, course: { name: 'Nowhere' } }))).toBe(404);
    },
  );
});

describe('PUT /api/v1/courses/:course_id/assignments/:id', () => {
  it('changes what it names and keeps the rest; a teacher of the course may', async () => {
    const before = await teacher().assignments.get({ course_id: 1, id: 1 });
    const after = await teacher().assignments.update({
      course_id: 'sis_course_id:BIO-101',
      id: 1,
      assignment: { points_possible: 25, due_at: null, submission_types: ['online_upload'] },
    });
    expect(after).toEqual({
      ...before,
      points_possible: 25,
      due_at: null,
      submission_types: ['online_upload'],
      updated_at: '2026-11-02T12:00:00.000Z',
    });
    expect(await teacher().assignments.get({ course_id: 1, id: 1 })).toEqual(after);
    const lettered = await teacher().assignments.update({
      course_id: 1,
      id: 2,
      assignment: { grading_type: 'letter_grade', name: 'Microscope Safety' },
    });
    expect(lettered).toMatchObject({
      name: 'Microscope Safety',
      grading_type: 'letter_grade',
      grading_scheme: expect.any(Array),
    });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a blank name', { name: ' ' }, 'name', "can't be blank"],
    [
      'an unknown grading type',
      { grading_type: 'stars' },
      'grading_type',
      'must be one of pass_fail, percent, letter_grade, gpa_scale, points, not_graded',
    ],
    ['an unknown submission type', { submission_types: ['fax'] }, 'submission_types', 'unknown submission types: fax'],
    ['negative points', { points_possible: -1 }, 'points_possible', 'must be a number greater than or equal to 0'],
    [
      'a grading standard that is not an id',
      { grading_standard_id: 'abc' },
      'grading_standard_id',
      'must be an integer',
    ],
  ])('refuses %s as create does, and changes nothing', async (_what, assignment, field, message) => {
    const before = await teacher().assignments.get({ course_id: 1, id: 1 });
    expect(
      await failure(teacher().assignments.update({ course_id: 1, id: 1, assignment: assignment as never })),
    ).toEqual({ status: 400, body: invalid(field, message, 'assignment') });
    expect(await teacher().assignments.get({ course_id: 1, id: 1 })).toEqual(before);
  });

  it('unpublishes one nobody has turned work in for (students then do not see it), never one they have', async () => {
    expect(await teacher().assignments.update({ course_id: 2, id: 4, assignment: { published: false } })).toMatchObject(
      { published: false },
    );
    expect(await statusOf(as(TOKENS.student).assignments.get({ course_id: 2, id: 4 }))).toBe(404);
    expect(await teacher().assignments.update({ course_id: 2, id: 4, assignment: { published: true } })).toMatchObject({
      published: true,
    });
    expect(
      await failure(teacher().assignments.update({ course_id: 1, id: 1, assignment: { published: false } })),
    ).toEqual({
      status: 400,
      body: invalid('published', "Can't unpublish if there are student submissions"),
    });
  });

  it("is for those who manage the course content; a missing or another course's assignment is a 404", async () => {
    expect(
      await statusOf(as(TOKENS.student).assignments.update({ course_id: 1, id: 1, assignment: { name: 'Easy' } })),
    ).toBe(401);
    expect(
      await statusOf(as(TOKENS.otherTeacher).assignments.update({ course_id: 1, id: 1, assignment: { name: 'Easy' } })),
    ).toBe(401);
    expect(await statusOf(teacher().assignments.update({ course_id: 1, id: 99, assignment: { name: 'Easy' } }))).toBe(
      404,
    );
    expect(await statusOf(teacher().assignments.update({ course_id: 1, id: 4, assignment: { name: 'Easy' } }))).toBe(
      404,
    );
  });

  it("leaves a quiz's assignment to the quiz", async () => {
    expect(
      await failure(teacher().assignments.update({ course_id: 2, id: 9, assignment: { points_possible: 1 } })),
    ).toEqual({
      status: 400,
      body: { errors: [{ message: "assignment 9 is quiz 3's: change or ungrade the quiz instead" }] },
    });
  });
});

describe('DELETE /api/v1/courses/:course_id/assignments/:id', () => {
  it('answers the assignment marked deleted; it leaves every list, and its submissions and grades stay', async () => {
    const graded = rows(`SELECT user_id, score, grade FROM submissions WHERE assignment_id = 1 ORDER BY user_id`);
    const gone = await teacher().assignments.delete({ course_id: 1, id: 1 });
    expect(gone).toMatchObject({
      id: 1,
      name: 'Cell Structure Lab Report',
      published: false,
      workflow_state: 'deleted',
    });
    expect((await collect(teacher().assignments.list({ course_id: 1 }))).map((a) => a.id)).toEqual([2, 3]);
    expect(await statusOf(teacher().assignments.get({ course_id: 1, id: 1 }))).toBe(404);
    expect(await statusOf(teacher().assignments.delete({ course_id: 1, id: 1 }))).toBe(404);
    expect(rows(`SELECT user_id, score, grade FROM submissions WHERE assignment_id = 1 ORDER BY user_id`)).toEqual(
      graded,
    );
    expect(graded.length).toBeGreaterThan(0);
  });

  it('takes along the discussion it grades, as deleting the discussion takes the assignment', async () => {
    expect(await teacher().discussions.getTopic({ course_id: 1, topic_id: 5 })).toMatchObject({ assignment_id: 3 });
    await teacher().assignments.delete({ course_id: 1, id: 3 });
    expect(await statusOf(teacher().discussions.getTopic({ course_id: 1, topic_id: 5 }))).toBe(404);
  });

  it("is for those who manage the course content, and refuses a quiz's assignment", async () => {
    expect(await statusOf(as(TOKENS.student).assignments.delete({ course_id: 1, id: 2 }))).toBe(401);
    expect(await statusOf(as(TOKENS.observer).assignments.delete({ course_id: 1, id: 2 }))).toBe(401);
    expect(await failure(teacher().assignments.delete({ course_id: 2, id: 9 }))).toMatchObject({ status: 400 });
    expect((await collect(teacher().assignments.list({ course_id: 2 }))).map((a) => a.id)).toContain(9);
    expect((await collect(teacher().assignments.list({ course_id: 1 }))).map((a) => a.id)).toEqual([1, 2, 3]);
  });
});

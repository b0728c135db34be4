// A root account's enrollment terms in the mock (canvas-lms terms_api_controller.rb): listed the
// latest start first with the undated ones before them, active ones unless asked, paged inside
// {"enrollment_terms": […]}; one by id or sis_term_id:X in any state; only a root account has terms;
// its admins (and those of accounts below it) and its teachers may read them, SIS ids only those
// who may read SIS data; its admins make, change and delete them as terms_controller.rb does (dates
// checked, per-type dates kept, the default term and a term with courses never deleted).
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token, { perPage: 2 }).ops;
const admin = () => as(TOKENS.admin);

function addTerm(name: string, sis: string | null, start: string | null, end: string | null, state = 'active') {
  mock.db
    .prepare(
      'INSERT INTO enrollment_terms (root_account_id, name, sis_term_id, workflow_state, start_at, end_at, ' +
        "created_at) VALUES (1, ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z')",
    )
    .run(name, sis, state, start, end);
}

describe("a root account's terms", () => {
  it('are listed undated first, then the latest start, the latest end, the oldest; page by page', async () => {
    addTerm('Spring 2026', '2026-SP', '2026-01-10T00:00:00Z', '2026-05-20T00:00:00Z');
    addTerm('Summer 2026 long', '2026-SU2', '2026-06-01T00:00:00Z', '2026-08-30T00:00:00Z');
    addTerm('Summer 2026', '2026-SU', '2026-06-01T00:00:00Z', '2026-07-30T00:00:00Z');
    addTerm('Old', '2019-FA', '2019-08-01T00:00:00Z', '2019-12-20T00:00:00Z', 'deleted');
    const terms = await collect(admin().terms.list({ account_id: 1 }));
    expect(terms.map((t) => t.name)).toEqual([
      'Default Term',
      'Fall 2026',
      'Summer 2026 long',
      'Summer 2026',
      'Spring 2026',
    ]);
    expect(terms[1]).toEqual({
      id: expect.any(Number),
      name: 'Fall 2026',
      start_at: null,
      end_at: null,
      created_at: expect.any(String),
      workflow_state: 'active',
      grading_period_group_id: null,
      sis_term_id: '2026-FA',
    });
    const deleted = await collect(admin().terms.list({ account_id: 1, workflow_state: ['deleted'] }));
    expect(deleted.map((t) => [t.name, t.workflow_state])).toEqual([['Old', 'deleted']]);
    expect(await collect(admin().terms.list({ account_id: 'self', workflow_state: ['all'] }))).toHaveLength(6);
    const res = await mock.handler({
      method: 'GET',
      url: 'http://lms.mock/api/v1/accounts/1/terms?per_page=2&include[]=overrides',
      headers: { authorization: `Bearer ${TOKENS.admin}`, 'user-agent': 'lms-test' },
    });
    const body = JSON.parse(res.body as string) as { enrollment_terms: { overrides?: unknown }[] };
    expect(body.enrollment_terms).toHaveLength(2);
    expect(body.enrollment_terms[0].overrides).toEqual({});
    expect(String(res.headers.link)).toContain('rel="next"');
  });

  it('one is found by id or sis_term_id:X, a deleted one too, with its overrides; another is a 404', async () => {
    addTerm('Old', '2019-FA', null, null, 'deleted');
    const fall = await admin().terms.get({ account_id: 1, id: 'sis_term_id:2026-FA' });
    expect(fall).toMatchObject({ name: 'Fall 2026', sis_term_id: '2026-FA', overrides: {} });
    expect(await admin().terms.get({ account_id: 'self', id: String(fall.id) })).toEqual(fall);
    expect(await admin().terms.get({ account_id: 1, id: 'sis_term_id:2019-FA' })).toMatchObject({
      workflow_state: 'deleted',
    });
    for (const id of ['sis_term_id:1999-SP', '999', 'fall'])
      expect(await statusOf(admin().terms.get({ account_id: 1, id }))).toBe(404);
  });

  it('belong to a root account only: a sub-account is a 400 saying so', async () => {
    expect(await failure(collect(admin().terms.list({ account_id: 2 })))).toEqual({
      status: 400,
      body: { message: 'Terms only belong to root_accounts.' },
    });
    expect(await statusOf(admin().terms.get({ account_id: 2, id: 'sis_term_id:2026-FA' }))).toBe(400);
    expect(await statusOf(admin().terms.get({ account_id: 999, id: '1' }))).toBe(404);
  });

  it('are read by admins and teachers of the root account, not students or observers', async () => {
    for (const token of [TOKENS.helpdesk, TOKENS.teacher, TOKENS.ta, TOKENS.otherTeacher])
      expect(await statusOf(collect(as(token).terms.list({ account_id: 1 }))), token).toBe('ok');
    for (const token of [TOKENS.student, TOKENS.observer])
      expect(await statusOf(collect(as(token).terms.list({ account_id: 1 }))), token).toBe(401);
    // The helpdesk role reads no SIS data, nor does a teacher: the terms come without their SIS ids.
    const seen = await collect(as(TOKENS.teacher).terms.list({ account_id: 1 }));
    expect(seen.map((t) => t.name)).toContain('Fall 2026');
    expect(seen.every((t) => !('sis_term_id' in t))).toBe(true);
    expect(value(mock.db, `SELECT count(*) FROM enrollment_terms WHERE sis_term_id = '2026-FA'`)).toBe(1);
  });

  it('leave out a workflow_state that is not one, as Canvas does: the active ones', async () => {
    addTerm('Old', '2019-FA', null, null, 'deleted');
    const listed = await collect(admin().terms.list({ account_id: 1, workflow_state: ['gone' as never] }));
    expect(listed.map((t) => t.name)).toEqual(['Default Term', 'Fall 2026']);
  });
});

describe("a root account's terms, changed by its admins", () => {
  const spring = {
    name: 'Spring 2027',
    start_at: '2027-01-11T00:00:00Z',
    end_at: '2027-05-21T00:00:00Z',
    sis_term_id: '2027-SP',
    overrides: { TeacherEnrollment: { start_at: '2027-01-04T00:00:00Z', end_at: '2027-06-04T00:00:00Z' } },
  };

  it('are made with their dates, SIS id and per-type dates, and read back as made', async () => {
    const made = await admin().terms.create({ account_id: 1, enrollment_term: spring });
    expect(made).toMatchObject({
      name: 'Spring 2027',
      start_at: '2027-01-11T00:00:00.000Z',
      end_at: '2027-05-21T00:00:00.000Z',
      workflow_state: 'active',
      sis_term_id: '2027-SP',
      overrides: { TeacherEnrollment: { start_at: '2027-01-04T00:00:00.000Z', end_at: '2027-06-04T00:00:00.000Z' } },
    });
    expect(await admin().terms.get({ account_id: 1, id: 'sis_term_id:2027-SP' })).toEqual(made);
  });

  it('are changed only in what an update names; a per-type date is set, others kept', async () => {
    const made = await admin().terms.create({ account_id: 1, enrollment_term: spring });
    const changed = await admin().terms.update({
      account_id: 1,
      id: 'sis_term_id:2027-SP',
      // Rails's classify reads student_enrollment as StudentEnrollment.
      enrollment_term: {
        end_at: '2027-05-28T00:00:00Z',
        overrides: { student_enrollment: { end_at: '2027-05-30T00:00:00Z' } },
      } as never,
    });
    // The start and the end one request gives are compared as times, whatever their zones.
    const zoned = await admin().terms.update({
      account_id: 1,
      id: String(made.id),
      enrollment_term: { start_at: '2027-01-02T01:00:00+09:00', end_at: '2027-01-01T20:00:00Z' },
    });
    expect(zoned).toMatchObject({ start_at: '2027-01-01T16:00:00.000Z', end_at: '2027-01-01T20:00:00.000Z' });
    expect(changed).toMatchObject({
      id: made.id,
      name: 'Spring 2027',
      start_at: made.start_at,
      end_at: '2027-05-28T00:00:00.000Z',
    });
    expect(changed.overrides).toEqual({
      StudentEnrollment: { start_at: null, end_at: '2027-05-30T00:00:00.000Z' },
      TeacherEnrollment: {
        start_at: '2027-01-04T00:00:00.000Z',
        end_at: '2027-06-04T00:00:00.000Z',
      },
    });
  });

  it.each([
    [
      'an end before the start',
      { start_at: '2027-02-01T00:00:00Z', end_at: '2027-01-01T00:00:00Z' },
      { base: [{ message: 'End dates cannot be before start dates' }] },
    ],
    [
      'a per-type end before its start',
      { overrides: { StudentEnrollment: { start_at: '2027-02-01T00:00:00Z', end_at: '2027-01-01T00:00:00Z' } } },
      { base: [{ message: 'End dates cannot be before start dates' }] },
    ],
    [
      'an enrollment type that is none',
      { overrides: { ObserverEnrollment: { start_at: '2027-02-01T00:00:00Z' } } },
      undefined,
    ],
    ['a name over 255 characters', { name: 'x'.repeat(256) }, { name: [{ type: 'too_long' }] }],
    [
      'a SIS id another term has',
      { sis_term_id: '2026-FA' },
      { sis_source_id: [{ message: 'SIS ID "2026-FA" is already in use' }] },
    ],
  ])('refuse %s with a 400, and nothing changes', async (_, fields, errors) => {
    const made = await admin().terms.create({ account_id: 1, enrollment_term: spring });
    const res = await failure(
      admin().terms.update({ account_id: 1, id: String(made.id), enrollment_term: fields as never }),
    );
    expect(res.status).toBe(400);
    if (errors) expect(res.body).toMatchObject({ errors });
    else expect(res.body).toEqual({ message: 'Invalid enrollment type in overrides' });
    expect(await admin().terms.get({ account_id: 1, id: String(made.id) })).toEqual(made);
  });

  it('without enrollment_term is a 400, and a deleted or missing term is a 404 to change', async () => {
    const res = await failure(admin().terms.create({ account_id: 1 } as never));
    expect(res.status).toBe(400);
    const made = await admin().terms.create({ account_id: 1, enrollment_term: spring });
    await admin().terms.delete({ account_id: 1, id: String(made.id) });
    for (const id of [String(made.id), '999'])
      expect(await statusOf(admin().terms.update({ account_id: 1, id, enrollment_term: { name: 'x' } }))).toBe(404);
  });

  it('take a SIS id only from those who manage SIS data', async () => {
    // The helpdesk role, given the root account's settings but not its SIS data.
    mock.db.prepare('UPDATE roles SET permissions = ? WHERE id = 7').run(JSON.stringify(['manage_account_settings']));
    const made = await as(TOKENS.helpdesk).terms.create({ account_id: 1, enrollment_term: spring });
    expect(made.name).toBe('Spring 2027');
    expect(value(mock.db, 'SELECT sis_term_id FROM enrollment_terms WHERE id = ?', made.id)).toBeNull();
  });

  it("are changed by the root account's admins only", async () => {
    for (const token of [TOKENS.helpdesk, TOKENS.teacher, 'x~mock-subadmin', TOKENS.student])
      expect(await statusOf(as(token).terms.create({ account_id: 1, enrollment_term: spring })), token).toBe(401);
    expect(await statusOf(admin().terms.create({ account_id: 2, enrollment_term: spring }))).toBe(400);
    expect(value(mock.db, `SELECT count(*) FROM enrollment_terms WHERE name = 'Spring 2027'`)).toBe(0);
  });

  it('are deleted unless the default term or a course is in it, as Canvas refuses', async () => {
    const fall = await admin().terms.get({ account_id: 1, id: 'sis_term_id:2026-FA' });
    const defaultTerm = (await collect(admin().terms.list({ account_id: 1 }))).find((t) => t.name === 'Default Term')!;
    expect(await failure(admin().terms.delete({ account_id: 1, id: String(defaultTerm.id) }))).toMatchObject({
      status: 400,
      body: { errors: { workflow_state: [{ message: 'Cannot delete the default term' }] } },
    });
    await admin().courses.update({ id: '1', course: { term_id: 'sis_term_id:2026-FA' } });
    expect(await failure(admin().terms.delete({ account_id: 1, id: String(fall.id) }))).toMatchObject({
      status: 400,
      body: { errors: { workflow_state: [{ message: 'Cannot delete a term with active courses' }] } },
    });
    await admin().courses.update({ id: '1', course: { term_id: String(defaultTerm.id) } });
    expect(await admin().terms.delete({ account_id: 1, id: 'sis_term_id:2026-FA' })).toMatchObject({
      id: fall.id,
      workflow_state: 'deleted',
    });
    const live = await collect(admin().terms.list({ account_id: 1 }));
    expect(live.map((t) => t.name)).toEqual(['Default Term']);
    // Canvas's default_term? is any term of that name, not only the first.
    const another = await admin().terms.create({ account_id: 1, enrollment_term: { name: 'Default Term' } });
    expect(await statusOf(admin().terms.delete({ account_id: 1, id: String(another.id) }))).toBe(400);
  });
});

// Calendar events and the upcoming-events list: what each user's contexts hold in the coming week,
// by the mock's clock (LMS_MOCK_NOW 2026-11-02T12:00Z in these tests).
import { describe, expect, it } from 'vitest';
import type { NewCalendarEvent } from '../../src/spec/types/calendar.js';
import { clientFor, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { session } from '../helpers/run-lms.js';

const ids = (events: { id: number | string }[]) => events.map((e) => e.id);

describe('upcoming events', () => {
  it(
    "lists the events of the caller's courses, groups " + 'and own calendar in the coming week, soonest first',
    async () => {
      const mock = freshMock();
      const sam = clientFor(mock, TOKENS.student);
      const events = await sam.ops.users.upcomingEvents({});
      // the review session (course 1, tomorrow), the lab group's write-up (group 1), the field trip (all day);
      // not the orientation (past) nor the midterm (12 days away)
      // and the seed's worksheet due this week in Organic Chemistry
      expect(events.map((e) => e.title)).toEqual([
        'Cell biology review session',
        'Lab Group 1 write-up',
        'Stereochemistry Worksheet',
        'Field trip: botanical garden',
      ]);
      expect(events[0]).toMatchObject({
        context_code: 'course_1',
        location_name: 'Science Hall 101',
        all_day: false,
        url: `http://lms.mock/api/v1/calendar_events/${events[0]!.id}`,
      });
      expect(events[3]).toMatchObject({ all_day: true, all_day_date: '2026-11-06' });
    },
  );

  it.each([
    ['a student of other courses', TOKENS.otherTeacher, []],
    [
      'a student in course 1 but not lab group 1',
      TOKENS.privateStudent,
      ['Cell biology review session', 'Field trip: botanical garden'],
    ],
    ['the admin, enrolled nowhere', TOKENS.admin, []],
  ])('shows %s only their own contexts', async (_who, token, titles) => {
    const events = await clientFor(freshMock(), token).ops.users.upcomingEvents({});
    expect(events.map((e) => e.title)).toEqual(titles);
  });

  it('includes published assignments due within the week, in the assignment form', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const due = await teacher.ops.assignments.create({
      course_id: 1,
      assignment: { name: 'Osmosis worksheet', due_at: '2026-11-03T10:00:00Z', published: true },
    });
    await teacher.ops.assignments.create({
      course_id: 1,
      assignment: { name: 'Draft only', due_at: '2026-11-03T11:00:00Z', published: false },
    });
    await teacher.ops.assignments.create({
      course_id: 1,
      assignment: { name: 'Next month', due_at: '2026-12-03T11:00:00Z', published: true },
    });
    const events = await clientFor(mock, TOKENS.student).ops.users.upcomingEvents({});
    expect(events.map((e) => e.title)).toEqual([
      'Osmosis worksheet',
      'Cell biology review session',
      'Lab Group 1 write-up',
      'Stereochemistry Worksheet',
      'Field trip: botanical garden',
    ]);
    expect(events[0]).toMatchObject({
      id: `assignment_${due.id}`,
      start_at: '2026-11-03T10:00:00.000Z',
      context_code: 'course_1',
      workflow_state: 'published',
      assignment: { id: due.id, name: 'Osmosis worksheet' },
    });
  });

  it('lists at most 20', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    for (let i = 0; i < 25; i++)
      await teacher.ops.calendar.create({
        calendar_event: { context_code: 'course_1', title: `Office hour ${i}`, start_at: '2026-11-05T10:00:00Z' },
      });
    expect(await clientFor(mock, TOKENS.student).ops.users.upcomingEvents({})).toHaveLength(20);
  });
});

describe('POST /api/v1/calendar_events', () => {
  const event = (
    context_code: string,
    extra: Partial<NewCalendarEvent> = {},
  ): { calendar_event: NewCalendarEvent } => ({
    calendar_event: {
      context_code,
      title: 'Study group',
      start_at: '2026-11-04T17:00:00Z',
      end_at: '2026-11-04T18:00:00Z',
      ...extra,
    },
  });

  it.each([
    ['a teacher, on their course', TOKENS.teacher, 'course_1', 'ok'],
    ['the admin, on any course', TOKENS.admin, 'course_3', 'ok'],
    ['a student, on their course', TOKENS.student, 'course_1', 401],
    ['a student, on their own calendar', TOKENS.student, 'user_7', 'ok'],
    ["a student, on someone else's", TOKENS.student, 'user_8', 401],
    ['a member, on their group', TOKENS.student, 'group_1', 'ok'],
    ['a non-member, on a group', TOKENS.privateStudent, 'group_1', 401],
    ['anyone, on a course that does not exist', TOKENS.admin, 'course_999', 404],
  ] as const)('%s: %s', async (_who, token, code, expected) => {
    expect(await statusOf(clientFor(freshMock(), token).ops.calendar.create(event(code)))).toBe(expected);
  });

  it.each([
    ['a context code of another form', event('account_1'), 'context_code'],
    ['an end before the start', event('user_7', { end_at: '2026-11-04T16:00:00Z' }), 'end_at'],
    ['a start that is no time', event('user_7', { start_at: 'next tuesday' }), 'start_at'],
  ])('refuses %s with a 400 naming it', async (_what, body, field) => {
    const sam = clientFor(freshMock(), TOKENS.student);
    const failure = await sam.ops.calendar.create(body).catch((e: unknown) => e as { status: number; message: string });
    expect(failure).toMatchObject({ status: 400 });
    expect((failure as { message: string }).message).toContain(field);
  });

  it("creates an event that the owner's upcoming list then shows", async () => {
    const mock = freshMock();
    const sam = clientFor(mock, TOKENS.student);
    const made = await sam.ops.calendar.create(event('user_7', { title: 'Dentist', location_name: 'Main St' }));
    expect(made).toMatchObject({
      title: 'Dentist',
      context_code: 'user_7',
      location_name: 'Main St',
      workflow_state: 'active',
      start_at: '2026-11-04T17:00:00.000Z',
    });
    expect(ids(await sam.ops.users.upcomingEvents({}))).toContain(made.id);
    expect(ids(await clientFor(mock, TOKENS.otherStudent).ops.users.upcomingEvents({}))).not.toContain(made.id);
  });
});

describe('lms upcoming and lms calendar create', () => {
  it('lists the coming week as a table on a terminal', async () => {
    const r = await session().run('upcoming', { tty: true, env: { LMS_TOKEN: TOKENS.student } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+START_AT/);
    expect(r.stdout).toContain('Lab Group 1 write-up');
  });

  it('adds an event to your own calendar with --user self', async () => {
    const lms = session();
    const r = await lms.run(
      'calendar create --user self --title Dentist --start 2026-11-05T09:00:00Z -o json --fields context_code,title',
      { env: { LMS_TOKEN: TOKENS.student } },
    );
    expect(JSON.parse(r.stdout)).toEqual({ context_code: 'user_7', title: 'Dentist' });
  });

  it.each([
    [
      'no calendar',
      'calendar create --title T --start 2026-11-05T09:00:00Z',
      'give one of --course, --group or --user',
    ],
    [
      'two calendars',
      'calendar create --course 1 --group 1 --title T --start 2026-11-05T09:00:00Z',
      'not --course and --group',
    ],
    [
      'a course that is no id',
      'calendar create --course BIO --title T --start 2026-11-05T09:00:00Z',
      '--course takes a numeric id',
    ],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

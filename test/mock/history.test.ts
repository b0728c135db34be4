// Gradebook history: days (in the course's time zone), a day's graders, a grader's versions on an
// assignment, and the paged feed — all read from the versions grading writes, update_grades included.
import { describe, expect, it } from 'vitest';
import { openMock } from '../../src/mock/runtime.js';
import { clientFor, collect, freshMock, seedSchool, statusOf, TOKENS } from '../helpers/mock-client.js';

describe('gradebook history', () => {
  it('lists the days with grading, newest first, with graders and their assignments', async () => {
    const mock = freshMock();
    const days = await clientFor(mock, TOKENS.teacher).ops.history.days({ course_id: 1 });
    expect(days.map((d) => [d.date, d.graders.map((g) => [g.name, g.assignments.map((a) => a.id)])])).toEqual([
      ['2026-10-21', [['Tess Teacher', [3]]]],
      ['2026-09-18', [['Tess Teacher', [1]]]],
      ['2026-09-17', [['Tess Teacher', [1]]]],
      [
        '2026-09-16',
        [
          ['Tess Teacher', [1]],
          ['Tara Assistant', [1]],
        ],
      ],
      [
        '2026-09-08',
        [
          ['Tess Teacher', [2]],
          ['Tara Assistant', [2]],
        ],
      ],
    ]);
    expect(days[0].graders[0].assignments[0]).toMatchObject({ name: 'Genetics Essay', grading_type: 'letter_grade' });
  });

  it("dates a grade by the course's time zone, not UTC", async () => {
    const mock = openMock(
      ':memory:',
      { LMS_MOCK_NOW: '2026-11-03T03:30:00.000Z', LMS_MOCK_JOB_TICK_MS: '0' },
      seedSchool,
    );
    const teacher = clientFor(mock, TOKENS.teacher);
    await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      submission: { posted_grade: '11' },
    });
    // 03:30 UTC on the 3rd is the evening of the 2nd in America/Chicago.
    expect((await teacher.ops.history.days({ course_id: 1 }))[0].date).toBe('2026-11-02');
    expect((await teacher.ops.history.day({ course_id: 1, date: '2026-11-02' })).map((g) => g.id)).toEqual([3]);
  });

  it('dates it by the zone of its own course, where that differs from the account', async () => {
    const mock = openMock(
      ':memory:',
      { LMS_MOCK_NOW: '2026-11-03T03:30:00.000Z', LMS_MOCK_JOB_TICK_MS: '0' },
      seedSchool,
    );
    mock.db.prepare(`UPDATE courses SET time_zone = 'Asia/Tokyo' WHERE id = 1`).run();
    const teacher = clientFor(mock, TOKENS.teacher);
    await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: 1,
      user_id: 9,
      submission: { posted_grade: '11' },
    });
    // 03:30 UTC on the 3rd is midday of the 3rd in Tokyo.
    expect((await teacher.ops.history.days({ course_id: 1 }))[0].date).toBe('2026-11-03');
  });

  it("lists a day's graders, and one grader's versions with the grade before and after", async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    expect((await teacher.ops.history.day({ course_id: 1, date: '2026-09-16' })).map((g) => [g.id, g.name])).toEqual([
      [3, 'Tess Teacher'],
      [5, 'Tara Assistant'],
    ]);
    expect(await teacher.ops.history.day({ course_id: 1, date: '2026-01-01' })).toEqual([]);
    const histories = await teacher.ops.history.submissions({
      course_id: 1,
      date: '2026-09-18',
      grader_id: 3,
      assignment_id: 1,
    });
    expect(histories).toHaveLength(1);
    expect(histories[0].versions[0]).toMatchObject({
      user_id: 7,
      user_name: 'Sam Student',
      assignment_name: 'Cell Structure Lab Report',
      grader: 'Tess Teacher',
      previous_grade: '18',
      previous_graded_at: '2026-09-16T14:05:00Z',
      previous_grader: 'Tess Teacher',
      new_grade: '19',
      new_graded_at: '2026-09-18T15:30:00Z',
      new_grader: 'Tess Teacher',
      current_grade: '19',
    });
  });

  it('reads grades set by update_grades, newest first or ascending, filtered, page by page', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher, { perPage: 2 });
    await teacher.ops.grading.updateGrades({
      course_id: 1,
      assignment_id: 1,
      grade_data: { 9: { posted_grade: '14' }, 10: { posted_grade: '8' } },
    });
    await mock.jobs.idle();
    const feed = await collect(teacher.ops.history.feed({ course_id: 1 }));
    expect(feed.map((v) => [v.user_id, v.assignment_id, v.grade])).toEqual([
      [10, 1, '8'],
      [9, 1, '14'],
      [7, 3, 'B+'],
      [7, 1, '19'],
      [11, 1, '20'],
      [8, 1, '15'],
      [7, 1, '18'],
      [8, 2, 'incomplete'],
      [7, 2, 'complete'],
    ]);
    expect(feed[0]).toMatchObject({
      grader: 'Tess Teacher',
      graded_at: '2026-11-02T12:00:00.000Z',
      user_name: 'Mina Okafor',
    });
    expect(feed[0]).not.toHaveProperty('new_grade');
    const sam = await collect(
      teacher.ops.history.feed({ course_id: 1, user_id: 7, assignment_id: 1, ascending: true }),
    );
    expect(sam.map((v) => v.grade)).toEqual(['18', '19']);
    expect((await teacher.ops.history.days({ course_id: 1 }))[0]).toMatchObject({
      date: '2026-11-02',
      graders: [{ id: 3 }],
    });
  });

  it.each([
    ['a student', TOKENS.student, '/days', 401],
    ['the observer', TOKENS.observer, '/feed', 401],
    ['a teacher of another course', TOKENS.otherTeacher, '/days', 401],
    ['a date that is not YYYY-MM-DD', TOKENS.teacher, '/2026-9-16', 400],
    ['a date that does not exist', TOKENS.teacher, '/2026-02-30', 400],
    ['an unknown course', TOKENS.admin, '/days', 404],
  ] as const)('refuses %s', async (what, token, tail, status) => {
    const mock = freshMock();
    const course = what === 'an unknown course' ? 999 : 1;
    const res = await mock.handler({
      method: 'GET',
      url: `http://lms.mock/api/v1/courses/${course}/gradebook_history${tail}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(status);
  });

  it(
    'lets the limited TA read the history, and a grader ' + 'id of 0 finds nothing in a school with no autograding',
    async () => {
      const mock = freshMock();
      const ta = clientFor(mock, TOKENS.ta);
      expect(await statusOf(ta.ops.history.days({ course_id: 1 }))).toBe('ok');
      expect(
        await ta.ops.history.submissions({ course_id: 1, date: '2026-09-16', grader_id: 0, assignment_id: 1 }),
      ).toEqual([]);
    },
  );
});

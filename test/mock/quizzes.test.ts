// Quizzes in the mock, rule by rule: every parameter rule of the spec is a 400 naming the parameter,
// a graded quiz carries an assignment, a quiz students started cannot be unpublished, and the
// search reads the trigram index.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { QuizFields } from '../../src/spec/types/quizzes.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { collect, TOKENS, clientFor, freshMock, statusOf, failure } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const teacher = () => as(TOKENS.teacher).quizzes;

describe('listing and reading', () => {
  it("lists a course's quizzes; students see the published ones only", async () => {
    const bio = await collect(teacher().list({ course_id: 1 }));
    expect(bio.map((q) => [q.id, q.quiz_type, q.published])).toEqual([
      [1, 'practice_quiz', true],
      [2, 'survey', true],
    ]);
    const chem = await collect(teacher().list({ course_id: 'sis_course_id:CHEM-201' }));
    expect(chem.map((q) => [q.id, q.quiz_type, q.published])).toEqual([
      [3, 'assignment', true],
      [4, 'graded_survey', false],
    ]);
    const seen = await collect(as(TOKENS.student).quizzes.list({ course_id: 2 }));
    expect(seen.map((q) => q.id)).toEqual([3]);
    expect(await statusOf(as(TOKENS.student).quizzes.get({ course_id: 2, id: 4 }))).toBe(404);
    expect(await statusOf(teacher().get({ course_id: 2, id: 1 }))).toBe(404);
    // Not enrolled in the course at all.
    expect(await statusOf(collect(as(TOKENS.otherTeacher).quizzes.list({ course_id: 1 })))).toBe(401);
  });

  it.each([
    [2, 'exam', [3]],
    [2, 'EXAM', [3]],
    [2, 'survey', [4]],
    [2, 'Su', [4]],
    [1, 'check-in', [1]],
    [1, 'Su', [2]],
    [1, 'ey', [2]],
    [1, '100%', []],
    [1, 'zzz', []],
  ] as const)('in course %i, search_term %s finds %j', async (course, term, ids) => {
    expect((await collect(teacher().list({ course_id: course, search_term: term }))).map((q) => q.id)).toEqual(ids);
  });

  it('pages by key', async () => {
    const paged = await collect(clientFor(mock, TOKENS.teacher, { perPage: 1 }).ops.quizzes.list({ course_id: 2 }));
    expect(paged.map((q) => q.id)).toEqual([3, 4]);
  });

  it('shows the access code to graders only, and every field of the spec', async () => {
    const exam = await teacher().get({ course_id: 2, id: 3 });
    expect(exam).toMatchObject({
      title: 'Midterm Exam',
      quiz_type: 'assignment',
      time_limit: 45,
      allowed_attempts: 2,
      scoring_policy: 'keep_highest',
      one_question_at_a_time: true,
      cant_go_back: true,
      access_code: 'chirality',
      ip_filter: '192.168.1.0/24',
      question_count: 20,
      points_possible: 25,
      locked_for_user: false,
      html_url: 'http://lms.mock/courses/2/quizzes/3',
      can_unpublish: false,
      assignment_group_id: 2,
      assignment_id: expect.any(Number),
    });
    const asStudent = await as(TOKENS.student).quizzes.get({ course_id: 2, id: 3 });
    expect(asStudent).not.toHaveProperty('access_code');
    expect(asStudent).not.toHaveProperty('can_unpublish');
    // The graded quiz's assignment is among the course's assignments.
    expect(await as(TOKENS.student).assignments.get({ course_id: 2, id: exam.assignment_id! })).toMatchObject({
      name: 'Midterm Exam',
      submission_types: ['online_quiz'],
      points_possible: 25,
    });
  });

  it('locks a quiz for a student before its unlock date, with the reason', async () => {
    await teacher().update({ course_id: 1, id: 1, quiz: { unlock_at: '2026-12-01T00:00:00Z' } });
    const locked = await as(TOKENS.student).quizzes.get({ course_id: 1, id: 1 });
    expect(locked).toMatchObject({
      locked_for_user: true,
      lock_info: { asset_string: 'quiz_1', unlock_at: '2026-12-01T00:00:00.000Z' },
    });
    expect(locked.lock_explanation).toContain('locked until');
    expect((await teacher().get({ course_id: 1, id: 1 })).locked_for_user).toBe(false);
  });
});

describe('creating: the rules between parameters', () => {
  it.each<[string, QuizFields, string]>([
    [
      'assignment_group_id on a practice quiz',
      { quiz_type: 'practice_quiz', assignment_group_id: 1 },
      'assignment_group_id',
    ],
    ['assignment_group_id on a survey', { quiz_type: 'survey', assignment_group_id: 1 }, 'assignment_group_id'],
    [
      'an assignment group of another course',
      { quiz_type: 'assignment', assignment_group_id: 2 },
      'assignment_group_id',
    ],
    ['until_after_last_attempt with one attempt', { hide_results: 'until_after_last_attempt' }, 'hide_results'],
    [
      'show_correct_answers with hidden results',
      { hide_results: 'always', show_correct_answers: true },
      'show_correct_answers',
    ],
    ['scoring_policy with one attempt', { scoring_policy: 'keep_latest' }, 'scoring_policy'],
    [
      'an unknown scoring_policy',
      { allowed_attempts: 3, scoring_policy: 'keep_best' as 'keep_latest' },
      'scoring_policy',
    ],
    ['cant_go_back without one_question_at_a_time', { cant_go_back: true }, 'cant_go_back'],
    ['allowed_attempts 0', { allowed_attempts: 0 }, 'allowed_attempts'],
    ['allowed_attempts -2', { allowed_attempts: -2 }, 'allowed_attempts'],
    ['allowed_attempts that is not a number', { allowed_attempts: 'many' }, 'allowed_attempts'],
    ['an unknown quiz_type', { quiz_type: 'exam' as 'survey' }, 'quiz_type'],
    ['an unknown hide_results', { hide_results: 'sometimes' as 'always' }, 'hide_results'],
    ['a time_limit of 0', { time_limit: 0 }, 'time_limit'],
    ['an ip_filter that is a host name', { ip_filter: 'lab.example.edu' }, 'ip_filter'],
    ['an ip_filter octet above 255', { ip_filter: '10.0.0.256' }, 'ip_filter'],
    ['an ip_filter mask above /32', { ip_filter: '10.0.0.0/33' }, 'ip_filter'],
    ['an ip_filter dotted mask with holes', { ip_filter: '10.0.0.0/255.0.255.0' }, 'ip_filter'],
    ['an ip_filter with an empty entry', { ip_filter: '10.0.0.1,,10.0.0.2' }, 'ip_filter'],
    ['a due_at that is not a time', { due_at: 'next tuesday' }, 'due_at'],
    ['unlock_at after lock_at', { unlock_at: '2026-12-02T00:00:00Z', lock_at: '2026-12-01T00:00:00Z' }, 'lock_at'],
    ['a blank title', { title: '  ' }, 'title'],
  ])('refuses %s with a 400 naming %s', async (_what, quiz, field) => {
    const { status, body } = await failure(teacher().create({ course_id: 1, quiz: { title: 'T', ...quiz } }));
    expect(status).toBe(400);
    const errors = (body as { errors: Record<string, { message: string }[]> }).errors;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field][0].message).toMatch(field.split('_')[0]);
    expect((await collect(teacher().list({ course_id: 1 }))).length).toBe(2);
  });

  it.each<[string, QuizFields, Partial<Record<string, unknown>>]>([
    [
      'the defaults',
      {},
      {
        quiz_type: 'assignment',
        allowed_attempts: 1,
        scoring_policy: null,
        show_correct_answers: true,
        hide_results: null,
        time_limit: null,
        published: false,
        assignment_group_id: 1,
      },
    ],
    ['several attempts: keep_highest by default', { allowed_attempts: 3 }, { scoring_policy: 'keep_highest' }],
    [
      'unlimited attempts with keep_latest',
      { allowed_attempts: -1, scoring_policy: 'keep_latest' },
      { allowed_attempts: -1, scoring_policy: 'keep_latest' },
    ],
    [
      'results hidden until the last attempt',
      { allowed_attempts: 2, hide_results: 'until_after_last_attempt' },
      { hide_results: 'until_after_last_attempt', show_correct_answers: false },
    ],
    ['results hidden always: correct answers not shown', { hide_results: 'always' }, { show_correct_answers: false }],
    [
      'cant_go_back with one question at a time',
      { one_question_at_a_time: true, cant_go_back: true },
      { cant_go_back: true },
    ],
    [
      'an ip_filter of addresses and masks',
      { ip_filter: '192.168.1.0/24, 10.0.0.0/255.0.0.0,172.16.5.4' },
      { ip_filter: '192.168.1.0/24, 10.0.0.0/255.0.0.0,172.16.5.4' },
    ],
    [
      'a practice quiz: no assignment group',
      { quiz_type: 'practice_quiz' },
      { assignment_group_id: null, assignment_id: null },
    ],
  ])('accepts %s', async (_what, quiz, expected) => {
    expect(await teacher().create({ course_id: 1, quiz: { title: 'New quiz', ...quiz } })).toMatchObject(expected);
  });

  it("gives a graded quiz an assignment, visible among the course's assignments", async () => {
    const quiz = await teacher().create({
      course_id: 1,
      quiz: { title: 'Unit 2 Exam', quiz_type: 'assignment', due_at: '2026-12-01T23:59:00Z', published: true },
    });
    expect(quiz.assignment_id).toEqual(expect.any(Number));
    const assignment = await as(TOKENS.student).assignments.get({ course_id: 1, id: quiz.assignment_id! });
    expect(assignment).toMatchObject({
      name: 'Unit 2 Exam',
      submission_types: ['online_quiz'],
      due_at: '2026-12-01T23:59:00.000Z',
    });
    // Renamed, the assignment follows; no longer graded, it goes.
    await teacher().update({ course_id: 1, id: quiz.id, quiz: { title: 'Unit 2 Test' } });
    expect((await as(TOKENS.teacher).assignments.get({ course_id: 1, id: quiz.assignment_id! })).name).toBe(
      'Unit 2 Test',
    );
    const practice = await teacher().update({ course_id: 1, id: quiz.id, quiz: { quiz_type: 'practice_quiz' } });
    expect(practice.assignment_id).toBeNull();
    expect(await statusOf(as(TOKENS.teacher).assignments.get({ course_id: 1, id: quiz.assignment_id! }))).toBe(404);
  });

  it('lets only those who manage the course create and edit', async () => {
    expect(await statusOf(as(TOKENS.student).quizzes.create({ course_id: 1, quiz: { title: 'x' } }))).toBe(401);
    expect(await statusOf(as(TOKENS.student).quizzes.update({ course_id: 1, id: 1, quiz: { title: 'x' } }))).toBe(401);
    expect(await statusOf(as(TOKENS.admin).quizzes.create({ course_id: 1, quiz: { title: 'x' } }))).toBe('ok');
  });
});

describe('editing', () => {
  it('refuses to unpublish a quiz students started or submitted, and unpublishes one they did not', async () => {
    const { status, body } = await failure(teacher().update({ course_id: 2, id: 3, quiz: { published: false } }));
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: {
        published: [
          { attribute: 'published', type: 'invalid', message: "Can't unpublish if there are student submissions" },
        ],
      },
    });
    expect((await teacher().get({ course_id: 2, id: 3 })).published).toBe(true);
    expect((await teacher().update({ course_id: 1, id: 1, quiz: { published: false } })).published).toBe(false);
    const published = await teacher().update({ course_id: 2, id: 4, quiz: { published: true } });
    expect(published.published).toBe(true);
    // Its assignment is published with it.
    expect(await statusOf(as(TOKENS.student).assignments.get({ course_id: 2, id: published.assignment_id! }))).toBe(
      'ok',
    );
  });

  it('leaves absent fields alone, clears what a change makes meaningless, and refuses what it breaks', async () => {
    const q = await teacher().update({ course_id: 2, id: 3, quiz: { allowed_attempts: 1, notify_of_update: false } });
    expect(q).toMatchObject({ allowed_attempts: 1, scoring_policy: null, time_limit: 45, cant_go_back: true });
    const turnedOff = await teacher().update({ course_id: 2, id: 3, quiz: { one_question_at_a_time: false } });
    expect(turnedOff.cant_go_back).toBe(false);
    await teacher().update({
      course_id: 2,
      id: 3,
      quiz: { allowed_attempts: 3, hide_results: 'until_after_last_attempt' },
    });
    const { status, body } = await failure(teacher().update({ course_id: 2, id: 3, quiz: { allowed_attempts: 1 } }));
    expect(status).toBe(400);
    expect(Object.keys((body as { errors: object }).errors)).toEqual(['hide_results']);
    const cleared = await teacher().update({
      course_id: 2,
      id: 3,
      quiz: { time_limit: null, ip_filter: null, access_code: null },
    });
    expect(cleared).toMatchObject({ time_limit: null, ip_filter: null, access_code: null });
  });

  it('refuses a notify_of_update that is not a boolean', async () => {
    const { status, body } = await failure(
      teacher().update({ course_id: 1, id: 1, quiz: { notify_of_update: 'maybe' as unknown as boolean } }),
    );
    expect(status).toBe(400);
    expect(Object.keys((body as { errors: object }).errors)).toEqual(['notify_of_update']);
  });
});

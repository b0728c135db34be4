// A 404 says what was not found: of a line that names several ids, the ones the instance does not
// have, each read on its own; of an id that is no id (not digits, no prefix), the SIS form that
// finds the object, when one does.
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/model/command.js';
import { explainFailure } from '../../src/cli/explain-failure.js';
import type { ApiClient } from '../../src/client/client.js';
import { ApiError } from '../../src/errors.js';
import { session } from '../helpers/run-lms.js';

describe('a 404 of a line that names several ids', () => {
  it.each([
    [
      'the user to enrol',
      'enrollments add --course 1 --user nosuch',
      'error: user nosuch not found (POST /api/v1/courses/1/enrollments → 404)\n',
    ],
    [
      'the course',
      'enrollments add --course 999 --user 7',
      'error: course 999 not found (POST /api/v1/courses/999/enrollments → 404)\n',
    ],
    [
      'the section',
      'enrollments add --section 999 --user 7',
      'error: section 999 not found (POST /api/v1/sections/999/enrollments → 404)\n',
    ],
    [
      'both',
      'enrollments add --course 999 --user 999999',
      'error: course 999 and user 999999 not found (POST /api/v1/courses/999/enrollments → 404)\n',
    ],
    [
      'the assignment of a course',
      'submissions get --course 1 --assignment 999 --user 7',
      'error: assignment 999 not found (GET /api/v1/courses/1/assignments/999/submissions/7 → 404)\n',
    ],
  ])('names %s', async (_what, line, stderr) => {
    expect(await session().run(line)).toEqual({ exitCode: 4, stdout: '', stderr });
  });

  it('says so in -o json, as not_found', async () => {
    const r = await session().run('enrollments add --course 1 --user nosuch -o json');
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: 'ApiError',
      status: 404,
      message: 'user nosuch not found (POST /api/v1/courses/1/enrollments → 404)',
      not_found: ['user nosuch'],
    });
  });
});

/** A client whose reads answer by id: 200 for those listed as present, else the status given. */
function clientAnswering(answers: Record<string, number>): { client: ApiClient; read: string[] } {
  const read: string[] = [];
  const get = (what: string) => async (params: { id: string }) => {
    const key = `${what} ${params.id}`;
    read.push(key);
    const status = answers[key] ?? 404;
    if (status === 200) return { id: 1 };
    throw new ApiError({
      status,
      method: 'GET',
      url: `https://lms.example.edu/api/v1/${what}s/${params.id}`,
      messages: [],
    });
  };
  const ops = {
    courses: { get: get('course') },
    users: { get: get('user') },
    sections: { get: get('section') },
    accounts: { get: get('account') },
  };
  return { client: { ops } as unknown as ApiClient, read };
}

const enrol = {
  name: 'add',
  summary: '',
  options: [
    { long: 'course', value: 'id', description: '', ids: 'course' },
    { long: 'user', value: 'id', description: '', ids: 'user' },
  ],
  run: async () => undefined,
} as unknown as CommandSpec<never>;
const refused = new ApiError({
  status: 404,
  method: 'POST',
  url: 'https://lms.example.edu/api/v1/courses/5/enrollments',
  messages: ['The specified resource does not exist.'],
  subject: 'course 5',
});

describe('what the instance will not show', () => {
  it('is not said to be missing: a course the caller may not read (401) is no answer either way', async () => {
    const { client, read } = clientAnswering({ 'course 5': 401 });
    const error = (await explainFailure(
      refused,
      enrol,
      [],
      { course: '5', user: 'sam' },
      async () => client,
    )) as ApiError;
    // The user's SIS form is tried too (it finds no one): no hint.
    expect(read).toEqual(['course 5', 'user sis_login_id:sam', 'user sis_user_id:sam']);
    expect(error.message).toBe('user sam not found (POST /api/v1/courses/5/enrollments → 404)');
    expect(error.hint).toBeUndefined();
  });

  it('leaves the 404 as it was when every id is there, or none can be told', async () => {
    for (const answers of [
      { 'course 5': 200, 'user sis_login_id:sam': 200 },
      { 'course 5': 403, 'user sis_login_id:sam': 401 },
    ]) {
      const { client } = clientAnswering(answers);
      expect(await explainFailure(refused, enrol, [], { course: '5', user: 'sam' }, async () => client)).toBe(refused);
    }
  });

  it('asks nothing of an error that is not a 404', async () => {
    const { client, read } = clientAnswering({});
    const forbidden = new ApiError({
      status: 403,
      method: 'POST',
      url: 'https://lms.example.edu/api/v1/courses/5/enrollments',
      messages: [],
    });
    expect(await explainFailure(forbidden, enrol, [], { course: '5', user: 'sam' }, async () => client)).toBe(
      forbidden,
    );
    expect(read).toEqual([]);
  });
});

describe('an id that looks like a SIS id', () => {
  const lms = session();
  it.each([
    [
      'a course',
      'courses get BIO-101',
      'error: course BIO-101 not found (GET /api/v1/courses/BIO-101 → 404)\nhint: did you mean ' +
        'sis_course_id:BIO-101?\n',
      'courses get sis_course_id:BIO-101',
    ],
    [
      'a section',
      'sections get BIO-101-A',
      'error: section BIO-101-A not found (GET /api/v1/sections/BIO-101-A → 404)\nhint: did you mean ' +
        'sis_section_id:BIO-101-A?\n',
      'sections get sis_section_id:BIO-101-A',
    ],
    [
      'an account',
      'accounts get MSU',
      'error: account MSU not found (GET /api/v1/accounts/MSU → 404)\nhint: did you mean sis_account_id:MSU?\n',
      'accounts get sis_account_id:MSU',
    ],
    // A bare word is a login: no login T-005, but a SIS id.
    [
      'a user',
      'users get T-005',
      'error: user T-005 not found (GET /api/v1/users/sis_login_id:T-005 → 404)\nhint: did you mean ' +
        'sis_user_id:T-005?\n',
      'users get sis_user_id:T-005',
    ],
    [
      'the course of a write',
      'enrollments add --course BIO-101 --user 7',
      'error: course BIO-101 not found (POST /api/v1/courses/BIO-101/enrollments → 404)\nhint: did you mean ' +
        'sis_course_id:BIO-101?\n',
      'enrollments add --course sis_course_id:BIO-101 --user 7',
    ],
  ])('%s: names the SIS form, which works', async (_what, line, stderr, meant) => {
    expect(await lms.run(line)).toEqual({ exitCode: 4, stdout: '', stderr });
    const fixed = await lms.run(`${meant} -o json`);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
  });

  it('names no SIS form that finds nothing either', async () => {
    expect(await lms.run('courses get NOPE-1')).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'error: course NOPE-1 not found (GET /api/v1/courses/NOPE-1 → 404)\n',
    });
  });
});

describe("a refusal of what the caller's role may not ask", () => {
  const teacher = { env: { LMS_TOKEN: '3~mock-tteacher' } };
  const lms = session();
  it.each([
    [
      "an account's users",
      'users list --account 1',
      'GET /api/v1/accounts/1/users?per_page=100',
      'the people of a course of yours: lms enrollments list --course COURSE',
    ],
    [
      "an account's courses",
      'courses list --account 1',
      'GET /api/v1/accounts/1/courses?per_page=100',
      'the courses you are enrolled in: lms courses list',
    ],
    [
      "another user's enrollments",
      'enrollments list --user 7',
      'GET /api/v1/users/7/enrollments?per_page=100',
      "a user's enrollments in a course of yours: lms enrollments list --course COURSE --user 7",
    ],
    [
      "an account's outcomes",
      'outcomes tree --account 1',
      'GET /api/v1/accounts/1/root_outcome_group',
      "a course's outcomes: lms outcomes tree --course COURSE",
    ],
  ])('%s names the command a teacher can use, which works', async (_what, line, request, instead) => {
    const r = await lms.run(line, teacher);
    expect(r).toEqual({
      exitCode: 3,
      stdout: '',
      stderr:
        `error: ${request} failed with 401: user not authorized to perform that action\nhint: the token's ` +
        `user may not do this; for ${instead}\n`,
    });
    const command = instead.slice(instead.indexOf('lms ') + 4).replace('COURSE', '1');
    const works = await lms.run(`${command} -o json`, teacher);
    expect(works.exitCode, works.stderr).toBe(0);
    expect(JSON.parse(works.stdout)).not.toEqual([]);
  });

  it('a token refused as such gets what to do about the token, not another command', async () => {
    const r = await lms.run('users list --account 1', { env: { LMS_TOKEN: 'not-a-token' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('hint: LMS_TOKEN is not a token of the mock');
    expect(r.stderr).not.toContain('enrollments list');
  });

  it('a refusal of a route the table does not know keeps its hint', async () => {
    const r = await lms.run('admins list --account 1', teacher);
    expect(r.stderr).toBe(
      'error: GET /api/v1/accounts/1/admins?per_page=100 failed with 401: user not authorized to perform that ' +
        "action\nhint: the token's user may not do this\n",
    );
  });
});

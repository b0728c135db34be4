import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };
const STUDENT = { LMS_TOKEN: '7~mock-sam' };

describe('lms accounts', () => {
  it('lists the accounts the admin administers', async () => {
    const lms = session();
    const r = await lms.run('accounts list -o json');
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual([
      {
        id: 1,
        name: 'Mock State University',
        uuid: 'acct-1',
        parent_account_id: null,
        root_account_id: null,
        sis_account_id: 'MSU',
        workflow_state: 'active',
        default_time_zone: 'America/Chicago',
      },
    ]);
  });

  it('lists none for a student', async () => {
    const lms = session();
    expect(await lms.run('accounts list -o json', { env: STUDENT })).toMatchObject({ exitCode: 0, stdout: '[]\n' });
  });

  it.each<[string, string, Record<string, unknown>]>([
    [
      'a sub-account by id',
      'accounts get 2',
      { id: 2, name: 'School of Science', parent_account_id: 1, root_account_id: 1, sis_account_id: 'MSU-SCI' },
    ],
    ['an account by SIS id', 'accounts get sis_account_id:MSU-HUM', { id: 3, name: 'School of Humanities' }],
  ])('gets %s', async (_what, line, expected) => {
    const lms = session();
    const r = await lms.run(`${line} -o json`);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject(expected);
  });

  it.each<[string, string, number]>([
    ['another root account', 'accounts get 4', 3],
    ['a missing account', 'accounts get 999', 4],
  ])('refuses %s', async (_what, line, code) => {
    const lms = session();
    const r = await lms.run(line);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
  });
});

describe('lms courses list', () => {
  it.each<[string, string, Record<string, string>, number[]]>([
    ["a teacher's own courses", 'courses list', TEACHER, [1, 2, 5]],
    ["a teacher's own courses by enrollment type", 'courses list --enrollment-type teacher', TEACHER, [1, 2, 5]],
    ['none where the teacher is a student', 'courses list --enrollment-type student', TEACHER, []],
    ["a student's own courses", 'courses list', STUDENT, [1, 2]],
    ["an account's courses, sub-accounts included", 'courses list --account 1', {}, [1, 2, 3, 5]],
    ["a sub-account's courses", 'courses list --account 2', {}, [1, 2, 5]],
    ["an account's courses by SIS id", 'courses list --account sis_account_id:MSU-HUM', {}, [3]],
    ['a search in an account', 'courses list --account 1 --search chem', {}, [2]],
  ])('lists %s', async (_what, line, env, ids) => {
    const lms = session();
    const r = await lms.run(`${line} -o json --fields id`, { env });
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual(ids.map((id) => ({ id })));
  });

  it('prints a table on a TTY', async () => {
    const lms = session();
    const r = await lms.run('courses list --account 1', { tty: true });
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'ID  COURSE_CODE  NAME                     SIS_COURSE_ID  WORKFLOW_STATE',
      '1   BIO-101      Introduction to Biology  BIO-101        available',
      '2   CHEM-201     Organic Chemistry        CHEM-201       available',
      '3   HIST-110     World History            HIST-110       available',
      '5   BIO-101L     Biology Lab              BIO-101L       available',
    ]);
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['--search without --account', 'courses list --search bio', {}, 2, '--search works with --account'],
    [
      '--enrollment-type with --account',
      'courses list --account 1 --enrollment-type teacher',
      {},
      2,
      '--enrollment-type lists your own courses',
    ],
    ['a bad --enrollment-type', 'courses list --enrollment-type dean', {}, 2, "argument 'dean' is invalid"],
    [
      "a teacher listing an account's courses",
      'courses list --account 1',
      TEACHER,
      3,
      'user not authorized to perform that action',
    ],
  ])('refuses %s', async (_what, line, env, code, message) => {
    const lms = session();
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });
});

describe('lms courses create / get', () => {
  it('creates a course with an SIS id that get then finds by it', async () => {
    const lms = session();
    const created = await lms.run([
      'courses',
      'create',
      '--account',
      '2',
      '--name',
      'Data Structures',
      '--course-code',
      'CS-101',
      '--sis-course-id',
      'CS/101',
      '--start-at',
      '2027-01-10T00:00:00Z',
      '-o',
      'json',
    ]);
    expect(created.exitCode).toBe(0);
    expect(json(created.stdout)).toMatchObject({
      id: 6,
      name: 'Data Structures',
      course_code: 'CS-101',
      account_id: 2,
      root_account_id: 1,
      sis_course_id: 'CS/101',
      workflow_state: 'unpublished',
      start_at: '2027-01-10T00:00:00.000Z',
      end_at: null,
      created_at: '2026-11-02T12:00:00.000Z',
    });
    // The slash of the SIS id is percent-encoded in the path, and found again.
    const got = await lms.run('courses get sis_course_id:CS/101 -o json --fields id,name,sis_course_id');
    expect(got.exitCode).toBe(0);
    expect(json(got.stdout)).toEqual({ id: 6, name: 'Data Structures', sis_course_id: 'CS/101' });
    expect(json((await lms.run('courses list --account 2 -o json --fields id')).stdout)).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 5 },
      { id: 6 },
    ]);
  });

  it("shows each course's time zone: its own (BIO-101L's), or its account's", async () => {
    const lms = session();
    expect(json((await lms.run('courses list --account 1 -o json --fields id,time_zone')).stdout)).toEqual([
      { id: 1, time_zone: 'America/Chicago' },
      { id: 2, time_zone: 'America/Chicago' },
      { id: 3, time_zone: 'America/Chicago' },
      { id: 5, time_zone: 'America/Denver' },
    ]);
  });

  it.each<[string, string, Record<string, unknown>]>([
    [
      "in the admin's own account by default",
      'courses create --name Plain',
      { account_id: 1, workflow_state: 'unpublished' },
    ],
    ['published with --publish', 'courses create --name Pub --publish', { workflow_state: 'available' }],
    ["in its account's time zone by default", 'courses create --name Plain', { time_zone: 'America/Chicago' }],
    [
      'in a time zone of its own',
      'courses create --name Field --time-zone America/Denver',
      { time_zone: 'America/Denver' },
    ],
    [
      'in a zone given by its friendly name',
      'courses create --name Far --time-zone Tokyo',
      { time_zone: 'Asia/Tokyo' },
    ],
  ])('creates a course %s', async (_what, line, expected) => {
    const lms = session();
    const r = await lms.run(`${line} -o json`);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject(expected);
  });

  it('creates and moves a course into a term by sis_term_id:X or id, with an integration id', async () => {
    const lms = session();
    const made = json(
      (await lms.run('courses create --name Stars --term sis_term_id:2026-FA --integration-id int-9 -o json')).stdout,
    ) as { id: number; enrollment_term_id: number; integration_id: string };
    const plain = json((await lms.run('courses get 1 -o json')).stdout) as { enrollment_term_id: number };
    expect(made.integration_id).toBe('int-9');
    expect(made.enrollment_term_id).not.toBe(plain.enrollment_term_id);
    const moved = await lms.run(
      `courses update ${made.id} --term ${plain.enrollment_term_id} --integration-id "" -o json`,
    );
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(json(moved.stdout)).toMatchObject({ enrollment_term_id: plain.enrollment_term_id, integration_id: null });
    const unknown = await lms.run('courses create --name Lost --term sis_term_id:1999-SP');
    expect(unknown.exitCode).toBe(4);
    const dup = await lms.run('courses update 1 --integration-id int-9');
    expect(dup.exitCode).toBe(0);
    const taken = await lms.run(`courses update 2 --integration-id int-9`);
    expect(taken.exitCode).toBe(5);
    expect(taken.stderr).toContain('course.integration_id: Integration ID "int-9" is already in use');
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    [
      'a taken SIS id',
      'courses create --name Dup --sis-course-id BIO-101',
      {},
      5,
      'course.sis_source_id: SIS ID "BIO-101" is already in use',
    ],
    ['a missing --name', 'courses create', {}, 2, "required option '--name <name>' not specified"],
    ['a teacher', 'courses create --name T', TEACHER, 3, 'user not authorized to perform that action'],
    [
      'an unknown time zone',
      'courses create --name Z --time-zone Mars/Olympus',
      {},
      5,
      "course.time_zone: 'Mars/Olympus' is not a known time zone",
    ],
  ])('refuses %s', async (_what, line, env, code, message) => {
    const lms = session();
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
  });

  it.each<[string, string]>([
    ['an id', '1'],
    ['an SIS id', 'sis_course_id:BIO-101'],
  ])('gets a course by %s', async (_what, id) => {
    const lms = session();
    const r = await lms.run(`courses get ${id} -o json`);
    expect(json(r.stdout)).toMatchObject({
      id: 1,
      name: 'Introduction to Biology',
      course_code: 'BIO-101',
      sis_course_id: 'BIO-101',
      account_id: 2,
    });
  });

  it('exits 4 naming a missing course', async () => {
    const lms = session();
    const r = await lms.run('courses get sis_course_id:NOPE');
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('course sis_course_id:NOPE not found (GET /api/v1/courses/sis_course_id:NOPE → 404)');
  });
});

describe('lms assignments', () => {
  it('lists and gets the assignments of a course', async () => {
    const lms = session();
    const listed = await lms.run('assignments list --course 1 -o json --fields id,name,points_possible,grading_type');
    expect(json(listed.stdout)).toEqual([
      { id: 1, name: 'Cell Structure Lab Report', points_possible: 20, grading_type: 'points' },
      { id: 2, name: 'Microscope Safety Quiz', points_possible: 10, grading_type: 'pass_fail' },
      { id: 3, name: 'Genetics Essay', points_possible: 100, grading_type: 'letter_grade' },
    ]);
    expect(
      json(
        (await lms.run('assignments list --course sis_course_id:BIO-101 --search essay -o json --fields id')).stdout,
      ),
    ).toEqual([{ id: 3 }]);
    // The term is text: its % and _ are not wildcards.
    expect(
      json(
        (await lms.run(['assignments', 'list', '--course', '1', '--search', '_', '-o', 'json', '--fields', 'id']))
          .stdout,
      ),
    ).toEqual([]);
    const got = await lms.run('assignments get 2 --course 1 -o json');
    expect(json(got.stdout)).toMatchObject({
      id: 2,
      course_id: 1,
      name: 'Microscope Safety Quiz',
      points_possible: 10,
      grading_type: 'pass_fail',
      submission_types: ['online_text_entry'],
      due_at: '2026-09-07T23:59:00Z',
      published: true,
    });
  });

  it('creates an assignment that list and get then show', async () => {
    const lms = session();
    const created = await lms.run(
      'assignments create --course 1 --name HW1 --points 15 --grading-type percent --submission-types ' +
        'online_upload,online_url --due-at 2026-12-01T23:59:00Z -o json',
      { env: TEACHER },
    );
    expect(created.exitCode).toBe(0);
    const a = json(created.stdout) as { id: number };
    expect(a).toMatchObject({
      name: 'HW1',
      course_id: 1,
      points_possible: 15,
      grading_type: 'percent',
      submission_types: ['online_upload', 'online_url'],
      due_at: '2026-12-01T23:59:00.000Z',
      published: true,
    });
    expect(json((await lms.run(`assignments get ${a.id} --course 1 -o json --fields id,name`)).stdout)).toEqual({
      id: a.id,
      name: 'HW1',
    });
    const names = (
      json((await lms.run('assignments list --course 1 -o json --fields name')).stdout) as { name: string }[]
    ).map((x) => x.name);
    expect(names).toContain('HW1');
    expect(names).toHaveLength(4);
  });

  it('creates an unpublished assignment with --no-publish', async () => {
    const lms = session();
    const r = await lms.run(
      'assignments create --course 1 --name Draft --no-publish -o json --fields published,points_possible,grading_type',
    );
    expect(json(r.stdout)).toEqual({ published: false, points_possible: 0, grading_type: 'points' });
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    [
      'a bad grading type',
      'assignments create --course 1 --name X --grading-type bogus',
      {},
      2,
      "option '--grading-type <type>' argument 'bogus' is invalid. Allowed choices are points, percent, pass_fail, " +
        'letter_grade, gpa_scale, not_graded.',
    ],
    [
      'negative points',
      'assignments create --course 1 --name X --points -1',
      {},
      2,
      '--points must be a number of at least 0, not "-1"',
    ],
    [
      'points that are not a number',
      'assignments create --course 1 --name X --points abc',
      {},
      2,
      '--points must be a number of at least 0, not "abc"',
    ],
    [
      'a bad due date',
      'assignments create --course 1 --name X --due-at nope',
      {},
      2,
      '--due-at is not a date or time: "nope"',
    ],
    [
      'a non-numeric grading standard',
      'assignments create --course 1 --name X --grading-standard-id abc',
      {},
      2,
      '--grading-standard-id must be a numeric id, got "abc"',
    ],
    ['a missing --name', 'assignments create --course 1', {}, 2, "required option '--name <name>' not specified"],
    ['a missing --course', 'assignments create --name X', {}, 2, "required option '--course <id>' not specified"],
    ['a student', 'assignments create --course 1 --name X', STUDENT, 3, 'user not authorized to perform that action'],
  ])('refuses %s', async (_what, line, env, code, message) => {
    const lms = session();
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    // Nothing was created.
    expect(json((await lms.run('assignments list --course 1 -o json --fields id')).stdout)).toHaveLength(3);
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    [
      'a missing assignment',
      'assignments get 99 --course 1',
      {},
      4,
      'assignment 99 not found (GET /api/v1/courses/1/assignments/99 → 404)',
    ],
    [
      'a course the teacher does not teach',
      'assignments list --course 4',
      TEACHER,
      3,
      'user not authorized to perform that action',
    ],
  ])('fails on %s', async (_what, line, env, code, message) => {
    const lms = session();
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
  });
});

describe('lms courses update', () => {
  it('changes only the fields its flags name; "" clears a date', async () => {
    const lms = session();
    const before = json((await lms.run('courses get 3 -o json')).stdout) as Record<string, unknown>;
    const r = await lms.run([
      'courses',
      'update',
      'sis_course_id:HIST-110',
      '--name',
      'World History I',
      '--course-code',
      'HIST-110A',
      '--end-at',
      '',
      '-o',
      'json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({ ...before, name: 'World History I', course_code: 'HIST-110A', end_at: null });
    expect(json((await lms.run('courses get 3 -o json')).stdout)).toEqual(json(r.stdout));
  });

  it('publishes a course with --publish, and unpublishes it with --unpublish', async () => {
    const lms = session();
    const id = (json((await lms.run('courses create --account 2 --name Genetics -o json')).stdout) as { id: number })
      .id;
    expect(json((await lms.run(`courses update ${id} --publish -o json --fields workflow_state`)).stdout)).toEqual({
      workflow_state: 'available',
    });
    expect(json((await lms.run(`courses update ${id} --unpublish -o json --fields workflow_state`)).stdout)).toEqual({
      workflow_state: 'unpublished',
    });
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['no flag', 'courses update 3', {}, 2, 'nothing to change: give at least one flag'],
    [
      '--publish with --unpublish',
      'courses update 3 --publish --unpublish',
      {},
      2,
      '--publish and --unpublish go one at a time',
    ],
    ['a bad --start-at', 'courses update 3 --start-at soon', {}, 2, '--start-at is not a date or time: "soon"'],
    ['a teacher', 'courses update 1 --name Mine', TEACHER, 3, 'user not authorized to perform that action'],
    [
      'a missing course',
      'courses update 999 --name Gone',
      {},
      4,
      'course 999 not found (PUT /api/v1/courses/999 → 404)',
    ],
    [
      'unpublishing a course whose students have grades',
      'courses update 1 --unpublish',
      {},
      5,
      'course.workflow_state: Course cannot be unpublished if student submissions exist.',
    ],
    [
      'an SIS id another course holds',
      'courses update 3 --sis-course-id BIO-101',
      {},
      5,
      'course.sis_source_id: SIS ID "BIO-101" is already in use',
    ],
  ])('refuses %s, changing nothing', async (_what, line, env, code, message) => {
    const lms = session();
    const before = (await lms.run('courses list --account 1 -o json')).stdout;
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect((await lms.run('courses list --account 1 -o json')).stdout).toBe(before);
  });
});

describe('lms assignments update', () => {
  it('changes only the fields its flags name; "" clears the due date', async () => {
    const lms = session();
    const before = json((await lms.run('assignments get 1 --course 1 -o json')).stdout) as Record<string, unknown>;
    const r = await lms.run(
      [
        'assignments',
        'update',
        '1',
        '--course',
        'sis_course_id:BIO-101',
        '--points',
        '25',
        '--due-at',
        '',
        '--submission-types',
        'online_upload',
        '-o',
        'json',
      ],
      { env: TEACHER },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({
      ...before,
      points_possible: 25,
      due_at: null,
      submission_types: ['online_upload'],
      updated_at: '2026-11-02T12:00:00.000Z',
    });
  });

  it('unpublishes with --unpublish and publishes with --publish', async () => {
    const lms = session();
    expect(
      json((await lms.run('assignments update 4 --course 2 --unpublish -o json --fields published')).stdout),
    ).toEqual({ published: false });
    expect(
      json((await lms.run('assignments list --course 2 -o json --fields id', { env: STUDENT })).stdout),
    ).not.toContainEqual({ id: 4 });
    expect(
      json((await lms.run('assignments update 4 --course 2 --publish -o json --fields published')).stdout),
    ).toEqual({ published: true });
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['no flag', 'assignments update 1 --course 1', {}, 2, 'nothing to change: give at least one flag'],
    [
      '--publish with --unpublish',
      'assignments update 1 --course 1 --publish --unpublish',
      {},
      2,
      '--publish and --unpublish go one at a time',
    ],
    [
      'negative points',
      'assignments update 1 --course 1 --points -1',
      {},
      2,
      '--points must be a number of at least 0, not "-1"',
    ],
    [
      'a bad due date',
      'assignments update 1 --course 1 --due-at nope',
      {},
      2,
      '--due-at is not a date or time: "nope"',
    ],
    ['a missing --course', 'assignments update 1 --points 2', {}, 2, "required option '--course <id>' not specified"],
    [
      'a student',
      'assignments update 1 --course 1 --points 2',
      STUDENT,
      3,
      'user not authorized to perform that action',
    ],
    [
      'a missing assignment',
      'assignments update 99 --course 1 --points 2',
      {},
      4,
      'assignment 99 not found (PUT /api/v1/courses/1/assignments/99 → 404)',
    ],
    [
      'unpublishing one students turned work in for',
      'assignments update 1 --course 1 --unpublish',
      {},
      5,
      "published: Can't unpublish if there are student submissions",
    ],
    [
      "a quiz's assignment",
      'assignments update 9 --course 2 --points 1',
      {},
      5,
      "assignment 9 is quiz 3's: change or ungrade the quiz instead",
    ],
  ])('refuses %s, changing nothing', async (_what, line, env, code, message) => {
    const lms = session();
    const before = (await lms.run('assignments list --course 1 -o json')).stdout;
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect((await lms.run('assignments list --course 1 -o json')).stdout).toBe(before);
  });
});

describe('lms assignments delete', () => {
  it('asks on a terminal; deleted, the assignment leaves the list and answers marked deleted', async () => {
    const lms = session();
    const confirm = vi.fn(async () => true);
    const r = await lms.run('assignments delete 2 --course 1 -o json --fields id,published,workflow_state', {
      env: TEACHER,
      tty: true,
      prompter: { secret: async () => '', confirm },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(confirm).toHaveBeenCalledWith('Delete assignment 2 of course 1?');
    expect(json(r.stdout)).toEqual({ id: 2, published: false, workflow_state: 'deleted' });
    expect(json((await lms.run('assignments list --course 1 -o json --fields id')).stdout)).toEqual([
      { id: 1 },
      { id: 3 },
    ]);
    expect((await lms.run('assignments get 2 --course 1')).exitCode).toBe(4);
  });

  it('takes along the discussion it grades', async () => {
    const lms = session();
    expect((await lms.run('assignments delete 3 --course 1 --yes')).exitCode).toBe(0);
    expect((await lms.run('topics get 5 --course 1')).exitCode).toBe(4);
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['a student', 'assignments delete 2 --course 1 --yes', STUDENT, 3, 'user not authorized to perform that action'],
    [
      'a missing assignment',
      'assignments delete 99 --course 1 --yes',
      {},
      4,
      'assignment 99 not found (DELETE /api/v1/courses/1/assignments/99 → 404)',
    ],
    [
      "a quiz's assignment",
      'assignments delete 9 --course 2 --yes',
      {},
      5,
      "assignment 9 is quiz 3's: change or ungrade the quiz instead",
    ],
  ])('refuses %s, deleting nothing', async (_what, line, env, code, message) => {
    const lms = session();
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
    expect(json((await lms.run('assignments list --course 1 -o json --fields id')).stdout)).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
  });
});

describe('lms groups list', () => {
  it('lists the two groups of a course with their group set and member counts', async () => {
    const lms = session();
    const r = await lms.run(
      'groups list --course 1 -o json --fields id,name,group_category_id,members_count,course_id',
    );
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual([
      { id: 1, name: 'Lab Group 1', group_category_id: 1, members_count: 3, course_id: 1 },
      { id: 2, name: 'Lab Group 2', group_category_id: 1, members_count: 3, course_id: 1 },
    ]);
    const table = await lms.run('groups list --course 1', { tty: true });
    expect(table.stdout.trimEnd().split('\n')).toEqual([
      'ID  NAME         GROUP_CATEGORY_ID  MEMBERS_COUNT',
      '1   Lab Group 1  1                  3',
      '2   Lab Group 2  1                  3',
    ]);
  });

  it('lists none for a course without groups', async () => {
    const lms = session();
    expect(await lms.run('groups list --course 3 -o json')).toMatchObject({ exitCode: 0, stdout: '[]\n' });
  });
});

describe('lms files get', () => {
  it('shows a file after an upload', async () => {
    const lms = session();
    const dir = mkdtempSync(join(tmpdir(), 'lms-files-'));
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'hello world');
    const uploaded = await lms.run(`users upload ${path} -o json`);
    expect(uploaded.exitCode).toBe(0);
    const file = json(uploaded.stdout) as { id: number; uuid: string };
    const got = await lms.run(`files get ${file.id} -o json`);
    expect(got.exitCode).toBe(0);
    expect(json(got.stdout)).toEqual(json(uploaded.stdout));
    expect(json(got.stdout)).toMatchObject({
      display_name: 'notes.txt',
      filename: 'notes.txt',
      'content-type': 'text/plain',
      size: 11,
      upload_status: 'success',
      url: `http://lms.mock/files/${file.id}/download?verifier=${file.uuid}`,
    });
    const csv = await lms.run(`files get ${file.id} -o csv --fields id,display_name,size`);
    expect(csv.stdout).toBe(`id,display_name,size\n${file.id},notes.txt,11\n`);
  });

  it('exits 4 for a missing file', async () => {
    const lms = session();
    const r = await lms.run('files get 999');
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('file 999 not found (GET /api/v1/files/999 → 404)');
  });
});

describe('courses list for an admin enrolled in nothing', () => {
  it('says where the courses are, at a terminal; a script gets the empty list alone', async () => {
    const lms = session();
    const atTerminal = await lms.run('courses list', { tty: true });
    expect(atTerminal).toEqual({
      exitCode: 0,
      stdout: '',
      stderr:
        "No results.\nYou are enrolled in no course. An admin lists an account's courses with --account ID (lms " +
        'accounts list shows yours).\n',
    });
    expect(await lms.run('courses list')).toEqual({ exitCode: 0, stdout: '[]\n', stderr: '' });
    expect((await lms.run('courses list --account 1 -o json')).stdout).not.toBe('[]\n');
  });
});

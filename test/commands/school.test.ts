import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    ['a sub-account by id', 'accounts get 2', { id: 2, name: 'School of Science', parent_account_id: 1, root_account_id: 1, sis_account_id: 'MSU-SCI' }],
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
    ['--enrollment-type with --account', 'courses list --account 1 --enrollment-type teacher', {}, 2, '--enrollment-type lists your own courses'],
    ['a bad --enrollment-type', 'courses list --enrollment-type dean', {}, 2, "argument 'dean' is invalid"],
    ["a teacher listing an account's courses", 'courses list --account 1', TEACHER, 3, 'user not authorized to perform that action'],
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
    const created = await lms.run(['courses', 'create', '--account', '2', '--name', 'Data Structures', '--course-code', 'CS-101', '--sis-course-id', 'CS/101', '--start-at', '2027-01-10T00:00:00Z', '-o', 'json']);
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
    expect(json((await lms.run('courses list --account 2 -o json --fields id')).stdout)).toEqual([{ id: 1 }, { id: 2 }, { id: 5 }, { id: 6 }]);
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
    ['in the admin\'s own account by default', 'courses create --name Plain', { account_id: 1, workflow_state: 'unpublished' }],
    ['published with --publish', 'courses create --name Pub --publish', { workflow_state: 'available' }],
    ["in its account's time zone by default", 'courses create --name Plain', { time_zone: 'America/Chicago' }],
    ['in a time zone of its own', 'courses create --name Field --time-zone America/Denver', { time_zone: 'America/Denver' }],
    ['in a zone given by its friendly name', 'courses create --name Far --time-zone Tokyo', { time_zone: 'Asia/Tokyo' }],
  ])('creates a course %s', async (_what, line, expected) => {
    const lms = session();
    const r = await lms.run(`${line} -o json`);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject(expected);
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['a taken SIS id', 'courses create --name Dup --sis-course-id BIO-101', {}, 5, 'course.sis_source_id: SIS ID "BIO-101" is already in use'],
    ['a missing --name', 'courses create', {}, 2, "required option '--name <name>' not specified"],
    ['a teacher', 'courses create --name T', TEACHER, 3, 'user not authorized to perform that action'],
    ['an unknown time zone', 'courses create --name Z --time-zone Mars/Olympus', {}, 5, "course.time_zone: 'Mars/Olympus' is not a known time zone"],
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
    expect(json(r.stdout)).toMatchObject({ id: 1, name: 'Introduction to Biology', course_code: 'BIO-101', sis_course_id: 'BIO-101', account_id: 2 });
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
    expect(json((await lms.run('assignments list --course sis_course_id:BIO-101 --search essay -o json --fields id')).stdout)).toEqual([{ id: 3 }]);
    // The term is text: its % and _ are not wildcards.
    expect(json((await lms.run(['assignments', 'list', '--course', '1', '--search', '_', '-o', 'json', '--fields', 'id'])).stdout)).toEqual([]);
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
      'assignments create --course 1 --name HW1 --points 15 --grading-type percent --submission-types online_upload,online_url --due-at 2026-12-01T23:59:00Z -o json',
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
    expect(json((await lms.run(`assignments get ${a.id} --course 1 -o json --fields id,name`)).stdout)).toEqual({ id: a.id, name: 'HW1' });
    const names = (json((await lms.run('assignments list --course 1 -o json --fields name')).stdout) as { name: string }[]).map((x) => x.name);
    expect(names).toContain('HW1');
    expect(names).toHaveLength(4);
  });

  it('creates an unpublished assignment with --no-publish', async () => {
    const lms = session();
    const r = await lms.run('assignments create --course 1 --name Draft --no-publish -o json --fields published,points_possible,grading_type');
    expect(json(r.stdout)).toEqual({ published: false, points_possible: 0, grading_type: 'points' });
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['a bad grading type', 'assignments create --course 1 --name X --grading-type bogus', {}, 2, "option '--grading-type <type>' argument 'bogus' is invalid. Allowed choices are points, percent, pass_fail, letter_grade, gpa_scale, not_graded."],
    ['negative points', 'assignments create --course 1 --name X --points -1', {}, 2, '--points must be a number of at least 0, got "-1"'],
    ['points that are not a number', 'assignments create --course 1 --name X --points abc', {}, 2, '--points must be a number of at least 0, got "abc"'],
    ['a bad due date', 'assignments create --course 1 --name X --due-at nope', {}, 2, '--due-at is not a date or time: "nope"'],
    ['a non-numeric grading standard', 'assignments create --course 1 --name X --grading-standard-id abc', {}, 2, '--grading-standard-id must be a numeric id, got "abc"'],
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
    ['a missing assignment', 'assignments get 99 --course 1', {}, 4, 'assignment 99 not found (GET /api/v1/courses/1/assignments/99 → 404)'],
    ["a course the teacher does not teach", 'assignments list --course 4', TEACHER, 3, 'user not authorized to perform that action'],
  ])('fails on %s', async (_what, line, env, code, message) => {
    const lms = session();
    const r = await lms.run(line, { env });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
  });
});

describe('lms groups list', () => {
  it('lists the two groups of a course with their group set and member counts', async () => {
    const lms = session();
    const r = await lms.run('groups list --course 1 -o json --fields id,name,group_category_id,members_count,course_id');
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual([
      { id: 1, name: 'Lab Group 1', group_category_id: 1, members_count: 3, course_id: 1 },
      { id: 2, name: 'Lab Group 2', group_category_id: 1, members_count: 3, course_id: 1 },
    ]);
    const table = await lms.run('groups list --course 1', { tty: true });
    expect(table.stdout.trimEnd().split('\n')).toEqual(['ID  NAME         GROUP_CATEGORY_ID  MEMBERS_COUNT', '1   Lab Group 1  1                  3', '2   Lab Group 2  1                  3']);
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

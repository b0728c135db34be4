// `lms terms` over HTTP against `lms mock serve`: an admin makes a new semester's term with dates
// of its own for teachers, a courses.csv then names it, its dates change, and it is deleted only
// when asked and once no course is in it, as Canvas refuses; a teacher may read terms but not make one.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('terms');
let served: Served;
let remote: Record<string, string>;

beforeAll(async () => {
  await ensureBuilt();
  const db = { LMS_MOCK_DB: join(dir, 'terms.db') };
  expect((await spawnLms(['mock', 'seed', '--yes'], { ...env, ...db })).exitCode).toBe(0);
  served = await serveMock({ ...env, ...db }, ['--quiet']);
  remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
});
afterAll(async () => {
  await served?.stop();
});

const json = <T>(r: { stdout: string }) => JSON.parse(r.stdout) as T;

describe('lms terms against lms mock serve', () => {
  it('makes a term, a courses.csv names it, its dates change, and it is deleted once empty and asked', async () => {
    const made = await spawnLms(
      [
        'terms',
        'create',
        '--name',
        'Spring 2027',
        '--sis-id',
        '2027-SP',
        '--start-at',
        '2027-01-11T00:00:00Z',
        '--end-at',
        '2027-05-21T00:00:00Z',
        '--dates',
        'teacher=2027-01-04T00:00:00Z..2027-06-04T00:00:00Z',
        '-o',
        'json',
      ],
      remote,
    );
    expect(made.exitCode, made.stderr).toBe(0);
    const term = json<{ id: number; overrides: Record<string, unknown> }>(made);
    expect(term).toMatchObject({
      name: 'Spring 2027',
      sis_term_id: '2027-SP',
      overrides: { TeacherEnrollment: { start_at: '2027-01-04T00:00:00.000Z', end_at: '2027-06-04T00:00:00.000Z' } },
    });

    const courses = join(dir, 'courses.csv');
    writeFileSync(
      courses,
      'course_id,short_name,long_name,account_id,term_id,status\nSP-AST,AST1,Astronomy,,2027-SP,active\n',
    );
    const imported = await spawnLms(['courses', 'import', courses, '-o', 'json'], remote);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const course = json<{ id: number; enrollment_term_id: number }>(
      await spawnLms(['courses', 'get', 'sis_course_id:SP-AST', '-o', 'json'], remote),
    );
    expect(course.enrollment_term_id).toBe(term.id);
    const inTerm = await spawnLms(
      ['courses', 'list', '--account', '1', '--term', 'sis_term_id:2027-SP', '-o', 'csv', '--fields', 'sis_course_id'],
      remote,
    );
    expect(inTerm.stdout.trim().split(/\r?\n/)).toEqual(['sis_course_id', 'SP-AST']);

    const moved = await spawnLms(
      ['terms', 'update', 'sis_term_id:2027-SP', '--end-at', '2027-05-28T00:00:00Z', '-o', 'json'],
      remote,
    );
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(json(moved)).toMatchObject({ id: term.id, end_at: '2027-05-28T00:00:00.000Z' });
    const backwards = await spawnLms(
      ['terms', 'update', String(term.id), '--start-at', '2027-02-01T00:00:00Z', '--end-at', '2026-01-01T00:00:00Z'],
      remote,
    );
    expect(backwards.exitCode).toBe(5);
    expect(backwards.stderr).toContain('End dates cannot be before start dates');

    // Not asked: nothing is sent. Asked, while a course is in it: the server refuses, and says why.
    const unasked = await spawnLms(['terms', 'delete', 'sis_term_id:2027-SP'], remote);
    expect(unasked.exitCode).toBe(2);
    const refused = await spawnLms(['terms', 'delete', 'sis_term_id:2027-SP', '--yes'], remote);
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toContain('Cannot delete a term with active courses');
    // The course moves to the default term; the term, empty now, is deleted.
    const terms = json<{ id: number; name: string }[]>(await spawnLms(['terms', 'list', '-o', 'json'], remote));
    const defaultTerm = terms.find((t) => t.name === 'Default Term')!;
    const back = await spawnLms(['courses', 'update', String(course.id), '--term', String(defaultTerm.id)], remote);
    expect(back.exitCode, back.stderr).toBe(0);
    const deleted = await spawnLms(['terms', 'delete', 'sis_term_id:2027-SP', '--yes', '-o', 'json'], remote);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(json(deleted)).toMatchObject({ id: term.id, workflow_state: 'deleted' });
    const live = await spawnLms(['terms', 'list', '-o', 'csv', '--fields', 'name'], remote);
    expect(live.stdout.trim().split(/\r?\n/)).toEqual(['name', 'Default Term', 'Fall 2026']);
  }, 60_000);

  it('refuses a bad --dates before sending, and a teacher making a term is refused by the server', async () => {
    const bad = await spawnLms(['terms', 'create', '--name', 'X', '--dates', 'observer=2027-01-01..'], remote);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--dates "observer=2027-01-01.." is not TYPE=START..END');
    const teacher = await spawnLms(['terms', 'create', '--name', 'X'], { ...remote, LMS_TOKEN: '3~mock-tteacher' });
    expect(teacher.exitCode).toBe(3);
    const listed = await spawnLms(['terms', 'list', '-o', 'csv', '--fields', 'name'], remote);
    expect(listed.stdout).not.toContain('X');
  }, 30_000);
});

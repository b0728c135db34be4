// `lms terms` writes, in process on the mock: what the CLI refuses before sending (a --dates that is
// not TYPE=START..END, names no date, or is not a date; an update that changes nothing), and what
// the server answers of the rest.
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

describe('lms terms create and update', () => {
  it.each([
    [['--dates', 'observer=2027-01-01..'], '--dates "observer=2027-01-01.." is not TYPE=START..END'],
    [['--dates', 'student'], '--dates "student" is not TYPE=START..END'],
    [['--dates', 'teacher=..'], '--dates "teacher=.." gives neither a start nor an end'],
    [['--dates', 'student=1..2'], '--dates "student=1..2": "1" is not an ISO 8601 date'],
    [['--dates', 'ta=2027-01-01..soon'], '"soon" is not an ISO 8601 date'],
  ])('refuses %j before sending anything', async (flags, message) => {
    const lms = session();
    const r = await lms.run(['terms', 'create', '--name', 'Spring 2027', ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    const listed = await lms.run(['terms', 'list', '-o', 'json']);
    expect(listed.stdout).not.toContain('Spring 2027');
  });

  it('sends the dates of each type given, either end alone, and an update that names nothing is refused', async () => {
    const lms = session();
    const made = await lms.run([
      'terms',
      'create',
      '--name',
      'Spring 2027',
      '--dates',
      'teacher=2027-01-04T00:00:00.250Z..',
      '--dates',
      'student=..2027-05-28',
      '-o',
      'json',
    ]);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).overrides).toEqual({
      StudentEnrollment: { start_at: null, end_at: '2027-05-28T00:00:00.000Z' },
      TeacherEnrollment: { start_at: '2027-01-04T00:00:00.250Z', end_at: null },
    });
    const nothing = await lms.run(['terms', 'update', String(JSON.parse(made.stdout).id)]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
  });
});

describe('lms courses list --term', () => {
  it('lists the courses of one term, and needs --account', async () => {
    const lms = session();
    const fall = await lms.run(['courses', 'list', '--account', '1', '--term', 'sis_term_id:2026-FA', '-o', 'json']);
    expect(fall.exitCode, fall.stderr).toBe(0);
    expect(JSON.parse(fall.stdout)).toEqual([]);
    const all = await lms.run(['courses', 'list', '--account', '1', '-o', 'json']);
    expect(JSON.parse(all.stdout).length).toBeGreaterThan(0);
    const alone = await lms.run(['courses', 'list', '--term', 'sis_term_id:2026-FA']);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--term works with --account');
  });
});

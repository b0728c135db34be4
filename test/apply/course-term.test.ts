// A course's term in an apply file: named as the API names one (sis_term_id:X or an id), read among
// the root account's terms before anything is sent, compared with the course's enrollment_term_id,
// and written back by export by its SIS id.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { counted } from './helpers.js';

const FILE = (term: string) => `courses:
  - sis_course_id: AST-1
    name: Astronomy
    account: sis_account_id:MSU
    term: ${term}
`;

interface Course {
  id: number;
  enrollment_term_id: number;
}

const courseOf = async (s: ReturnType<typeof counted>) =>
  JSON.parse((await s.run(['courses', 'get', 'sis_course_id:AST-1', '-o', 'json'])).stdout) as Course;
const termId = async (s: ReturnType<typeof counted>, ref: string) =>
  (JSON.parse((await s.run(['terms', 'get', ref, '-o', 'json'])).stdout) as { id: number }).id;

describe("a course's term in lms apply", () => {
  it('makes the course in it, then writes nothing, then moves it with one update', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE('sis_term_id:2026-FA'));
    const made = await s.run(['apply', '-f', path, '--yes']);
    expect(made.exitCode, made.stderr).toBe(0);
    const fall = await termId(s, 'sis_term_id:2026-FA');
    expect((await courseOf(s)).enrollment_term_id).toBe(fall);

    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes']);
    expect(JSON.parse(again.stdout).changes, again.stdout).toBe(false);
    expect(s.writes().length).toBe(before);

    const byDefault = await s.run(['terms', 'list', '-o', 'json']);
    const defaultTerm = (JSON.parse(byDefault.stdout) as { id: number; name: string }[]).find(
      (t) => t.name === 'Default Term',
    )!.id;
    s.file('c.yaml', FILE(String(defaultTerm)));
    const plan = JSON.parse((await s.run(['diff', '-f', path, '-o', 'json'])).stdout);
    expect(plan.courses[0].actions).toMatchObject([
      { action: 'update', kind: 'course', changes: [{ field: 'term', from: fall, to: String(defaultTerm) }] },
    ]);
    const moved = await s.run(['apply', '-f', path, '--yes']);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(s.writes().length).toBe(before + 1);
    expect((await courseOf(s)).enrollment_term_id).toBe(defaultTerm);
  });

  it('a term the instance does not have is a problem of the file, with its line, and nothing is sent', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE('sis_term_id:2031-SP'));
    for (const line of [
      ['apply', '-f', path, '--yes'],
      ['diff', '-f', path],
    ]) {
      const r = await s.run(line);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`${path}:5`);
      expect(r.stderr).toContain('term "sis_term_id:2031-SP" not found');
    }
    expect(s.writes()).toEqual([]);
  });

  it('export writes the term by its SIS id, and the file applies to the same course with no write', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE('sis_term_id:2026-FA'));
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const exported = await s.run(['export', 'course', 'sis_course_id:AST-1']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const file = parse(exported.stdout) as { courses: Record<string, unknown>[] };
    expect(file.courses[0].term).toBe('sis_term_id:2026-FA');
    const again = s.file('exported.yaml', exported.stdout);
    const before = s.writes().length;
    const r = await s.run(['apply', '-f', again, '--yes']);
    expect(JSON.parse(r.stdout).changes, r.stdout).toBe(false);
    expect(s.writes().length).toBe(before);
    // A course in the default term, which has no SIS id, is exported with no term.
    const seeded = parse((await s.run(['export', 'course', '1'])).stdout) as { courses: Record<string, unknown>[] };
    expect(seeded.courses[0]).not.toHaveProperty('term');
  });
});

// Rubrics in an apply file: criteria as one field compared as a whole, the assignment each grades by
// the file's key, made after it; matched again with no write, changed in place, pruned when asked,
// and exported back to a file that applies alike.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { counted } from './helpers.js';

const FILE = `courses:
  - sis_course_id: CHEM-1
    name: Chemistry
    account: sis_account_id:MSU
    assignments:
      - { key: lab1, name: Lab 1, points_possible: 15 }
    rubrics:
      - key: lab
        title: Lab report
        assignment: lab1
        use_for_grading: true
        criteria:
          - { description: Hypothesis, points: 5 }
          - description: Analysis
            points: 10
            ratings:
              - { description: Thorough, points: 10 }
              - { description: Partial, points: 6 }
              - { description: Missing, points: 0 }
`;

const rubricWrites = (s: ReturnType<typeof counted>) =>
  s.writes().filter((r) => new URL(r.url).pathname.includes('/rubrics'));

describe('rubrics in lms apply', () => {
  it('creates a rubric after the assignment it grades, and a second run sends no write', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const posts = s.writes().map((w) => `${w.method} ${new URL(w.url).pathname}`);
    const assignment = posts.findIndex((p) => /assignments$/.test(p));
    const rubric = posts.findIndex((p) => /rubrics$/.test(p));
    expect(assignment).toBeGreaterThanOrEqual(0);
    expect(rubric).toBeGreaterThan(assignment);

    const list = await s.run(['rubrics', 'list', '--course', 'sis_course_id:CHEM-1', '-o', 'json']);
    const [made] = JSON.parse(list.stdout) as { id: number; points_possible: number }[];
    expect(made.points_possible).toBe(15);
    const got = await s.run([
      'rubrics',
      'get',
      String(made.id),
      '--course',
      'sis_course_id:CHEM-1',
      '--associations',
      '-o',
      'json',
    ]);
    const full = JSON.parse(got.stdout);
    expect(full.data.map((c: { description: string }) => c.description)).toEqual(['Hypothesis', 'Analysis']);
    expect(full.data[1].ratings.map((x: { points: number }) => x.points)).toEqual([10, 6, 0]);
    expect(full.associations).toContainEqual(
      expect.objectContaining({ association_type: 'Assignment', use_for_grading: true, purpose: 'grading' }),
    );

    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(s.writes().length).toBe(before);
  });

  it('a changed criterion is one update that replaces the criteria; the plan says the field', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    s.file('c.yaml', FILE.replace('{ description: Partial, points: 6 }', '{ description: Partial, points: 5 }'));
    const plan = await s.run(['diff', '-f', path]);
    expect(plan.stdout).toContain('criteria');
    const before = s.writes().length;
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = s.writes().slice(before);
    expect(sent.map((w) => w.method)).toEqual(['PUT']);
    expect(new URL(rubricWrites(s).at(-1)!.url).pathname).toMatch(/rubrics\/\d+$/);
    const again = s.writes().length;
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    expect(s.writes().length).toBe(again);
  });

  it.each(['table', 'csv', 'yaml'])('makes the rubric whatever -o shows the plan as (-o %s)', async (format) => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    const r = await s.run(['apply', '-f', path, '--yes', '-o', format]);
    expect(r.exitCode, r.stderr).toBe(0);
    const again = await s.run(['apply', '-f', path, '--yes', '-o', 'json']);
    expect(JSON.parse(again.stdout).changes, again.stdout).toBe(false);
  });

  it('turning use_for_grading on sends the association whole: the assignment with it', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE.replace('use_for_grading: true', 'purpose: bookmark'));
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    s.file('c.yaml', FILE.replace('use_for_grading: true', 'use_for_grading: true\n        purpose: grading'));
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const list = await s.run(['rubrics', 'list', '--course', 'sis_course_id:CHEM-1', '-o', 'json']);
    const [made] = JSON.parse(list.stdout) as { id: number }[];
    const got = await s.run([
      'rubrics',
      'get',
      String(made.id),
      '--course',
      'sis_course_id:CHEM-1',
      '--associations',
      '-o',
      'json',
    ]);
    expect(JSON.parse(got.stdout).associations).toContainEqual(
      expect.objectContaining({ association_type: 'Assignment', use_for_grading: true, purpose: 'grading' }),
    );
    const before = s.writes().length;
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    expect(s.writes().length).toBe(before);
  });

  it('--prune deletes a rubric the file dropped, asks first, and leaves the assignment', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    s.file('c.yaml', FILE.replace(/ {4}rubrics:[\s\S]*$/, '    rubrics: []\n'));
    expect((await s.run(['apply', '-f', path, '--prune'])).exitCode).toBe(2);
    const r = await s.run(['apply', '-f', path, '--prune', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(rubricWrites(s).at(-1)!.method).toBe('DELETE');
    const list = await s.run(['rubrics', 'list', '--course', 'sis_course_id:CHEM-1', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toEqual([]);
    const assignments = await s.run(['assignments', 'list', '--course', 'sis_course_id:CHEM-1', '-o', 'json']);
    expect(JSON.parse(assignments.stdout)).toHaveLength(1);
  });

  it('a file problem: criteria that are not criteria, a reference to no assignment of the file', async () => {
    const s = counted();
    const bad = FILE.replace(
      '{ description: Hypothesis, points: 5 }',
      '{ description: "Hypothesis: why", points: 5 }',
    ).replace('assignment: lab1', 'assignment: lab2');
    const r = await s.run(['apply', '-f', s.file('c.yaml', bad), '--plan']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('criterion 1 ("Hypothesis: why"): a description has no colon');
    const over = FILE.replace('{ description: Partial, points: 6 }', '{ description: Partial, points: 11 }');
    const overs = await s.run(['apply', '-f', s.file('o.yaml', over), '--plan']);
    expect(overs.exitCode).toBe(2);
    expect(overs.stderr).toContain(
      'criterion 2 ("Analysis"): rating 2 must be a description and points from 0 to the criterion\'s 10',
    );
    expect(r.stderr).toMatch(/assignment "lab2" is not the key/);
    const loose = FILE.replace('        assignment: lab1\n', '');
    const alone = await s.run(['apply', '-f', s.file('d.yaml', loose), '--plan']);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('a rubric with use_for_grading needs the assignment it grades');
    // Canvas makes a graded assignment worth its rubric's points: 15 and 16 would fight on every run.
    const fighting = FILE.replace('points_possible: 15', 'points_possible: 16');
    const fights = await s.run(['apply', '-f', s.file('e.yaml', fighting), '--plan']);
    expect(fights.exitCode).toBe(2);
    expect(fights.stderr).toContain(
      "e.yaml:11 courses[0].rubrics[0]: a rubric used for grading makes its assignment worth the rubric's points: " +
        'its criteria come to 15, and assignment "lab1" has points_possible 16',
    );
    // Fractions of points add up as Canvas shows them, to the hundredth: 0.1 and 0.2 are 0.3.
    const fractions = FILE.replace('points_possible: 15', 'points_possible: 0.3')
      .replace('{ description: Hypothesis, points: 5 }', '{ description: Hypothesis, points: 0.1 }')
      .replace(/points: 10\n(.*\n){4}/, 'points: 0.2\n');
    const fine = await s.run(['apply', '-f', s.file('f.yaml', fractions), '--plan']);
    expect(fine.exitCode, fine.stderr).toBe(0);
    expect(s.writes()).toEqual([]);
  });

  it(
    'export writes the rubric back: applied to an empty course it makes the same, applied where it came from ' +
      'nothing',
    async () => {
      const s = counted();
      expect((await s.run(['apply', '-f', s.file('c.yaml', FILE), '--yes'])).exitCode).toBe(0);
      const out = join(s.dir, 'out.yaml');
      const e = await s.run([
        'export',
        'course',
        'sis_course_id:CHEM-1',
        '--include',
        'assignments,rubrics',
        '--out',
        out,
      ]);
      expect(e.exitCode, e.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      const course = (parse(text) as { courses: Record<string, unknown>[] }).courses[0];
      expect(course.rubrics).toEqual([
        expect.objectContaining({
          key: 'lab',
          title: 'Lab report',
          assignment: 'lab1',
          use_for_grading: true,
          purpose: 'grading',
          criteria: [
            { description: 'Hypothesis', points: 5 },
            {
              description: 'Analysis',
              points: 10,
              ratings: [
                { description: 'Thorough', points: 10 },
                { description: 'Partial', points: 6 },
                { description: 'Missing', points: 0 },
              ],
            },
          ],
        }),
      ]);
      const before = s.writes().length;
      const same = await s.run(['apply', '-f', out, '--yes']);
      expect(same.exitCode, same.stderr).toBe(0);
      expect(s.writes().length).toBe(before);

      const copy = s.file('copy.yaml', text.replace('sis_course_id: CHEM-1', 'sis_course_id: CHEM-2'));
      const made = await s.run(['apply', '-f', copy, '--yes']);
      expect(made.exitCode, made.stderr).toBe(0);
      const out2 = join(s.dir, 'out2.yaml');
      expect(
        (await s.run(['export', 'course', 'sis_course_id:CHEM-2', '--include', 'assignments,rubrics', '--out', out2]))
          .exitCode,
      ).toBe(0);
      expect(readFileSync(out2, 'utf8')).toBe(text.replace('sis_course_id: CHEM-1', 'sis_course_id: CHEM-2'));
    },
  );
});

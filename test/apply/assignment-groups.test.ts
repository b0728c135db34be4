// Assignment groups in an apply file: weights and drop rules, made before the assignments that name
// them by the file's key; matched again with no write, changed in place, pruned when asked, and
// exported back to a file that applies alike.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { counted } from './helpers.js';

const FILE = `courses:
  - sis_course_id: CHEM-1
    name: Chemistry
    account: sis_account_id:MSU
    apply_assignment_group_weights: true
    assignment_groups:
      - { key: labs, name: Labs, group_weight: 40, rules.drop_lowest: 1 }
      - { key: exams, name: Exams, group_weight: 60 }
    assignments:
      - { key: lab1, name: Lab 1, points_possible: 15, group: labs }
      - { key: final, name: Final, points_possible: 100, group: exams }
    quizzes:
      - { key: midterm, title: Midterm, quiz_type: assignment, group: exams }
`;

const groupWrites = (s: ReturnType<typeof counted>) =>
  s.writes().filter((r) => new URL(r.url).pathname.includes('/assignment_groups'));

interface Group {
  id: number;
  name: string;
  group_weight: number;
  rules: Record<string, unknown>;
}

async function groupsOf(s: ReturnType<typeof counted>, course: string): Promise<Group[]> {
  const r = await s.run(['assignment-groups', 'list', '--course', course, '-o', 'json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Group[];
}

describe('assignment groups in lms apply', () => {
  it("refuses rules.never_drop naming the file's assignments by key, before anything is sent", async () => {
    const s = counted();
    const path = s.file(
      'c.yaml',
      FILE.replace('rules.drop_lowest: 1 }', 'rules.drop_lowest: 1, rules.never_drop: ' + '[lab1] }'),
    );
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'c.yaml:7 courses[0].assignment_groups[0]: rules.never_drop takes the ids of ' + 'assignments',
    );
    expect(s.writes()).toEqual([]);
  });

  it('makes the groups before the assignments they hold, and a second run sends no write', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const posts = s.writes().map((w) => `${w.method} ${new URL(w.url).pathname}`);
    const group = posts.findIndex((p) => /assignment_groups$/.test(p));
    const assignment = posts.findIndex((p) => /assignments$/.test(p));
    expect(group).toBeGreaterThanOrEqual(0);
    expect(assignment).toBeGreaterThan(group);

    const groups = await groupsOf(s, 'sis_course_id:CHEM-1');
    const labs = groups.find((g) => g.name === 'Labs')!;
    const exams = groups.find((g) => g.name === 'Exams')!;
    expect(labs).toMatchObject({ group_weight: 40, rules: { drop_lowest: 1 } });
    expect(exams.group_weight).toBe(60);
    const course = await s.run(['courses', 'get', 'sis_course_id:CHEM-1', '-o', 'json']);
    expect(JSON.parse(course.stdout).apply_assignment_group_weights).toBe(true);
    const list = await s.run(['assignments', 'list', '--course', 'sis_course_id:CHEM-1', '-o', 'json']);
    const assignments = JSON.parse(list.stdout) as { name: string; assignment_group_id: number }[];
    expect(assignments.find((a) => a.name === 'Lab 1')!.assignment_group_id).toBe(labs.id);
    expect(assignments.find((a) => a.name === 'Final')!.assignment_group_id).toBe(exams.id);
    // A graded quiz is in the group the file names, as an assignment is.
    const quizzes = JSON.parse(
      (await s.run(['quizzes', 'list', '--course', 'sis_course_id:CHEM-1', '-o', 'json'])).stdout,
    );
    expect(quizzes.map((q: { assignment_group_id: number }) => q.assignment_group_id)).toEqual([exams.id]);

    const before = s.writes().length;
    const again = await s.run(['apply', '-f', path, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(s.writes().length).toBe(before);
  });

  it('a changed weight or rule is one update of that group', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    s.file('c.yaml', FILE.replace('group_weight: 40, rules.drop_lowest: 1', 'group_weight: 45, rules.drop_lowest: 2'));
    const plan = await s.run(['diff', '-f', path]);
    expect(plan.stdout).toContain('group_weight');
    expect(plan.stdout).toContain('rules.drop_lowest');
    const before = groupWrites(s).length;
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = groupWrites(s).slice(before);
    expect(sent.map((w) => w.method)).toEqual(['PUT']);
    const labs = (await groupsOf(s, 'sis_course_id:CHEM-1')).find((g) => g.name === 'Labs')!;
    expect(labs).toMatchObject({ group_weight: 45, rules: { drop_lowest: 2 } });
  });

  it('--prune deletes a group the file dropped, after asking', async () => {
    const s = counted();
    const path = s.file('c.yaml', FILE);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    s.file(
      'c.yaml',
      FILE.replace('      - { key: exams, name: Exams, group_weight: 60 }\n', '').replaceAll(', group: exams', ''),
    );
    expect((await s.run(['apply', '-f', path, '--prune'])).exitCode).toBe(2);
    const r = await s.run(['apply', '-f', path, '--prune', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await groupsOf(s, 'sis_course_id:CHEM-1')).map((g) => g.name)).not.toContain('Exams');
  });

  it(
    'export writes the groups back: applied to an empty ' + 'course it makes the same, where it came from nothing',
    async () => {
      const s = counted();
      expect((await s.run(['apply', '-f', s.file('c.yaml', FILE), '--yes'])).exitCode).toBe(0);
      const out = join(s.dir, 'out.yaml');
      const include = ['--include', 'assignment_groups,assignments,quizzes'];
      const e = await s.run(['export', 'course', 'sis_course_id:CHEM-1', ...include, '--out', out]);
      expect(e.exitCode, e.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      const course = (parse(text) as { courses: Record<string, unknown>[] }).courses[0]!;
      expect(course.assignment_groups).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Labs', group_weight: 40, 'rules.drop_lowest': 1 }),
          expect.objectContaining({ name: 'Exams', group_weight: 60 }),
        ]),
      );
      expect(course.quizzes).toEqual([expect.objectContaining({ title: 'Midterm', group: 'exams' })]);
      const before = s.writes().length;
      const same = await s.run(['apply', '-f', out, '--yes']);
      expect(same.exitCode, same.stderr).toBe(0);
      expect(s.writes().length).toBe(before);

      const copy = s.file('copy.yaml', text.replace('sis_course_id: CHEM-1', 'sis_course_id: CHEM-2'));
      const made = await s.run(['apply', '-f', copy, '--yes']);
      expect(made.exitCode, made.stderr).toBe(0);
      const out2 = join(s.dir, 'out2.yaml');
      expect((await s.run(['export', 'course', 'sis_course_id:CHEM-2', ...include, '--out', out2])).exitCode).toBe(0);
      expect(readFileSync(out2, 'utf8')).toBe(text.replace('sis_course_id: CHEM-1', 'sis_course_id: CHEM-2'));
    },
  );
});

// apply and diff list every problem of a file in one run: what the file alone shows (an unknown
// field, a value of the wrong type) and what only the instance can tell (a user, a section that does
// not exist) together, the first 50 and a count of the rest, exit 2, nothing written. And the plan
// in words counts one of a kind as one.
import { describe, expect, it } from 'vitest';
import { counted } from './helpers.js';

const course = (body: string) => `courses:\n  - sis_course_id: V-1\n    name: Valid\n${body}`;

describe('every problem of a file in one run', () => {
  it.each([
    ['apply --yes', ['apply', '--yes']],
    ['apply --plan', ['apply', '--plan']],
    ['diff', ['diff']],
  ] as const)('%s: an unknown field and an unknown user, together', async (_what, verb) => {
    const s = counted();
    const path = s.file(
      'f.yaml',
      course(
        '    colour: blue\n    enrollments:\n      - { user: nobody, type: student }\n      - { user: sam, type: ' +
          'student, grade: A }\n',
      ),
    );
    const r = await s.run([...verb, '-f', path]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      [
        `${path} has 3 problems (1 on this instance); nothing was changed:`,
        `  ${path}:4 courses[0].colour: unknown field "colour" for a course; a course takes`,
      ].join('\n'),
    );
    expect(r.stderr).toContain(`  ${path}:6 courses[0].enrollments[0]: user "nobody" not found`);
    expect(r.stderr).toContain(`  ${path}:7 courses[0].enrollments[1].grade: unknown field "grade" for an enrollment`);
    expect(s.writes()).toEqual([]);
  });

  it('reports an unknown user on the row that also has an unknown field', async () => {
    const s = counted();
    const path = s.file('f.yaml', course('    enrollments:\n      - { user: nobody, type: student, grade: A }\n'));
    const r = await s.run(['apply', '-f', path, '--plan', '-o', 'json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr).problems).toEqual([
      {
        file: path,
        line: 5,
        at: 'courses[0].enrollments[0].grade',
        message: expect.stringContaining('unknown field "grade" for an enrollment'),
      },
      { file: path, line: 5, at: 'courses[0].enrollments[0]', message: 'user "nobody" not found' },
    ]);
    expect(s.writes()).toEqual([]);
  });

  it('lists the first 50 and counts the rest, in the message and the JSON error alike', async () => {
    const s = counted();
    const fields = Array.from({ length: 40 }, (_, i) => `      - { name: A${i}, points: ${i} }\n`).join('');
    const users = Array.from({ length: 20 }, (_, i) => `      - { user: ghost${i}, type: student }\n`).join('');
    const path = s.file('f.yaml', course(`    assignments:\n${fields}    enrollments:\n${users}`));
    const r = await s.run(['apply', '-f', path, '--plan']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${path} has 60 problems (20 on this instance); nothing was changed:`);
    const listed = r.stderr.split('\n').filter((l) => l.startsWith(`  ${path}:`));
    expect(listed).toHaveLength(50);
    expect(listed.filter((l) => l.includes('unknown field "points"'))).toHaveLength(40);
    expect(listed.filter((l) => /user "ghost\d+" not found/.test(l))).toHaveLength(10);
    expect(r.stderr).toContain('\n  … and 10 more problems\n');
    const json = await s.run(['apply', '-f', path, '--plan', '-o', 'json']);
    const error = JSON.parse(json.stderr) as { problems: unknown[]; more_problems: number };
    expect(error.problems).toHaveLength(50);
    expect(error.more_problems).toBe(10);
    expect(s.writes()).toEqual([]);
  });

  it('sends nothing at all for a file that does not parse: it names nothing to look up', async () => {
    const s = counted();
    const path = s.file('f.yaml', 'courses:\n  - sis_course_id: [\n');
    const r = await s.run(['apply', '-f', path, '--plan']);
    expect(r.exitCode).toBe(2);
    expect(s.requests).toEqual([]);
  });

  it('still refuses the file, exit 2, when the instance cannot be asked', async () => {
    const s = counted();
    const path = s.file(
      'f.yaml',
      course('    colour: blue\n    enrollments:\n      - { user: nobody, type: student }\n'),
    );
    const r = await s.run(['apply', '-f', path, '--plan'], { env: { LMS_MOCK: '', LMS_BASE_URL: '', LMS_TOKEN: '' } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path} has 1 problem; nothing was changed:`);
    expect(r.stderr).toContain('unknown field "colour"');
    expect(r.stderr).toMatch(/\(what the files name was not looked up on the instance: .+\)/);
  });
});

describe('the plan in words', () => {
  it('counts what is unchanged in the singular and the plural', async () => {
    const s = counted();
    const path = s.file(
      'f.yaml',
      course(
        '    sections:\n      - { sis_section_id: V-1-A, name: A }\n    assignments:\n      - { name: One }\n      ' +
          '- { name: Two }\n',
      ),
    );
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const plan = await s.run(['diff', '-f', path], { tty: true });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('  = unchanged: 1 course, 1 section, 2 assignments\n');
  });
});

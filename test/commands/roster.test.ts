// lms enrollments, sections and admins from the command line, against the in-memory mock.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-roster-'));
  return {
    dir,
    env: { LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

describe('lms enrollments list / add / end', () => {
  it.each([
    [
      'a course',
      'enrollments list --course 2 --fields user_id,enrollment_state',
      [
        { user_id: 11, enrollment_state: 'invited' },
        { user_id: 9, enrollment_state: 'active' },
        { user_id: 7, enrollment_state: 'active' },
        { user_id: 8, enrollment_state: 'active' },
        { user_id: 3, enrollment_state: 'active' },
      ],
    ],
    [
      'repeatable states and a short type',
      'enrollments list --course sis_course_id:CHEM-201 --type student --state completed --state inactive --fields ' +
        'user_id',
      [{ user_id: 10 }, { user_id: 12 }],
    ],
    [
      'a section',
      'enrollments list --section sis_section_id:BIO-101-B --type student --fields user_id',
      [{ user_id: 10 }, { user_id: 9 }, { user_id: 12 }],
    ],
    [
      'a custom role',
      'enrollments list --course 5 --role Grader --fields user_id,role',
      [{ user_id: 4, role: 'Grader' }],
    ],
  ])('lists %s', async (_what, line, expected) => {
    const r = await session().run(`${line} -o json`);
    expect(r.stderr).toBe('');
    expect(json(r.stdout)).toEqual(expected);
  });

  it.each([
    ['no context', 'enrollments list', 'give one of --course, --section or --user'],
    [
      'two contexts',
      'enrollments list --course 1 --section 2',
      'give only one of --course, --section or --user, not --course and --section',
    ],
    ['an unknown type', 'enrollments list --course 1 --type dean', 'unknown enrollment type "dean"'],
    ['an unknown state', 'enrollments list --course 1 --state asleep', 'unknown enrollment state "asleep"'],
    [
      '--section-id with --section',
      'enrollments add --section 1 --section-id 2 --user 7',
      '--section-id goes with --course',
    ],
    ['a missing --user', 'enrollments add --course 1', "required option '--user <id>' not specified"],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('adds, concludes, deactivates and (with --yes) deletes', async () => {
    const lms = session();
    const added = await lms.run('enrollments add --course 3 --user sis_user_id:S-007 --state active -o json');
    expect(added.exitCode).toBe(0);
    const e = json(added.stdout) as { id: number; enrollment_state: string; course_id: number };
    expect(e).toMatchObject({ enrollment_state: 'active', course_id: 3 });
    expect(
      json((await lms.run(`enrollments deactivate ${e.id} --course 3 --yes -o json --fields enrollment_state`)).stdout),
    ).toEqual({ enrollment_state: 'inactive' });
    expect(
      json((await lms.run(`enrollments conclude ${e.id} --course 3 --yes -o json --fields enrollment_state`)).stdout),
    ).toEqual({ enrollment_state: 'completed' });
    const refused = await lms.run(`enrollments delete ${e.id} --course 3`);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes to confirm');
    expect(
      json((await lms.run(`enrollments delete ${e.id} --course 3 --yes -o json --fields enrollment_state`)).stdout),
    ).toEqual({ enrollment_state: 'deleted' });
  });

  it('adds a section-limited role through a section, and a TA may not add a teacher', async () => {
    const lms = session();
    const r = await lms.run(
      'enrollments add --section 2 --user 5 --role Grader --limit-to-section -o json --fields ' +
        'type,role,limit_privileges_to_course_section,course_section_id',
    );
    expect(json(r.stdout)).toEqual({
      type: 'TaEnrollment',
      role: 'Grader',
      limit_privileges_to_course_section: true,
      course_section_id: 2,
    });
    const ta = await lms.run('enrollments add --course 1 --user 13 --type teacher', {
      env: { LMS_TOKEN: '5~mock-tara' },
    });
    expect(ta.exitCode).toBe(3);
  });
});

describe('lms sections', () => {
  it('creates, updates, cross-lists and moves back a section', async () => {
    const lms = session();
    const created = json((await lms.run('sections create --course 1 --name "Lab C" -o json')).stdout) as { id: number };
    expect(
      json((await lms.run(`sections update ${created.id} --name "Lab C (online)" -o json --fields name`)).stdout),
    ).toEqual({ name: 'Lab C (online)' });
    expect((await lms.run(`sections update ${created.id}`)).exitCode).toBe(2);
    const moved = await lms.run(
      `sections crosslist ${created.id} --to sis_course_id:BIO-101L -o json --fields course_id,nonxlist_course_id`,
    );
    expect(json(moved.stdout)).toEqual({ course_id: 5, nonxlist_course_id: 1 });
    expect(
      json(
        (await lms.run(`sections uncrosslist ${created.id} --yes -o json --fields course_id,nonxlist_course_id`))
          .stdout,
      ),
    ).toEqual({ course_id: 1, nonxlist_course_id: null });
    const again = await lms.run(`sections uncrosslist ${created.id} --yes`);
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toContain('section is not cross-listed');
    expect((await lms.run(`sections delete ${created.id} --yes`)).exitCode).toBe(0);
    expect((await lms.run(`sections get ${created.id}`)).exitCode).toBe(4);
  });

  it('lists with students, and refuses to delete a section with enrollments', async () => {
    const lms = session();
    const r = await lms.run('sections list --course 1 --with-students -o json --fields id,students');
    const rows = json(r.stdout) as { id: number; students: { id: number }[] | null }[];
    expect(rows.map((s) => [s.id, s.students?.length])).toEqual([
      [1, 3],
      [2, 3],
      [7, 2],
    ]);
    const refused = await lms.run('sections delete 2 --yes');
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toContain("You can't delete a section that has enrollments");
    expect((await lms.run('sections get 2 --course 2')).exitCode).toBe(4);
  });
});

describe('lms admins', () => {
  it('adds an admin who can then act as one, and removes a named role', async () => {
    const lms = session();
    expect((await lms.run('admins list --account 1', { env: TEACHER })).exitCode).toBe(3);
    expect(
      json((await lms.run('admins add --account 1 --user sis_login_id:tteacher -o json --fields role,user.id')).stdout),
    ).toEqual({ role: 'AccountAdmin', 'user.id': 3 });
    expect((await lms.run('admins list --account 1 -o json', { env: TEACHER })).exitCode).toBe(0);
    expect((await lms.run('admins remove 2 --account 1 --yes')).exitCode).toBe(4);
    expect(
      json((await lms.run('admins remove 2 --account 1 --role Helpdesk --yes -o json --fields workflow_state')).stdout),
    ).toEqual({ workflow_state: 'deleted' });
  });
});

describe('lms enrollments import', () => {
  const roster = [
    'user,type,role,section,state',
    'sis_user_id:S-007,student,,,active',
    '8,student,,,active',
    '9,student,,,active',
    'sam,teacher,,,active',
    '5,,Grader,,active',
    '',
  ].join('\n');

  it('plans, applies, and changes nothing on a second run', async () => {
    const lms = session();
    const w = workspace();
    const file = w.file('roster.csv', roster);
    const plan = await lms.run(`enrollments import --course 3 --dry-run ${file} -o json`, { env: w.env });
    expect(plan.exitCode).toBe(0);
    expect((json(plan.stdout) as { rows: { status: string }[] }).rows.map((p) => p.status)).toEqual([
      'created',
      'created',
      'created',
      'created',
      'created',
    ]);
    const run = await lms.run(`enrollments import --course 3 ${file} -o json`, { env: w.env });
    expect(run.exitCode).toBe(0);
    expect((json(run.stdout) as { created: number }).created).toBe(5);
    const listed = json(
      (await lms.run('enrollments list --course 3 --fields user_id,role,enrollment_state -o json')).stdout,
    ) as { user_id: number; role: string }[];
    expect(listed).toEqual(
      expect.arrayContaining([
        { user_id: 7, role: 'TeacherEnrollment', enrollment_state: 'active' },
        { user_id: 5, role: 'Grader', enrollment_state: 'active' },
      ]),
    );
    const again = await lms.run(`enrollments import --course 3 --restart ${file} -o json`, { env: w.env });
    expect(again.stderr).toMatch(/5 existed|5 already/);
    expect((json(again.stdout) as { created: number }).created).toBe(0);
  });

  it('refuses a file that asks for the same enrollment twice, naming the lines, and sends nothing', async () => {
    const lms = session();
    const w = workspace();
    const file = w.file(
      'twice.csv',
      ['user,type', ...Array.from({ length: 8 }, () => '8,student'), '9,student', 'sis_user_id:S-009,ta', ''].join(
        '\n',
      ),
    );
    const r = await lms.run(`enrollments import --course 3 ${file}`, { env: w.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('twice.csv has 7 problems; nothing was sent');
    for (let line = 3; line <= 9; line++) expect(r.stderr).toContain(`twice.csv:${line}: repeats line 2`);
    expect(r.stderr).not.toContain(':11:');
    const listed = json((await lms.run('enrollments list --course 3 --fields user_id -o json')).stdout) as {
      user_id: number;
    }[];
    expect(listed.map((e) => e.user_id)).not.toContain(8);
  });

  it("names the header's columns when a row has too few or too many fields", async () => {
    const w = workspace();
    const file = w.file('short.csv', 'user,type,section,state\n8,student\n');
    const r = await session().run(`enrollments import --course 3 ${file}`, { env: w.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('short.csv:2: has 2 fields where the header has 4 (user, type, section, state)');
  });

  it('reports a changed state as differs, and --update applies it', async () => {
    const lms = session();
    const w = workspace();
    // Lucas is invited to CHEM-201; the file says active.
    const file = w.file('chem.csv', 'user,type,state\n11,student,active\n');
    const plan = json(
      (await lms.run(`enrollments import --course 2 --dry-run ${file} -o json`, { env: w.env })).stdout,
    ) as { rows: { status: string; changes: unknown }[] };
    expect(plan.rows[0]).toMatchObject({ status: 'differs' });
    // Without --update the run agrees with its dry run: the difference is reported, not applied.
    const run = json((await lms.run(`enrollments import --course 2 ${file} -o json`, { env: w.env })).stdout) as {
      rows: { status: string }[];
    };
    expect(run.rows.map((r) => r.status)).toEqual(['differs']);
    expect(
      json((await lms.run('enrollments list --course 2 --state invited -o json --fields user_id')).stdout),
    ).toEqual([{ user_id: 11 }]);
    expect((await lms.run(`enrollments import --course 2 --update ${file}`, { env: w.env })).exitCode).toBe(0);
    expect(
      json((await lms.run('enrollments list --course 2 --state invited -o json --fields user_id')).stdout),
    ).toEqual([]);
    expect(
      json(
        (await lms.run('enrollments list --course 2 --type student --state active -o json --fields user_id')).stdout,
      ),
    ).toContainEqual({ user_id: 11 });
  });

  it('with --sync concludes who the file no longer lists, only after confirmation, never on a dry run', async () => {
    const lms = session();
    const w = workspace();
    const file = w.file('keep.csv', 'user,type\n7,student\n8,student\n');
    const refused = await lms.run(`enrollments import --course 2 --sync ${file}`, { env: w.env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes to confirm');
    const plan = json(
      (await lms.run(`enrollments import --course 2 --sync --dry-run ${file} -o json`, { env: w.env })).stdout,
    ) as { rows: { status: string; user: string }[] };
    expect(
      plan.rows
        .filter((p) => p.status === 'concluded')
        .map((p) => p.user)
        .sort(),
    ).toEqual(['lucas', 'mina', 'ravi']);
    const students = () =>
      lms.run(
        'enrollments list --course 2 --type student --state active --state invited --state inactive -o json ' +
          '--fields user_id',
      );
    expect((json((await students()).stdout) as unknown[]).length).toBe(5);
    const synced = await lms.run(`enrollments import --course 2 --sync --yes ${file}`, { env: w.env });
    expect(synced.exitCode).toBe(0);
    expect(synced.stderr).toContain('3 concluded');
    expect(json((await students()).stdout)).toEqual([{ user_id: 7 }, { user_id: 8 }]);
    // The teacher was not in scope: the file lists students only.
    expect(json((await lms.run('enrollments list --course 2 --type teacher -o json --fields user_id')).stdout)).toEqual(
      [{ user_id: 3 }],
    );
  });

  it('checks the whole file first and sends nothing on a problem', async () => {
    const lms = session();
    const w = workspace();
    const file = w.file('bad.csv', 'user,type,state\n7,student,active\n8,dean,active\n9,,\n10,student,asleep\n');
    const r = await lms.run(`enrollments import --course 3 ${file}`, { env: w.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(':3: type "dean" is not student');
    expect(r.stderr).toContain(':4: give a type or a role');
    expect(r.stderr).toContain(':5: state "asleep" is not one of');
    expect(
      (
        json((await lms.run('enrollments list --course 3 -o json --fields user_id')).stdout) as { user_id: number }[]
      ).map((e) => e.user_id),
    ).not.toContain(7);
  });
});

describe('a 404 from a POST', () => {
  it('does not blame the path when the body named the missing thing', async () => {
    const r = await session().run('enrollments add --course 3 --user 999999');
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe('error: user 999999 not found (POST /api/v1/courses/3/enrollments → 404)\n');
  });
});

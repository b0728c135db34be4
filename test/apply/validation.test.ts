// A file's mistakes: each kind of mistake is its file and line and a message, exit 2, and not one
// write. What only the instance can tell (a user, a section, a cross-listing target that does not
// exist) is found by reads — for a file with mistakes of its own too, so that one run lists them all
// (test/apply/all-problems.test.ts); a file that does not parse names nothing, and sends nothing.
import { describe, expect, it } from 'vitest';
import { counted } from './helpers.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const course = (body: string) => `courses:\n  - sis_course_id: V-1\n    name: Valid\n${body}`;

/** [what, file text, the line, the message] — the file named f.yaml. */
const fileMistakes: [string, string, number, string | RegExp][] = [
  ['YAML that does not parse', 'courses:\n  - sis_course_id: [\n', 2, /flow sequence|Flow sequence|Missing/i],
  ['a key repeated in a map', course('    name: Again\n'), 4, /unique|Map keys must be unique/i],
  ['no courses list', 'course:\n  - sis_course_id: V-1\n', 1, 'unknown key "course" at the top of the file'],
  ['a course without its SIS id', 'courses:\n  - name: Nameless\n', 2, 'a course needs its sis_course_id'],
  ['an unknown course field', course('    colour: blue\n'), 4, 'unknown field "colour" for a course'],
  [
    'a field no verb sets (read-only in the API)',
    course('    workflow_state: available\n'),
    4,
    'unknown field "workflow_state" for a course',
  ],
  [
    'a mistyped field, with a suggestion',
    course('    assignments:\n      - { name: A, points_posible: 3 }\n'),
    5,
    'unknown field "points_posible" for an assignment (did you mean points_possible?)',
  ],
  [
    'a number that is text',
    course('    assignments:\n      - { name: A, points_possible: ten }\n'),
    5,
    'points_possible must be a number, not "ten"',
  ],
  [
    'a whole number that is not',
    course('    quizzes:\n      - { title: Q, time_limit: 2.5 }\n'),
    5,
    'time_limit must be a whole number (or null), not 2.5',
  ],
  [
    'a boolean that is text',
    course('    topics:\n      - { title: T, pinned: "yes" }\n'),
    5,
    'pinned must be true or false, not "yes"',
  ],
  [
    'a value not among the choices',
    course('    quizzes:\n      - { title: Q, quiz_type: exam }\n'),
    5,
    'quiz_type must be one of practice_quiz, assignment, graded_survey, survey, not "exam"',
  ],
  [
    'a date that is not one',
    course('    sections:\n      - { sis_section_id: V-1-A, name: A, start_at: tomorrow }\n'),
    5,
    'start_at must be a date and time (ISO 8601) (or null), not "tomorrow"',
  ],
  [
    'a list that is text',
    course('    assignments:\n      - { name: A, submission_types: online_upload }\n'),
    5,
    'submission_types must be a list of text, not "online_upload"',
  ],
  [
    'null where nothing clears',
    course('    assignments:\n      - { name: A, points_possible: null }\n'),
    5,
    'points_possible must be a number, not null',
  ],
  ['a map where a value goes', course('    topics:\n      - title: { text: T }\n'), 5, 'title must be text, not a map'],
  ['a kind that is not a list', course('    topics: { title: T }\n'), 4, 'topics must be a list'],
  [
    'a section without its SIS id',
    course('    sections:\n      - { name: Lab }\n'),
    5,
    'a section needs its sis_section_id',
  ],
  ['a topic without a title', course('    topics:\n      - { key: t1, message: hi }\n'), 5, 'a topic needs a title'],
  [
    'a key repeated',
    course('    topics:\n      - { key: t1, title: A }\n      - { key: t1, title: B }\n'),
    6,
    'key "t1" repeats line 5',
  ],
  [
    'a title repeated without keys',
    course('    quizzes:\n      - { title: Q }\n      - { title: Q }\n'),
    6,
    'title "Q" repeats line 5: give each a key',
  ],
  [
    'a reference to a key not in the file',
    course(
      '    assignments:\n      - { key: lab1, name: Lab 1 }\n    topics:\n      - { title: T, assignment: lab9 }\n',
    ),
    7,
    'assignment "lab9" is not the key of one of this course\'s assignments in the file',
  ],
  [
    'a reference and an id both',
    course(
      '    assignments:\n      - { key: lab1, name: Lab 1 }\n    topics:\n      - { title: T, assignment: lab1, ' +
        'assignment_id: 4 }\n',
    ),
    7,
    'give assignment (the key of one in the file) or assignment_id (an id), not both',
  ],
  [
    'an enrollment type that is none',
    course('    enrollments:\n      - { user: sam, type: wizard }\n'),
    5,
    'type "wizard" is not student, teacher, ta, designer or observer',
  ],
  [
    'an enrollment with neither type nor role',
    course('    enrollments:\n      - { user: sam }\n'),
    5,
    'give a type or a role',
  ],
  [
    'an enrollment state that is none',
    course('    enrollments:\n      - { user: sam, type: student, state: gone }\n'),
    5,
    'state "gone" is not one of active, invited, inactive',
  ],
  [
    'an enrollment in a section not in the file',
    course('    enrollments:\n      - { user: sam, type: student, section: LAB-X }\n'),
    5,
    'section "LAB-X" is not a section of this course in the file',
  ],
  [
    'an unknown enrollment field',
    course('    enrollments:\n      - { user: sam, type: student, grade: A }\n'),
    5,
    'unknown field "grade" for an enrollment',
  ],
  [
    'an enrollment repeated',
    course('    enrollments:\n      - { user: sam, type: student }\n      - { user: Sam, type: student }\n'),
    6,
    'enrollment of Sam as StudentEnrollment repeats line 5',
  ],
  ['outcomes that are not { file }', course('    outcomes: outcomes.yaml\n'), 4, 'outcomes must be { file: FILE }'],
];

describe('a file with a mistake: its line, exit 2, not one write', () => {
  it.each(fileMistakes)('%s', async (_what, text, line, message) => {
    const s = counted();
    const path = s.file('f.yaml', text);
    const r = await s.run(['apply', '-f', path, '--plan']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    // The line, then the place in the document when the problem is inside it (`courses[0].colour`).
    const at = r.stderr
      .split('\n')
      .find(
        (l) => l.startsWith(`  ${path}:${line}: `) || new RegExp(`^  ${escapeRegExp(path)}:${line} \\S+: `).test(l),
      );
    expect(at, r.stderr).toBeDefined();
    if (typeof message === 'string') expect(at).toContain(message);
    else expect(at).toMatch(message);
    expect(s.writes()).toEqual([]);
  });

  it('lists every problem of every file at once, each with its file and line, as JSON too', async () => {
    const s = counted();
    const a = s.file('a.yaml', course('    colour: blue\n    topics:\n      - { title: T, pinned: 1 }\n'));
    const b = s.file('b.json', JSON.stringify({ courses: [{ sis_course_id: 'V-1', name: 'Again' }] }, null, 2));
    const r = await s.run(['apply', '-f', a, '-f', b, '-o', 'json']);
    expect(r.exitCode).toBe(2);
    const error = JSON.parse(r.stderr);
    expect(error.problems).toEqual([
      { file: a, line: 4, at: 'courses[0].colour', message: expect.stringContaining('unknown field "colour"') },
      { file: a, line: 6, at: 'courses[0].topics[0].pinned', message: 'pinned must be true or false, not 1' },
      { file: b, line: 3, at: 'courses[0]', message: `sis_course_id "V-1" repeats ${a}:2 courses[0]` },
    ]);
    expect(s.writes()).toEqual([]);
  });

  it('reads a roster CSV and an outcome tree beside the file, their problems at their own lines', async () => {
    const s = counted();
    s.file('roster.csv', 'user,type,section\nsam,student,\n,student,\nravi,wizard,\n');
    s.file('outcomes.yaml', 'groups:\n  - title: G\n    outcomes:\n      - { title: O, vendor_guid: o1 }\n');
    const path = s.file(
      'f.yaml',
      course('    enrollments:\n      - { csv: roster.csv }\n    outcomes: { file: outcomes.yaml }\n'),
    );
    const r = await s.run(['apply', '-f', path, '--plan']);
    expect(r.exitCode).toBe(2);
    const dir = s.dir;
    expect(r.stderr).toContain(`${dir}/roster.csv:3: user is empty`);
    expect(r.stderr).toContain(`${dir}/roster.csv:4: type "wizard" is not student`);
    expect(r.stderr).toContain(`${dir}/outcomes.yaml:2 groups[0]: vendor_guid is empty`);
    expect(s.writes()).toEqual([]);
  });

  it('an outcome tree of a million values is refused with the bound apply files have, as one problem', async () => {
    const s = counted();
    s.file('outcomes.json', `{"groups":[${Array(1_000_000).fill('{}').join(',')}]}`);
    const path = s.file('f.yaml', course('    outcomes: { file: outcomes.json }\n'));
    const r = await s.run(['apply', '-f', path, '--plan', '-o', 'json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr).problems).toEqual([
      {
        file: `${s.dir}/outcomes.json`,
        line: 1,
        message:
          'the file holds more than 100,000 values, the most read from one file; split the tree, or give it as CSV',
      },
    ]);
    expect(s.writes()).toEqual([]);
  });

  it('a roster file that is not there is the line that names it', async () => {
    const s = counted();
    const path = s.file('f.yaml', course('    enrollments:\n      - { csv: missing.csv }\n'));
    const r = await s.run(['apply', '-f', path, '--plan']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${path}:5 courses[0].enrollments[0]: csv: cannot read missing.csv: no such file`);
    expect(s.writes()).toEqual([]);
  });
});

describe('what only the instance can tell: found by reads, every one at once, not one write', () => {
  const onInstance: [string, string, number, string][] = [
    [
      'a user who does not exist',
      course('    enrollments:\n      - { user: nobody, type: student }\n'),
      5,
      'user "nobody" not found',
    ],
    [
      'a user by SIS id who does not exist',
      course('    enrollments:\n      - { user: "sis_user_id:S-999", type: student }\n'),
      5,
      'user "sis_user_id:S-999" not found',
    ],
    [
      'a section of the instance that does not exist',
      course('    enrollments:\n      - { user: sam, type: student, section: "sis_section_id:NOPE" }\n'),
      5,
      'section "sis_section_id:NOPE" not found',
    ],
    [
      'a cross-listing target that does not exist',
      course('    sections:\n      - { sis_section_id: V-1-A, name: A, crosslist_to: "sis_course_id:NOWHERE" }\n'),
      5,
      'crosslist_to: course "sis_course_id:NOWHERE" not found',
    ],
    [
      'an account that does not exist',
      'courses:\n  - sis_course_id: V-1\n    name: Valid\n    account: sis_account_id:NOPE\n',
      4,
      'account "sis_account_id:NOPE" not found',
    ],
    [
      'a section SIS id another course has',
      course('    sections:\n      - { sis_section_id: BIO-101-A, name: Mine }\n'),
      5,
      'sis_section_id "BIO-101-A" is a section of another course (course 1)',
    ],
    [
      'a course to create without the field its create needs',
      'courses:\n  - sis_course_id: V-2\n    course_code: V2\n',
      2,
      'course V-2 does not exist, and creating it needs name',
    ],
  ];

  it.each(onInstance)('%s', async (_what, text, line, message) => {
    const s = counted();
    const path = s.file('f.yaml', text);
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`  ${escapeRegExp(path)}:${line} courses\\S*: ${escapeRegExp(message)}`));
    expect(r.stderr).toContain('on this instance; nothing was changed');
    expect(s.writes()).toEqual([]);
  });

  it('reports them all together, users looked up once each', async () => {
    const s = counted();
    const path = s.file(
      'f.yaml',
      course(
        '    enrollments:\n      - { user: ghost, type: student }\n      - { user: ghost, type: ta }\n      - { ' +
          'user: phantom, type: student }\n      - { user: sam, type: student }\n',
      ),
    );
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.match(/not found/g)).toHaveLength(3);
    const lookups = s.requests.filter((q) => q.url.includes('/users/sis_login_id'));
    expect(lookups.map((q) => decodeURIComponent(new URL(q.url).pathname.split('/').pop()!)).sort()).toEqual([
      'sis_login_id:ghost',
      'sis_login_id:phantom',
      'sis_login_id:sam',
    ]);
    expect(s.writes()).toEqual([]);
  });
});

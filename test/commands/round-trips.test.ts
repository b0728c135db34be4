// Export → edit → import, for every bulk noun, against the in-memory mock: each export writes what
// its import reads (CSV whatever stdout is), an unedited export imports with nothing changed, and an
// edited one changes exactly the edits.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GradedAssignment } from '../../src/spec/types/submissions.js';
import { assignmentHeaders, gradeCell } from '../../src/commands/grade/export.js';
import { session, type Session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

function workspace(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'lms-round-trips-'));
  const lms = session({ ...env, LMS_STATE_DIR: join(dir, 'state') });
  let n = 0;
  /** Writes text to a new file of the scratch directory (each its own name, so no journal is shared). */
  const file = (text: string, ext = 'csv') => {
    const path = join(dir, `file-${++n}.${ext}`);
    writeFileSync(path, text);
    return path;
  };
  return { lms, file };
}

/** Runs a command that must succeed, and returns its stdout. */
async function ok(lms: Session, line: string, options?: { tty?: boolean }): Promise<string> {
  const r = await lms.run(line, options);
  expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

const replaceLine = (text: string, from: string, to: string) => {
  expect(text.split('\n')).toContain(from);
  return text
    .split('\n')
    .map((l) => (l === from ? to : l))
    .join('\n');
};

const EXPORTS = [
  ['users export', 'name,login_id,email,sis_user_id,short_name,sortable_name,time_zone,locale'],
  ['enrollments export --course 1', 'user,type,role,section,state'],
  ['grade export --course 1 --assignment 1', 'user,name,section,grade,comment'],
  ['grade export --course 1', 'user,name,section,Cell Structure Lab Report,Microscope Safety Quiz,Genetics Essay'],
  [
    'outcomes export --account 1',
    'vendor_guid,object_type,title,description,display_name,calculation_method,calculation_int,parent_guids,mastery_points,ratings',
  ],
] as const;

describe('every export writes its import format', () => {
  it.each(
    EXPORTS.flatMap(([line, header]) =>
      [false, true].map((tty) => [line, tty ? 'a terminal' : 'a pipe', tty, header] as const),
    ),
  )('%s to %s: CSV', async (line, _where, tty, header) => {
    const out = await ok(session(), line, { tty });
    expect(out.split('\n')[0]).toBe(header);
    expect(out.split('\n').length).toBeGreaterThan(2);
  });

  it.each(EXPORTS.map(([line]) => [line]))('%s -o json: JSON', async (line) => {
    const out = await ok(session(), `${line} -o json`);
    expect(() => json(out)).not.toThrow();
  });

  it('honours --fields as every list does', async () => {
    expect(await ok(session(), 'enrollments export --course 5 --fields user,state')).toBe(
      'user,state\nsis_user_id:T-004,active\nsis_user_id:T-003,active\n',
    );
  });
});

describe('an unedited export imports with nothing changed', () => {
  it.each([
    ['users', {}, 'users export', 'users import --update', { created: 0, updated: 0, differs: 0, failed: 0 }],
    [
      'a roster, synced',
      {},
      'enrollments export --course 1',
      'enrollments import --course 1 --update --sync --yes',
      { created: 0, updated: 0, differs: 0, failed: 0 },
    ],
    [
      'one assignment',
      TEACHER,
      'grade export --course 1 --assignment 3',
      'grade --course 1 --assignment 3 --csv',
      { updated: 0, failed: 0 },
    ],
    // Lucas resubmitted after his lab report was graded: that grade is no cell (it would grade the new attempt).
    [
      'a gradebook',
      TEACHER,
      'grade export --course 1',
      'grade --course 1 --csv',
      { updated: 0, unchanged: 5, failed: 0 },
    ],
    [
      "a section's gradebook",
      { LMS_TOKEN: '5~mock-tara' },
      'grade export --section 1',
      'grade --section 1 --csv',
      { updated: 0, failed: 0 },
    ],
    [
      'an outcomes tree as CSV',
      {},
      'outcomes export --course 1',
      'outcomes import --course 1',
      { created: 0, updated: 0, failed: 0 },
    ],
    [
      'an outcomes tree as YAML',
      {},
      'outcomes export --account 1 --yaml',
      'outcomes import --account 1',
      { created: 0, updated: 0, failed: 0 },
    ],
    [
      'an outcomes tree as JSON',
      {},
      'outcomes export --global -o json',
      'outcomes import --global',
      { created: 0, updated: 0, failed: 0 },
    ],
  ])('%s', async (_what, env, exportLine, importLine, counts) => {
    const { lms, file } = workspace(env);
    const exported = await ok(lms, exportLine);
    const ext = exportLine.includes('--yaml') ? 'yaml' : exportLine.includes('-o json') ? 'json' : 'csv';
    const r = await lms.run(`${importLine} ${file(exported, ext)} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject(counts);
    expect(await ok(lms, exportLine)).toBe(exported);
  });
});

describe('export → edit → import → read back; the same import again changes nothing', () => {
  it('grades one assignment: two cells edited, the empty ones left alone', async () => {
    const { lms, file } = workspace(TEACHER);
    const exported = await ok(lms, 'grade export --course 1 --assignment 1');
    expect(exported).toBe(
      [
        'user,name,section,grade,comment',
        'sis_user_id:S-007,Sam Student,BIO-101 Section A,19,',
        'sis_user_id:S-008,Sofia Student,"BIO-101 Section A, BIO-101 Lab Online",15,',
        'sis_user_id:S-009,Ravi Patel,"BIO-101 Section B, BIO-101 Lab Online",,',
        'sis_user_id:S-010,Mina Okafor,BIO-101 Section B,,',
        'sis_user_id:S-011,Lucas Moreau,BIO-101 Section A,,',
        'sis_user_id:S-012,Hana Sato,BIO-101 Section B,,',
        '',
      ].join('\n'),
    );
    const sofia = 'sis_user_id:S-008,Sofia Student,"BIO-101 Section A, BIO-101 Lab Online"';
    const edited = replaceLine(
      replaceLine(exported, `${sofia},15,`, `${sofia},16,Label the axes`),
      'sis_user_id:S-010,Mina Okafor,BIO-101 Section B,,',
      'sis_user_id:S-010,Mina Okafor,BIO-101 Section B,75%,',
    );
    const path = file(edited);
    const first = await lms.run(`grade --course 1 --assignment 1 --csv ${path} -o json`);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(json(first.stdout)).toMatchObject({ updated: 2, unchanged: 1, failed: 0 });
    expect(await ok(lms, 'grade export --course 1 --assignment 1')).toBe(
      edited.replace('16,Label the axes', '16,').replace('Section B,75%,', 'Section B,15,'),
    );
    expect(
      JSON.parse(
        await ok(lms, 'submissions get --course 1 --assignment 1 --user sis_user_id:S-008 -o json --fields score'),
      ).score,
    ).toBe(16);
    const again = await lms.run(`grade --course 1 --assignment 1 --csv ${path} -o json`);
    expect(json(again.stdout)).toMatchObject({ updated: 0, unchanged: 3, failed: 0 });
  });

  it('grades a gradebook: a letter and a pass/fail cell edited', async () => {
    const { lms, file } = workspace(TEACHER);
    const exported = await ok(lms, 'grade export --course 1');
    const edited = replaceLine(
      replaceLine(
        exported,
        'sis_user_id:S-007,Sam Student,BIO-101 Section A,19,complete,B+',
        'sis_user_id:S-007,Sam Student,BIO-101 Section A,19,complete,A-',
      ),
      'sis_user_id:S-009,Ravi Patel,"BIO-101 Section B, BIO-101 Lab Online",,,',
      'sis_user_id:S-009,Ravi Patel,"BIO-101 Section B, BIO-101 Lab Online",,complete,',
    );
    const path = file(edited);
    const first = await lms.run(`grade --course 1 --csv ${path} -o csv`);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout.split('\n').filter((l) => l.includes(',updated,'))).toEqual([
      '2,sis_user_id:S-007,3,B+,A-,updated,',
      '4,sis_user_id:S-009,2,,complete,updated,',
    ]);
    expect(await ok(lms, 'grade export --course 1')).toBe(edited);
    const again = await lms.run(`grade --course 1 --csv ${path} -o json`);
    expect(json(again.stdout)).toMatchObject({ updated: 0, unchanged: 6, failed: 0 });
  });

  it.each([
    ['one assignment', 'grade export --course 1 --assignment 1', '--assignment 1'],
    ['a gradebook', 'grade export --course 1', ''],
  ])(
    "checks %s's names against the students its rows name: a row out of step is a problem of its line, and nothing " +
      'is sent',
    async (_what, exportLine, flags) => {
      const { lms, file } = workspace(TEACHER);
      const exported = await ok(lms, exportLine);
      // Sam's grade edited, and the name column sorted on its own: Sam's and Sofia's names swapped.
      const lines = exported.split('\n');
      lines[1] = lines[1].replace('Sam Student', 'Sofia Student').replace(',19,', ',20,');
      lines[2] = lines[2].replace('Sofia Student', 'Sam Student');
      const before = await ok(lms, 'grade export --course 1');
      const r = await lms.run(`grade --course 1 ${flags} --csv ${file(lines.join('\n'))}`);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('has 2 problems; nothing was sent');
      expect(r.stderr).toContain(':2: name "Sofia Student" is not the name of user "sis_user_id:S-007" (Sam Student)');
      expect(r.stderr).toContain(':3: name "Sam Student" is not the name of user "sis_user_id:S-008" (Sofia Student)');
      expect(await ok(lms, 'grade export --course 1')).toBe(before);
    },
  );

  it(
    'takes a name as the student is called in any of their names, in any case; and a file without names or ' +
      'sections',
    async () => {
      const { lms, file } = workspace(TEACHER);
      const r = await lms.run(
        'grade --course 1 --assignment 1 --csv ' +
          `${file('user,name,section,grade\nsam,"student,  SAM",Anything at all,20\n8,Sofia,,16\n')} -o json`,
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(json(r.stdout)).toMatchObject({ updated: 2, failed: 0 });
      const bare = await lms.run(`grade --course 1 --csv ${file('user,section,1\nsam,Nowhere,19\n')} -o json`);
      expect(json(bare.stdout)).toMatchObject({ updated: 1, failed: 0 });
    },
  );

  it('syncs a roster: a state changed and a student added', async () => {
    const { lms, file } = workspace();
    const exported = await ok(lms, 'enrollments export --course 2');
    const edited =
      `${replaceLine(exported, 'sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,invited', 'sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,active').trimEnd()}` +
      `\nsis_login_id:hana,student,,,active\n`;
    const path = file(edited);
    const first = await lms.run(`enrollments import --course 2 --update --sync --yes ${path} -o json`);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(json(first.stdout)).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const now = await ok(lms, 'enrollments export --course 2');
    expect(now).toContain('sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,active\n');
    expect(now).toContain('sis_user_id:S-012,student,,sis_section_id:CHEM-201-01,active\n');
    expect(now.split('\n')).toHaveLength(exported.split('\n').length + 1);
    const again = await lms.run(`enrollments import --course 2 --update --sync --yes --restart ${path} -o json`);
    expect(json(again.stdout)).toMatchObject({ created: 0, updated: 0, differs: 0, failed: 0 });
    const reexported = await lms.run(`enrollments import --course 2 --update --sync --yes ${file(now)} -o json`);
    expect(json(reexported.stdout)).toMatchObject({ created: 0, updated: 0, differs: 0, failed: 0 });
  });

  it('updates users: a short name changed', async () => {
    const { lms, file } = workspace();
    const exported = await ok(lms, 'users export');
    const edited = replaceLine(
      exported,
      'Sam Student,sam,sam@example.edu,S-007,Sam,"Student, Sam",America/Chicago,en',
      'Sam Student,sam,sam@example.edu,S-007,Sammy,"Student, Sam",America/Chicago,en',
    );
    const path = file(edited);
    const first = await lms.run(`users import --update ${path} -o json`);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(json(first.stdout)).toMatchObject({ updated: 1, created: 0, failed: 0 });
    expect(await ok(lms, 'users export')).toBe(edited);
    const again = await lms.run(`users import --update --restart ${path} -o json`);
    expect(json(again.stdout)).toMatchObject({ updated: 0, created: 0, differs: 0, failed: 0 });
  });

  it('builds an outcomes tree: a group renamed and an outcome added', async () => {
    const { lms, file } = workspace();
    const exported = await ok(lms, 'outcomes export --account 1');
    const edited =
      `${exported.replace('msu-lab,group,Laboratory Practice,', 'msu-lab,group,Lab Practice,')}` +
      `msu-field,outcome,Keeps a field notebook,,,n_mastery,2,msu-lab msu-writing,2,2:Complete;1:Partial\n`;
    const path = file(edited);
    const first = await lms.run(`outcomes import --account 1 ${path} -o json`);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(json(first.stdout)).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const now = await ok(lms, 'outcomes export --account 1');
    expect(now).toContain('msu-lab,group,Lab Practice,,,,,msu-sci-lit,,\n');
    expect(now).toContain(
      'msu-field,outcome,Keeps a field notebook,,,n_mastery,2,msu-lab msu-writing,2,2:Complete;1:Partial\n',
    );
    const again = await lms.run(`outcomes import --account 1 --restart ${path} -o json`);
    expect(json(again.stdout)).toMatchObject({ created: 0, updated: 0, failed: 0 });
  });
});

describe('lms grade --csv: an empty grade changes nothing', () => {
  it.each([
    [
      'one assignment',
      '--assignment 1',
      'user,grade,comment\nsam,,\nsofia,17,\nravi,,a comment with no grade\n',
      { updated: 1, unchanged: 0 },
    ],
    ['a gradebook', '', 'user,1,2\nsam,,\nsofia,17,\n', { updated: 1, unchanged: 0 }],
    ['a file of empty grades', '--assignment 1', 'user,grade\nsam,\n', { updated: 0, unchanged: 0 }],
  ])('%s', async (_what, flags, text, counts) => {
    const { lms, file } = workspace(TEACHER);
    const before = await ok(lms, 'grade export --course 1');
    const r = await lms.run(`grade --course 1 ${flags} --csv ${file(text)} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ ...counts, failed: 0 });
    const sofia = 'sis_user_id:S-008,Sofia Student,"BIO-101 Section A, BIO-101 Lab Online"';
    expect(await ok(lms, 'grade export --course 1')).toBe(
      before.replace(`${sofia},15,`, counts.updated ? `${sofia},17,` : `${sofia},15,`),
    );
    const comments = lms.mock.db
      .prepare(`SELECT count(*) AS n FROM submission_comments WHERE comment = 'a comment with no grade'`)
      .get() as { n: number };
    expect(comments.n).toBe(0);
  });

  it("grades a gradebook's failed-rows file as it is: its error column is no assignment", async () => {
    const { lms, file } = workspace(TEACHER);
    const r = await lms.run(
      `grade --course 1 --csv ${file('user,1,Genetics Essay,error\nsam,20,,the server kept 19\n')} -o json`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ updated: 1, unchanged: 0, failed: 0 });
  });

  it('still needs the grade column and a user on every row', async () => {
    const { lms, file } = workspace(TEACHER);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${file('user,comment\nsam,hi\n,\n')}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(':1: missing required column grade');
    const rows = await lms.run(`grade --course 1 --assignment 1 --csv ${file('user,grade\n,17\n')}`);
    expect(rows.exitCode).toBe(2);
    expect(rows.stderr).toContain(':2: user is empty');
  });
});

describe('lms grade export', () => {
  const points: GradedAssignment = {
    id: 1,
    name: 'Lab',
    grading_type: 'points',
    points_possible: 20,
  } as GradedAssignment;
  const letters: GradedAssignment = {
    id: 3,
    name: 'Essay',
    grading_type: 'letter_grade',
    points_possible: 100,
  } as GradedAssignment;
  const passFail: GradedAssignment = {
    id: 2,
    name: 'Quiz',
    grading_type: 'pass_fail',
    points_possible: 10,
  } as GradedAssignment;
  const percent: GradedAssignment = {
    id: 4,
    name: 'Report',
    grading_type: 'percent',
    points_possible: 20,
  } as GradedAssignment;

  it.each([
    ['points', points, { grade: '17', score: 17, excused: false }, '17'],
    ['a letter at the top of its range', letters, { grade: 'B+', score: 89, excused: false }, 'B+'],
    ['a letter below the top of its range: its score', letters, { grade: 'B+', score: 88, excused: false }, '88'],
    ['pass/fail', passFail, { grade: 'complete', score: 10, excused: false }, 'complete'],
    ['a percentage', percent, { grade: '75%', score: 15, excused: false }, '75%'],
    ['no grade', points, { grade: null, score: null, excused: false }, ''],
    ['excused', points, { grade: null, score: null, excused: true }, ''],
    ['a grade no value reproduces', passFail, { grade: 'complete', score: 7, excused: false }, ''],
  ])('writes %s as the import reads it back', (_what, assignment, submission, cell) => {
    expect(gradeCell(assignment, submission)).toBe(cell);
  });

  it.each([
    [
      'distinct names',
      [
        { id: 1, name: 'Lab' },
        { id: 2, name: 'Quiz' },
      ],
      { 1: 'Lab', 2: 'Quiz' },
      [],
    ],
    [
      'a name two assignments share: their ids',
      [
        { id: 1, name: 'Lab' },
        { id: 2, name: 'lab' },
        { id: 3, name: 'Quiz' },
      ],
      { 1: '1', 2: '2', 3: 'Quiz' },
      [],
    ],
    [
      "a name that is another's id",
      [
        { id: 1, name: '2' },
        { id: 2, name: 'Quiz' },
      ],
      { 1: '1', 2: 'Quiz' },
      [],
    ],
    ['a name the import reads as its user column', [{ id: 1, name: 'User' }], { 1: '1' }, []],
    ['a name with spaces around it', [{ id: 1, name: ' Lab ' }], { 1: '1' }, []],
    [
      'neither name nor id alone',
      [
        { id: 1, name: '2' },
        { id: 2, name: '1' },
      ],
      {},
      [1, 2],
    ],
  ])('heads columns for %s', (_what, given, headers, unnamed) => {
    const r = assignmentHeaders(given as GradedAssignment[]);
    expect(Object.fromEntries(r.headers)).toEqual(
      Object.fromEntries(Object.entries(headers).map(([k, v]) => [Number(k), v])),
    );
    expect(r.unnamed.map((a) => a.id)).toEqual(unnamed);
  });

  it('refuses no context or two (exit 2)', async () => {
    const lms = session(TEACHER);
    for (const line of ['grade export', 'grade export --course 1 --section 1']) {
      const r = await lms.run(line);
      expect([line, r.exitCode]).toEqual([line, 2]);
    }
  });
});

describe('lms enrollments export and list', () => {
  it('writes custom roles, and an observer of two students in one section once', async () => {
    const { lms, file } = workspace();
    await ok(lms, 'enrollments add --course 1 --user 13 --type observer --observee 8 --section-id 1 --state active');
    const r = await lms.run('enrollments export --course 1');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      '1 enrollment with the user, role and section of an earlier row (observers of several students) is written once',
    );
    expect(r.stdout.split('\n').filter((l) => l.startsWith('sis_user_id:O-013,'))).toEqual([
      'sis_user_id:O-013,observer,,sis_section_id:BIO-101-A,active',
    ]);
    const imported = await lms.run(`enrollments import --course 1 ${file(r.stdout)} -o json`);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(json(imported.stdout)).toMatchObject({ created: 0, failed: 0 });
    expect(await ok(lms, 'enrollments export --course 5')).toBe(
      'user,type,role,section,state\nsis_user_id:T-004,ta,Grader,sis_section_id:BIO-101L-01,active\n' +
        'sis_user_id:T-003,teacher,,sis_section_id:BIO-101L-01,active\n',
    );
  });

  it.each([
    [
      'a course',
      'enrollments list --course 1 --user sis_user_id:S-009',
      [
        { user_id: 9, course_section_id: 2 },
        { user_id: 9, course_section_id: 7 },
      ],
    ],
    [
      'a section',
      'enrollments list --section sis_section_id:BIO-101-B --user 9',
      [{ user_id: 9, course_section_id: 2 }],
    ],
    ['a course they are not in', 'enrollments list --course 3 --user 9', []],
  ])("lists one user's enrollments in %s", async (_what, line, expected) => {
    expect(json(await ok(session(), `${line} -o json --fields user_id,course_section_id`))).toEqual(expected);
  });

  it('still refuses a course and a section together', async () => {
    const r = await session().run('enrollments list --course 1 --section 2 --user 9');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('give only one of --course or --section, not --course and --section');
  });
});

describe('lms outcomes export', () => {
  it('leaves out what an import could not find again, and says so', async () => {
    const { lms } = workspace();
    await ok(lms, 'outcomes groups create --account 1 --parent 3 --title "Unkeyed"');
    const r = await lms.run('outcomes export --account 1');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: left out, as an import could not find them again: group \d+ "Unkeyed" and what it holds \(no vendor_guid\)\n$/,
    );
    expect(r.stdout).not.toContain('Unkeyed');
  });

  it('defines an outcome linked twice once, and links it again by vendor_guid', async () => {
    const { lms } = workspace();
    await ok(lms, 'outcomes link 4 1 --account 1');
    const csv = await ok(lms, 'outcomes export --account 1');
    expect(csv.split('\n').filter((l) => l.startsWith('msu-hypothesis,'))).toEqual([
      expect.stringMatching(/^msu-hypothesis,outcome,Formulates hypotheses,.*,msu-sci-lit msu-writing,3,/),
    ]);
    const tree = json(await ok(lms, 'outcomes export --account 1 -o json')) as {
      groups: { vendor_guid: string; outcomes?: unknown[] }[];
    };
    expect(tree.groups.find((g) => g.vendor_guid === 'msu-writing')!.outcomes).toContainEqual({
      vendor_guid: 'msu-hypothesis',
    });
  });
});

// The pseudonyms of `lms mcp --pseudonymize`: which fields of which records are people's, what
// replaces them, what stays, and how a pseudonym given back turns into the real person. The
// instance is a fake directory: the roles it knows, the references it resolves.
import { describe, expect, it } from 'vitest';
import { givenBack, Pseudonyms, type Directory, type Roles, type Scope } from '../../src/mcp/pseudonyms.js';
import type { Tool } from '../../src/mcp/tools.js';

const KEY = Buffer.from('a test key of enough characters');

/** A directory where 3 teaches and 1 administers; 7 and 8 are students; 9 both teaches and studies. */
function directory(asked: string[][] = []): Directory {
  const staff = new Set(['1', '3']);
  return {
    rolesOf: async (ids) => {
      asked.push(ids);
      return new Map<string, Roles>(ids.filter((id) => id !== '404').map((id) => [id, { staff: staff.has(id) }]));
    },
    resolve: async (ref) =>
      ref === 'sis_user_id:S-007' ? { id: '7', name: 'Sam Student', login_id: 'sam', sis_user_id: 'S-007' } : undefined,
  };
}

async function made(scope: Scope = 'students', dir = directory()) {
  return new Pseudonyms({ scope, key: KEY, instance: async () => 'https://lms.example.edu', directory: dir }).ready();
}

const SAM = {
  id: 7,
  name: 'Sam Student',
  sortable_name: 'Student, Sam',
  short_name: 'Sam',
  login_id: 'sam',
  sis_user_id: 'S-007',
  integration_id: 'I-7',
  email: 'sam@example.edu',
  avatar_url: 'https://lms.example.edu/avatar/7.png',
  locale: 'en',
};
const TESS = {
  id: 3,
  name: 'Tess Teacher',
  sortable_name: 'Teacher, Tess',
  short_name: 'Tess',
  login_id: 'tteacher',
  sis_user_id: 'T-003',
  email: 'tteacher@example.edu',
};

describe('Pseudonyms.transform', () => {
  const cases: { name: string; value: unknown; hidden: string[]; kept: string[]; scope?: Scope }[] = [
    {
      name: 'a user record: every form of the name, login, SIS and integration ids, email, avatar',
      value: { items: [SAM] },
      hidden: ['Sam Student', 'Student, Sam', '"Sam"', '"sam"', 'S-007', 'I-7', 'sam@example.edu', 'avatar/7.png'],
      kept: ['"id":7', '"locale":"en"'],
    },
    {
      name: 'a teacher stays named',
      value: { items: [TESS, SAM] },
      hidden: ['Sam Student'],
      kept: ['Tess Teacher', 'tteacher', 'T-003'],
    },
    {
      name: 'under all, the teacher too',
      value: { items: [TESS] },
      hidden: ['Tess Teacher', 'tteacher', 'T-003'],
      kept: ['"id":3'],
      scope: 'all',
    },
    {
      name: "an enrollment: its SIS user id is its user_id's, and its user",
      value: {
        id: 40,
        user_id: 7,
        course_id: 1,
        sis_user_id: 'S-007',
        sis_course_id: 'BIO-101',
        user: { id: 7, name: 'Sam Student', login_id: 'sam' },
      },
      hidden: ['S-007', 'Sam Student', '"sam"'],
      kept: ['BIO-101', '"id":40', '"user_id":7'],
    },
    {
      name: 'comment authors, by author_id and as an author object',
      value: {
        submission_comments: [
          {
            author_id: 7,
            author_name: 'Sam Student',
            comment: 'Thanks, Sam Student here',
            author: { id: 7, display_name: 'Sam Student' },
          },
        ],
      },
      hidden: ['Sam Student'],
      kept: ['Thanks,', 'here'],
    },
    {
      name: 'gradebook history: user_name beside user_id, grader beside grader_id',
      value: {
        user_id: 7,
        user_name: 'Sam Student',
        grader_id: 3,
        grader: 'Tess Teacher',
        current_grader: 'Tess Teacher',
      },
      hidden: ['Sam Student'],
      kept: ['Tess Teacher'],
    },
    {
      name: 'conversation participants, and the name in the message',
      value: {
        participants: [{ id: 7, name: 'Sam', full_name: 'Sam Student' }],
        last_message: 'Sam Student wrote to sam@example.edu',
      },
      hidden: ['Sam Student', 'sam@example.edu', '"Sam"'],
      kept: ['wrote to'],
    },
    {
      name: 'a reference by SIS id, resolved through the instance',
      value: { items: [{ user: 'sis_user_id:S-007', grade: '19' }] },
      hidden: ['S-007'],
      kept: ['sis_user_id:student-', '"grade":"19"'],
    },
    {
      name: 'a course is no person',
      value: { id: 1, name: 'Biology 101', sis_course_id: 'BIO-101', integration_id: 'C-1' },
      hidden: [],
      kept: ['Biology 101', 'C-1'],
    },
    {
      name: 'someone the instance cannot place counts as a student',
      value: { id: 404, name: 'Nora Nobody', login_id: 'nora' },
      hidden: ['Nora Nobody', 'nora'],
      kept: ['"id":404'],
    },
    {
      name: "a record with no id (an export's row), placed by its SIS id",
      value: { items: [{ name: 'Sam Student', login_id: 'sam', sis_user_id: 'S-007', locale: 'en' }] },
      hidden: ['Sam Student', '"sam"', 'S-007'],
      kept: ['"name":"Student ', '"locale":"en"'],
    },
    {
      name: "a record with no id the instance cannot place: a student's, whatever it says",
      value: {
        items: [{ name: 'Nora Nobody', login_id: 'nora', sis_user_id: 'N-1', email: 'nora@example.edu', locale: 'en' }],
      },
      hidden: ['Nora Nobody', 'nora', 'N-1'],
      kept: ['"name":"a student"', '"locale":"en"'],
    },
    {
      name: "an export's row: the name beside its user's SIS reference",
      value: { items: [{ user: 'sis_user_id:S-007', name: 'Sam Student', section: 'BIO-101 Section A', grade: '19' }] },
      hidden: ['Sam Student', 'S-007'],
      kept: ['"name":"Student ', '"section":"BIO-101 Section A"', '"grade":"19"'],
    },
    {
      name: "an export's row: the name beside its user's id, a person the instance was never asked about",
      value: { items: [{ user: '7', name: 'Zed Zulu', grade: '19' }] },
      hidden: ['Zed Zulu'],
      kept: ['"user":"7"', '"name":"Student '],
    },
    {
      name: "an export's row the instance cannot place: a student's name",
      value: { items: [{ user: 'sis_user_id:N-1', name: 'Nora Nobody', grade: '' }] },
      hidden: ['Nora Nobody', 'N-1'],
      kept: ['"name":"a student"'],
    },
    {
      name: "an export's row of a teacher stays named",
      value: { items: [{ user: '3', name: 'Tess Teacher' }] },
      hidden: [],
      kept: ['Tess Teacher'],
    },
    {
      name: 'a cursor and a confirmation token are left as they are',
      value: { items: [SAM], next_cursor: 'abc-sam-def', confirm: 'x.sam.y' },
      hidden: ['Sam Student'],
      kept: ['abc-sam-def', 'x.sam.y'],
    },
    {
      name: "a rubric's peer assessment: the student assessor's name, beside assessor_id, and the assessed user's",
      value: {
        id: 1,
        title: 'Lab Report Rubric',
        assessments: [
          {
            id: 4,
            rubric_id: 1,
            assessor_id: 8,
            assessor_name: 'Sofia Student',
            user_id: 7,
            user_name: 'Sam Student',
            assessment_type: 'peer_review',
            score: 17,
          },
        ],
      },
      hidden: ['Sofia Student', 'Sam Student'],
      kept: ['"assessor_id":8', '"score":17', 'Lab Report Rubric'],
    },
    {
      name: "a grader's rubric assessment: the teacher assessor stays named, the student does not",
      value: { assessor_id: 3, assessor_name: 'Tess Teacher', user_id: 7, user: { id: 7, name: 'Sam Student' } },
      hidden: ['Sam Student'],
      kept: ['Tess Teacher', '"assessor_id":3'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const p = await made(c.scope);
      const out = JSON.stringify(await p.transform(structuredClone(c.value)));
      for (const h of c.hidden) expect(out, h).not.toContain(h);
      for (const k of c.kept) expect(out, k).toContain(k);
    });
  }

  it('gives a person the same pseudonym in every form, from an HMAC of the id and instance', async () => {
    const p = await made();
    const u = (await p.transform({ ...SAM })) as Record<string, unknown>;
    const hex = /^Student ([0-9a-f]{8})$/.exec(String(u.name))![1];
    expect(u).toMatchObject({
      short_name: `Student ${hex}`,
      login_id: `student-${hex}`,
      sis_user_id: `student-${hex}`,
      integration_id: `student-${hex}`,
      email: `student-${hex}@pseudonym.invalid`,
    });
    expect((await made()).pseudonymOf('7').display).toBe(`Student ${hex}`);
    const other = new Pseudonyms({
      scope: 'students',
      key: Buffer.from('another key of enough characters'),
      instance: async () => 'https://lms.example.edu',
      directory: directory(),
    });
    expect((await other.ready()).pseudonymOf('7').display).not.toBe(`Student ${hex}`);
    const elsewhere = new Pseudonyms({
      scope: 'students',
      key: KEY,
      instance: async () => 'https://other.example.edu',
      directory: directory(),
    });
    expect((await elsewhere.ready()).pseudonymOf('7').display).not.toBe(`Student ${hex}`);
  });

  it('nets a text it has seen again once it knows more people', async () => {
    const p = await made();
    await p.transform({ id: 8, name: 'Sofia Student', login_id: 'sofia' });
    expect(await p.transform({ note: 'Sam Student wrote' })).toEqual({ note: 'Sam Student wrote' });
    await p.transform({ ...SAM });
    expect(JSON.stringify(await p.transform({ note: 'Sam Student wrote' }))).not.toContain('Sam Student');
  });

  it(
    'keeps every form a person was ever called by in the ' + "net: a record's full name after a comment's short one",
    async () => {
      const p = await made();
      await p.transform({ items: [{ ...SAM }] });
      await p.transform({
        submission_comments: [{ author_id: 7, author_name: 'Sam', author: { id: 7, display_name: 'Sam' } }],
      });
      const out = JSON.stringify(await p.transform({ message: 'Sam Student was absent' }));
      expect(out).not.toContain('Sam Student');
      expect(out).not.toContain('Student was');
    },
  );

  it('nets a login and an email learned from role-named fields, wherever they appear later', async () => {
    const p = await made();
    await p.transform({
      user_id: 8,
      user_name: 'Nell Newcomer',
      user_login_id: 'nnew',
      user_email: 'nell@example.edu',
    });
    const out = JSON.stringify(await p.transform({ body: 'ask nnew or write to nell@example.edu' }));
    expect(out).not.toContain('nnew');
    expect(out).not.toContain('nell@example.edu');
  });

  it('leaves a timestamp whole, even where a SIS id is the digits of its year', async () => {
    const p = await made();
    const out = (await p.transform({
      items: [{ ...SAM, sis_user_id: '2026' }],
      created_at: '2026-08-24T08:00:00Z',
      note: 'id 2026',
    })) as Record<string, unknown>;
    expect(out.created_at).toBe('2026-08-24T08:00:00Z');
    expect(out.note).toMatch(/^id student-[0-9a-f]{8}$/);
  });

  it('asks again about who was taken for a student once a result concerns a course not asked about yet', async () => {
    const asked: [string[], string[]][] = [];
    const dir: Directory = {
      rolesOf: async (ids, courses) => {
        asked.push([ids, courses]);
        return new Map(ids.map((id) => [id, { staff: id === '4' && courses.includes('6') }]));
      },
      resolve: async () => undefined,
    };
    const p = await made('students', dir);
    const theo = (course: number) => ({
      items: [{ id: 40 + course, user_id: 4, course_id: course, user: { id: 4, name: 'Theo Teacher' } }],
    });
    expect(JSON.stringify(await p.transform(theo(4)))).not.toContain('Theo Teacher');
    expect(JSON.stringify(await p.transform(theo(4)))).not.toContain('Theo Teacher');
    expect(JSON.stringify(await p.transform(theo(6)))).toContain('Theo Teacher');
    expect(
      JSON.stringify(await p.transform({ id: 4, name: 'Theo Teacher', login_id: 'theo' }, { courses: ['4'] })),
    ).toContain('Theo Teacher');
    expect(asked).toEqual([
      [['4'], ['4']],
      [['4'], ['6']],
    ]);
  });

  it('asks the instance about each person once', async () => {
    const asked: string[][] = [];
    const p = await made('students', directory(asked));
    await p.transform({ items: [{ ...SAM }, { ...TESS }] });
    await p.transform({ items: [{ ...SAM }] });
    expect(asked).toEqual([['7', '3']]);
  });
});

describe('mapping pseudonyms back', () => {
  const toolOf = (name: string, files: [string, string][] = []) =>
    ({
      name,
      command: `lms ${name.replace('_', ' ')}`,
      params: files.map(([property, of]) => ({ property, to: 'text', of })),
    }) as unknown as Tool;
  const tool = toolOf('grade_set', [['csv_text', 'csv']]);

  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['a login form, as a user', 'grade_set', { user: 'student-HEX' }, { user: '7' }],
    ['a student whose module progress is read', 'modules_list', { student: 'Student HEX' }, { student: '7' }],
    ["a SIS form, as a user's id", 'users_get', { id: 'sis_user_id:student-HEX' }, { id: '7' }],
    ['the display form', 'users_get', { id: 'Student HEX' }, { id: '7' }],
    ['a list of recipients', 'conv_send', { to: ['student-HEX', '3'] }, { to: ['7', '3'] }],
    ['a search for people, as the real name', 'users_list', { search: 'Student HEX' }, { search: 'Sam Student' }],
    [
      'a message, as it was written',
      'conv_send',
      { body: 'Dear Student HEX, see student-HEX@pseudonym.invalid', subject: 'student-HEX' },
      { body: 'Dear Student HEX, see student-HEX@pseudonym.invalid', subject: 'student-HEX' },
    ],
    ["an id that is no user's, as it was given", 'courses_get', { id: 'student-HEX' }, { id: 'student-HEX' }],
    ['a search for courses, as it was given', 'courses_list', { search: 'Student HEX' }, { search: 'Student HEX' }],
    [
      'CSV text: a cell that is a pseudonym, as an id',
      'grade_set',
      { csv_text: 'user,grade\nstudent-HEX,88\n"sis_user_id:student-HEX",90\n' },
      { csv_text: 'user,grade\n7,88\n"7",90\n' },
    ],
    [
      'CSV text: a comment keeps its words',
      'grade_set',
      { csv_text: 'user,grade,comment\nstudent-HEX,88,well done Student HEX\n' },
      { csv_text: 'user,grade,comment\n7,88,well done Student HEX\n' },
    ],
    [
      'CSV text: a comment cell that is a pseudonym keeps it',
      'grade_set',
      { csv_text: 'user,grade,comment\r\n"student-HEX",88,"Student HEX"\r\n' },
      { csv_text: 'user,grade,comment\r\n"7",88,"Student HEX"\r\n' },
    ],
    [
      'CSV text: a grade per assignment column',
      'grade_set',
      { csv_text: 'user,Essay 1,Lab\nStudent HEX,1,2\n' },
      { csv_text: 'user,Essay 1,Lab\n7,1,2\n' },
    ],
    [
      'CSV text: a name beside a user column, as the real name',
      'grade_set',
      { csv_text: 'user,name,section,grade\nsis_user_id:student-HEX,Student HEX,A,88\n' },
      { csv_text: 'user,name,section,grade\n7,Sam Student,A,88\n' },
    ],
    [
      'CSV text: a name that is no pseudonym is left',
      'grade_set',
      { csv_text: 'user,name,grade\nstudent-HEX,Sam,88\n' },
      { csv_text: 'user,name,grade\n7,Sam,88\n' },
    ],
    [
      'CSV text: no user column, nothing taken back',
      'users_import',
      { file_text: 'login_id,name\nstudent-HEX,Student HEX\n' },
      { file_text: 'login_id,name\nstudent-HEX,Student HEX\n' },
    ],
    [
      "JSON text: a user key's value, not a comment's",
      'enrollments_import',
      { file_text: '[{"user": "student-HEX", "comment": "student-HEX"}]' },
      { file_text: '[{"user": "7", "comment": "student-HEX"}]' },
    ],
    [
      "YAML text: a course file's enrollment",
      'apply',
      { file_text: 'enrollments:\n  - user: sis_user_id:student-HEX # Sam\n    title: student-HEX\n' },
      { file_text: 'enrollments:\n  - user: 7 # Sam\n    title: student-HEX\n' },
    ],
    [
      'what names no pseudonym is left',
      'grade_set',
      { user: 'sis_user_id:S-008', comment: 'a student' },
      { user: 'sis_user_id:S-008', comment: 'a student' },
    ],
    ['a cursor is left', 'users_list', { cursor: 'student-HEX' }, { cursor: 'student-HEX' }],
  ])('%s', async (_, name, given, expected) => {
    const p = await made();
    await p.transform({ ...SAM });
    const hex = /([0-9a-f]{8})$/.exec(p.pseudonymOf('7').display)![1];
    const fill = (o: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(o).replaceAll('HEX', hex)) as Record<string, unknown>;
    const files: [string, string][] = name === 'grade_set' ? [['csv_text', 'csv']] : [['file_text', 'file']];
    expect({ ...givenBack(p, toolOf(name, files), fill(given)) }).toEqual(fill(expected));
  });

  it('quotes a real name a CSV cell must quote, and refuses a pseudonym whose name it never saw', async () => {
    const p = await made();
    await p.transform({ id: 8, name: 'Moreau, "Lucas"', login_id: 'lucas' });
    const { display, login } = p.pseudonymOf('8');
    expect(givenBack(p, tool, { csv_text: `user,name,grade\n${login},${display},88\n` }).csv_text).toBe(
      'user,name,grade\n8,"Moreau, ""Lucas""",88\n',
    );
    await p.transform({ id: 12, login_id: 'nameless' });
    const nameless = p.pseudonymOf('12').display;
    expect(() => givenBack(p, tool, { csv_text: `user,name,grade\n12,${nameless},88\n` })).toThrow(
      /stands for user 12, whose name this server has not seen/,
    );
  });

  it('leaves a message file as it was written', async () => {
    const p = await made();
    await p.transform({ ...SAM });
    const body = `${p.pseudonymOf('7').login}\nsee you`;
    expect(
      givenBack(p, toolOf('conv_send', [['body_file_text', 'body_file']]), { body_file_text: body }).body_file_text,
    ).toBe(body);
  });

  it('refuses a pseudonym this process never handed out', async () => {
    const p = await made();
    expect(() => givenBack(p, tool, { user: 'student-0badc0de' })).toThrow(
      /"student-0badc0de" is not a pseudonym this server handed out/,
    );
    expect(() => givenBack(p, tool, { csv_text: 'user,grade\nStudent 0badc0de,1\n' })).toThrow(/is not a pseudonym/);
  });
});

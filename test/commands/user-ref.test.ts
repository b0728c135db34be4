// One meaning for a user reference, whichever command takes it: digits are an id, `sis_user_id:X`,
// `sis_login_id:X` and `self` are as written, anything else is a login. A student named `sam` on the
// command line is the student a CSV row `sam,18` grades, and a bare SIS id is no one's login anywhere.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseUserRef, userPath } from '../../src/client/user-ref.js';
import { session } from '../helpers/run-lms.js';

const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-user-ref-'));
  return {
    dir,
    env: { LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

describe('parseUserRef', () => {
  it.each([
    ['42', { kind: 'id', value: '42', path: '42' }],
    [' 42 ', { kind: 'id', value: '42', path: '42' }],
    ['self', { kind: 'self', value: 'self', path: 'self' }],
    ['sis_user_id:S-007', { kind: 'sis_user_id', value: 'S-007', path: 'sis_user_id:S-007' }],
    ['SIS_USER_ID:S-007', { kind: 'sis_user_id', value: 'S-007', path: 'sis_user_id:S-007' }],
    ['sis_login_id:sam', { kind: 'sis_login_id', value: 'sam', path: 'sis_login_id:sam' }],
    ['sam', { kind: 'sis_login_id', value: 'sam', path: 'sis_login_id:sam' }],
    // A bare address is a login to the API, and maybe someone's email: resolveUserPath tells which.
    [
      'jane.doe@example.edu',
      { kind: 'sis_login_id', value: 'jane.doe@example.edu', path: 'sis_login_id:jane.doe@example.edu', address: true },
    ],
    [
      'email:Jane.Doe@example.edu',
      { kind: 'email', value: 'Jane.Doe@example.edu', path: 'email:Jane.Doe@example.edu' },
    ],
    ['EMAIL: jane@example.edu ', { kind: 'email', value: 'jane@example.edu', path: 'email:jane@example.edu' }],
    [
      'sis_login_id:jane@example.edu',
      { kind: 'sis_login_id', value: 'jane@example.edu', path: 'sis_login_id:jane@example.edu' },
    ],
    ['email:', { problem: '"email:" names no user: put the email address after the colon' }],
    ['email:jane', { problem: '"email:jane" is no email address' }],
    // A bare SIS id is a login: SIS ids are written sis_user_id:X, as every export writes them.
    ['S-007', { kind: 'sis_login_id', value: 'S-007', path: 'sis_login_id:S-007' }],
    ['', { problem: 'names no user' }],
    ['sis_user_id:', { problem: '"sis_user_id:" names no user: put the SIS id after the colon' }],
  ])('%j', (raw, expected) => {
    expect(parseUserRef(raw)).toEqual(expected);
  });

  it('gives paths the API reads', () => {
    expect(['7', 'sam', 'sis_user_id:S-007', 'self'].map(userPath)).toEqual([
      '7',
      'sis_login_id:sam',
      'sis_user_id:S-007',
      'self',
    ]);
  });
});

describe('every command reads a user reference alike', () => {
  it.each([
    [
      'grade (one)',
      'grade --course 1 --assignment 1 --user {u} 18 -o json --fields user_id,grade',
      { user_id: 7, grade: '18' },
    ],
    [
      'submissions get',
      'submissions get --course 1 --assignment 1 --user {u} -o json --fields user_id',
      { user_id: 7 },
    ],
    [
      'submissions list',
      'submissions list --course 1 --user {u} --assignment 1 -o json --fields user_id,assignment_id',
      [{ user_id: 7, assignment_id: 1 }],
    ],
    [
      'submissions comment',
      'submissions comment --course 1 --assignment 1 --user {u} "Good" -o json --fields comment',
      { comment: 'Good' },
    ],
  ])('%s: a login, a SIS id and an id name the same student', async (_what, line, expected) => {
    for (const u of [
      'sam',
      'Sam',
      'sis_login_id:sam',
      'sis_user_id:S-007',
      '7',
      'email:sam@example.edu',
      'email:SAM@Example.edu',
      'sam@example.edu',
    ]) {
      const r = await session(TEACHER).run(line.replace('{u}', u));
      expect([u, r.exitCode, r.stderr]).toEqual([u, 0, '']);
      expect(JSON.parse(r.stdout)).toEqual(expected);
    }
  });

  it('grade --csv and enrollments import read a login as the single commands do', async () => {
    const w = workspace();
    const lms = session({ ...w.env, ...TEACHER });
    const graded = await lms.run(
      `grade --course 1 --assignment 1 --csv ${w.file('g.csv', 'user,grade\nsam,18\n')} -o json`,
    );
    expect(graded.exitCode, graded.stderr).toBe(0);
    expect(JSON.parse(graded.stdout)).toMatchObject({ rows: [{ user: 'sam', user_id: 7, status: 'updated' }] });
    const enrolled = await lms.run(`enrollments import --course 3 ${w.file('r.csv', 'user,type\nsam,ta\n')} -o json`, {
      env: { LMS_TOKEN: '' },
    });
    expect(enrolled.exitCode, enrolled.stderr).toBe(0);
    expect(
      JSON.parse(
        (await lms.run('enrollments list --course 3 --type ta -o json --fields user_id', { env: { LMS_TOKEN: '' } }))
          .stdout,
      ),
    ).toEqual([{ user_id: 7 }]);
  });

  it.each([
    ['grade (one)', 'grade --course 1 --assignment 1 --user {u} 18', 4, 'not found'],
    ['grade --csv', 'grade --course 1 --assignment 1 --csv {file}', 2, 'g.csv:2: user "S-009" not found'],
    ['enrollments import', 'enrollments import --course 3 {file}', 2, 'g.csv:2: user "S-009" not found'],
  ])('%s: a bare SIS id is a login, and no one has that login', async (what, line, code, message) => {
    const w = workspace();
    const lms = session({ ...w.env, ...(what === 'enrollments import' ? {} : TEACHER) });
    const file = w.file(
      'g.csv',
      what === 'enrollments import' ? 'user,type\nS-009,student\n' : 'user,grade\nS-009,18\n',
    );
    const r = await lms.run(line.replace('{u}', 'S-009').replace('{file}', file));
    expect(r.exitCode, r.stderr).toBe(code);
    expect(r.stderr).toContain(message);
  });
});

describe('an email address names a user', () => {
  /** A session where a second person's login is Ravi's email address: a bare address naming two people. */
  async function withTwin() {
    const w = workspace();
    const lms = session({ ...w.env, ...TEACHER });
    const ADMIN = { env: { LMS_TOKEN: '1~mock-admin' } };
    const made = await lms.run(
      'users create --account 1 --login-id ravi@example.edu --name "Ravi Twin" -o json --fields id',
      ADMIN,
    );
    const twin = (JSON.parse(made.stdout) as { id: number }).id;
    expect((await lms.run(`enrollments add --course 1 --user ${twin} --state active -o json`, ADMIN)).exitCode).toBe(0);
    return { w, lms, twin };
  }

  it("is looked up among the course's people, even in a dry run, which then sends nothing", async () => {
    const lms = session(TEACHER);
    const r = await lms.run('grade --section 2 --assignment 1 --user email:ravi@example.edu 16 --dry-run -o json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      dry_run: true,
      requests: [{ method: 'PUT', url: expect.stringMatching(/\/sections\/2\/assignments\/1\/submissions\/9$/) }],
    });
  });

  it.each([
    [
      'grade (one)',
      'grade --course 1 --assignment 1 --user email:nobody@example.edu 18',
      4,
      'no user in course 1 has the email address nobody@example.edu',
    ],
    [
      'submissions get',
      'submissions get --course 1 --assignment 1 --user email:nobody@example.edu',
      4,
      'no user in course 1 has the email address nobody@example.edu',
    ],
    [
      "an address that is no one's login either: the API's not found",
      'submissions get --course 1 --assignment 1 --user nobody@example.edu',
      4,
      'not found',
    ],
  ])('%s: no one has it, exit 4', async (_what, line, code, message) => {
    const r = await session(TEACHER).run(line);
    expect(r.exitCode, r.stderr).toBe(code);
    expect(r.stderr).toContain(message);
  });

  it.each([
    ['grade --course 1 --assignment 1 --user email:nobody 18', '"email:nobody" is no email address'],
    ['users get email:', '"email:" names no user: put the email address after the colon'],
    ['submissions get --course 1 --assignment 1 --user " "', '" " names no user'],
  ])('%s: a reference that names no one is a usage error, and nothing is sent', async (line, message) => {
    const r = await session(TEACHER).run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('two people under one bare address is a usage error naming both; email: or sis_login_id: says which', async () => {
    const { lms, twin } = await withTwin();
    const r = await lms.run('grade --course 1 --assignment 1 --user ravi@example.edu 17');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `ravi@example.edu is the login or email address of 2 users in course 1 (9, ${twin}): name one by id`,
    );
    expect(
      JSON.parse(
        (
          await lms.run(
            'submissions get --course 1 --assignment 1 --user email:ravi@example.edu -o json --fields user_id',
          )
        ).stdout,
      ),
    ).toEqual({ user_id: 9 });
    expect(
      JSON.parse(
        (
          await lms.run(
            'submissions get --course 1 --assignment 1 --user sis_login_id:ravi@example.edu -o json --fields user_id',
          )
        ).stdout,
      ),
    ).toEqual({ user_id: twin });
  });

  it(
    'grade --csv: an address a row names is looked up, and one naming no one or two is a problem of its line; ' +
      'nothing is sent',
    async () => {
      const { w, lms } = await withTwin();
      const before = (await lms.run('grade export --course 1 --assignment 1')).stdout;
      const bad = await lms.run(
        'grade --course 1 --assignment 1 --csv ' +
          `${w.file('g.csv', 'user,grade\nemail:sam@example.edu,18\nravi@example.edu,17\nemail:nobody@example.edu,3\nemail:nobody,4\n')}`,
      );
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('has 3 problems; nothing was sent');
      expect(bad.stderr).toContain(
        ':3: user "ravi@example.edu": ravi@example.edu is the login or email address of 2 users in course 1',
      );
      expect(bad.stderr).toContain(
        ':4: user "email:nobody@example.edu": no user in course 1 has the email address nobody@example.edu',
      );
      expect(bad.stderr).toContain(':5: user "email:nobody" is no email address');
      expect((await lms.run('grade export --course 1 --assignment 1')).stdout).toBe(before);
      const good = await lms.run(
        'grade --course 1 --assignment 1 --csv ' +
          `${w.file('h.csv', 'user,grade\nemail:sam@example.edu,18\nsofia@example.edu,14\nemail:ravi@example.edu,17\n')}` +
          ' -o json',
      );
      expect(good.exitCode, good.stderr).toBe(0);
      expect(
        (JSON.parse(good.stdout) as { rows: { user_id: number; status: string }[] }).rows.map((r) => [
          r.user_id,
          r.status,
        ]),
      ).toEqual([
        [7, 'updated'],
        [8, 'updated'],
        [9, 'updated'],
      ]);
    },
  );

  it(
    'enrollments import, add and list, admins and users ' + "verbs find an address among the instance's users",
    async () => {
      const w = workspace();
      const lms = session(w.env);
      const imported = await lms.run(
        'enrollments import --course 3 ' +
          `${w.file('r.csv', 'user,type\nemail:sam@example.edu,ta\nnobody@example.edu,student\nemail:none@example.edu,student\n')}`,
      );
      expect(imported.exitCode).toBe(2);
      expect(imported.stderr).toContain(':3: user "nobody@example.edu" not found');
      expect(imported.stderr).toContain(
        ':4: user "email:none@example.edu": no user in the instance has the email address none@example.edu',
      );
      expect(
        (
          await lms.run(
            `enrollments import --course 3 ${w.file('s.csv', 'user,type\nemail:sam@example.edu,ta\n')} -o json`,
          )
        ).exitCode,
      ).toBe(0);
      expect(
        JSON.parse(
          (await lms.run('enrollments list --course 3 --user email:sam@example.edu -o json --fields user_id,type'))
            .stdout,
        ),
      ).toEqual([{ user_id: 7, type: 'TaEnrollment' }]);
      expect(
        (await lms.run('enrollments add --course 3 --user email:sofia@example.edu --dry-run -o json')).stdout,
      ).toMatch(/"enrollment\[user_id\]",\s*"8"/);
      expect((await lms.run('admins add --account 1 --user email:sofia@example.edu --dry-run -o json')).stdout).toMatch(
        /"user_id",\s*"8"/,
      );
      expect(JSON.parse((await lms.run('users get email:sofia@example.edu -o json --fields id')).stdout)).toEqual({
        id: 8,
      });
      expect(JSON.parse((await lms.run('users profile sofia@example.edu -o json --fields id')).stdout)).toEqual({
        id: 8,
      });
    },
  );

  it(
    "a teacher may not search the instance's users: an email " +
      'address says so (exit 3); a bare one is still a login',
    async () => {
      const lms = session(TEACHER);
      const r = await lms.run('users get email:sam@example.edu');
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toContain('cannot look up the email address sam@example.edu in the instance');
      const bare = await lms.run('users get sam@example.edu');
      expect(bare.exitCode).toBe(4);
    },
  );
});

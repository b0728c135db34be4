// Before a bulk job writes anything, every user and section its rows name is looked up: a file naming
// one that does not exist is refused whole, with its lines (exit 2), or with --skip-invalid those rows
// are skipped; never half applied. And every message names a row in the file's own words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session, type Session } from '../helpers/run-lms.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-references-'));
  return {
    dir,
    env: { LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

/** The course's live enrollments as `user_id role`, sorted. */
async function roster(lms: Session, course: number): Promise<string[]> {
  const r = await lms.run(
    `enrollments list --course ${course} --state active --state invited --state inactive -o json --fields user_id,role`,
  );
  return (JSON.parse(r.stdout) as { user_id: number; role: string }[]).map((e) => `${e.user_id} ${e.role}`).sort();
}

/** Records the method and path of every request the mock answers. */
function recording(lms: Session): string[] {
  const calls: string[] = [];
  const real = lms.mock.handler;
  lms.mock.handler = (req: ApiRequest) => {
    calls.push(`${req.method} ${decodeURIComponent(new URL(req.url).pathname)}`);
    return real(req);
  };
  return calls;
}

describe('enrollments import resolves every reference before writing', () => {
  it.each([
    [
      'a user who does not exist',
      3,
      'user,type\n7,student\nghost,student\n8,student\n',
      ['roster.csv:3: user "ghost" not found'],
    ],
    [
      'a SIS id no user has',
      3,
      'user,type\n7,student\nsis_user_id:S-999,ta\n',
      ['roster.csv:3: user "sis_user_id:S-999" not found'],
    ],
    [
      'a section that does not exist',
      3,
      'user,type,section\n7,student,\n8,student,sis_section_id:NOPE\n',
      ['roster.csv:3: section "sis_section_id:NOPE" not found'],
    ],
    [
      "another course's section",
      3,
      'user,type,section\n7,student,sis_section_id:BIO-101-A\n',
      ['roster.csv:2: section "sis_section_id:BIO-101-A" is not a section of course 3'],
    ],
    // Cross-listed into BIO-101: enrolling through it would enroll in BIO-101, not in the lab course.
    [
      'a section cross-listed away',
      5,
      'user,type,section\n7,student,sis_section_id:BIO-101L-ONL\n',
      ['roster.csv:2: section "sis_section_id:BIO-101L-ONL" is not a section of course 5'],
    ],
    [
      'several, all listed',
      3,
      'user,type,section\nghost,student,\n7,student,sis_section_id:NOPE\nsis_login_id:nobody,ta,4\n8,student,4\n',
      [
        'roster.csv:2: user "ghost" not found',
        'roster.csv:3: section "sis_section_id:NOPE" not found',
        'roster.csv:4: user "sis_login_id:nobody" not found',
      ],
    ],
  ])('%s: exit 2, every problem listed, nothing enrolled (dry run too)', async (_what, course, text, problems) => {
    const lms = session();
    const w = workspace();
    const file = w.file('roster.csv', text);
    const before = await roster(lms, course);
    const calls = recording(lms);
    for (const flags of ['--dry-run', '']) {
      const r = await lms.run(`enrollments import --course ${course} ${flags} ${file}`, { env: w.env });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `roster.csv has ${problems.length} problem${problems.length > 1 ? 's' : ''}; nothing was written`,
      );
      for (const p of problems) expect(r.stderr).toContain(p);
    }
    expect(calls.filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(await roster(lms, course)).toEqual(before);
  });

  it('with --skip-invalid skips those rows like other invalid rows, enrolls the rest, and exits 1', async () => {
    const lms = session();
    const w = workspace();
    const file = w.file('roster.csv', 'user,type\n7,student\nghost,student\n8,student\n');
    const r = await lms.run(`enrollments import --course 3 --skip-invalid ${file} -o json`, { env: w.env });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 0, invalid: 1 });
    expect(JSON.parse(r.stderr)).toMatchObject({
      message: '1 invalid row skipped',
      attention: [{ line: 3, user: 'ghost', status: 'invalid', error: 'user "ghost" not found' }],
    });
    expect(await roster(lms, 3)).toEqual(expect.arrayContaining(['7 StudentEnrollment', '8 StudentEnrollment']));
  });

  it('asks about each distinct user and section once, and not again when writing', async () => {
    const lms = session();
    const w = workspace();
    const file = w.file(
      'roster.csv',
      'user,type,section\nsam,student,sis_section_id:HIST-110-01\nSam,ta,sis_section_id:HIST-110-01\n' +
        'sam,observer,sis_section_id:HIST-110-01\n8,student,sis_section_id:HIST-110-01\n',
    );
    const calls = recording(lms);
    const r = await lms.run(`enrollments import --course 3 ${file}`, { env: w.env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(calls.filter((c) => c === 'GET /api/v1/users/sis_login_id:sam')).toHaveLength(1);
    expect(calls.filter((c) => c === 'GET /api/v1/users/8')).toHaveLength(1);
    expect(calls.filter((c) => c === 'GET /api/v1/sections/sis_section_id:HIST-110-01')).toHaveLength(1);
  });

  it('--sync concludes nothing when rows were skipped: their enrollments were never looked at', async () => {
    const lms = session();
    const w = workspace();
    // Ravi (9) is enrolled in CHEM-201; his row is skipped, so he is not "unlisted".
    const file = w.file('keep.csv', 'user,type,section\n7,student,\n8,student,\n9,student,sis_section_id:NOPE\n');
    const before = await roster(lms, 2);
    const r = await lms.run(`enrollments import --course 2 --sync --yes --skip-invalid ${file}`, { env: w.env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('--sync concluded nothing: 1 invalid row skipped');
    expect(await roster(lms, 2)).toEqual(before);
  });
});

describe('grade --csv resolves every student before sending', () => {
  it.each([
    ['a user who does not exist', 'user,grade\nsam,18\nnobody,3\n', 'g.csv:3: user "nobody" not found'],
    [
      'a user who is no student here',
      'user,grade\nsam,18\nsis_login_id:tteacher,3\n',
      'g.csv:3: user "sis_login_id:tteacher" is not a student here',
    ],
    [
      'a reference that names no one',
      'user,grade\nsam,18\nsis_user_id:,3\n',
      'g.csv:3: user "sis_user_id:" names no user',
    ],
  ])('%s: exit 2, with its line, nothing sent', async (_what, text, message) => {
    const w = workspace();
    const lms = session({ ...w.env, LMS_TOKEN: '3~mock-tteacher' });
    const calls = recording(lms);
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${w.file('g.csv', text)}`);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(calls.filter((c) => !c.startsWith('GET'))).toEqual([]);
  });
});

describe('messages name a row in the file’s words, never by its key', () => {
  /** A server that refuses every grade of user 9. */
  const refusesUser9 = (lms: Session) => {
    const real = lms.mock.handler;
    lms.mock.handler = async (req: ApiRequest) =>
      req.method === 'PUT' && /\/submissions\/9(\?|$)/.test(req.url)
        ? {
            status: 422,
            headers: { 'content-type': 'application/json' },
            body: '{"errors":[{"message":"grade refused"}]}',
          }
        : real(req);
  };
  it.each([
    // The helpdesk admin may not set SIS ids: the row is refused.
    [
      'users import',
      { LMS_TOKEN: '2~mock-helpdesk' },
      'u.csv',
      'name,login_id,sis_user_id\nAna,ana,\nBo,Bo,SIS-B\n',
      'users import {file}',
      'u.csv:3 (login_id Bo): failed: ',
      [': bo:', '(login_id bo)'],
    ],
    [
      'enrollments import, a role no one defined',
      {},
      'r.csv',
      'user,type,role\n7,student,\nSam,,Dean\n',
      'enrollments import --course 3 {file}',
      // Refused before anything is sent, as every reference is.
      'r.csv:3: role "Dean" is not an active role of account',
      ['sam|dean|'],
      2,
    ],
    [
      'enrollments import, a state that differs',
      {},
      'r.csv',
      'user,type,section,state\n11,student,sis_section_id:CHEM-201-01,active\n',
      'enrollments import --course 2 {file}',
      'r.csv:2 (user 11, student, section sis_section_id:CHEM-201-01): differs: state "invited" → "active"',
      ['11|studentenrollment|'],
      0,
    ],
    [
      'grade --csv --per-row',
      { LMS_TOKEN: '3~mock-tteacher' },
      'g.csv',
      'user,grade\nsam,18\n9,17\n',
      'grade --course 1 --assignment 1 --per-row --csv {file}',
      'g.csv:3 (user 9): ',
      ['1|9'],
    ],
    [
      'grade --csv, a gradebook',
      { LMS_TOKEN: '3~mock-tteacher' },
      'g.csv',
      'user,Cell Structure Lab Report\nsam,18\n9,17\n',
      'grade --course 1 --per-row --csv {file}',
      'g.csv:3 (user 9, assignment 1): ',
      ['1|9'],
    ],
  ])('%s', async (what, env, name, text, line, says, never, code = 1) => {
    const w = workspace();
    const lms = session({ ...w.env, ...env });
    if (what.startsWith('grade')) refusesUser9(lms);
    const r = await lms.run(line.replace('{file}', w.file(name, text)));
    expect(r.exitCode, r.stderr).toBe(code);
    expect(r.stderr).toContain(says);
    for (const key of never) expect(r.stderr).not.toContain(key);
  });

  it('a SIS prefix in capitals is still a SIS id, and the result row carries the file’s value', async () => {
    const w = workspace();
    const lms = session(w.env);
    const r = await lms.run(
      `enrollments import --course 3 ${w.file('r.csv', 'user,type\nSIS_USER_ID:S-007,student\n')} -o json`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { rows: { user: string }[] }).rows.map((x) => x.user)).toEqual([
      'SIS_USER_ID:S-007',
    ]);
  });
});

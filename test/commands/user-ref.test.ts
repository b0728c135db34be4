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
  return { dir, env: { LMS_STATE_DIR: join(dir, 'state') }, file: (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name)) };
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
    ['jane.doe@example.edu', { kind: 'sis_login_id', value: 'jane.doe@example.edu', path: 'sis_login_id:jane.doe@example.edu' }],
    // A bare SIS id is a login: SIS ids are written sis_user_id:X, as every export writes them.
    ['S-007', { kind: 'sis_login_id', value: 'S-007', path: 'sis_login_id:S-007' }],
    ['', { problem: 'names no user' }],
    ['sis_user_id:', { problem: '"sis_user_id:" names no user: put the SIS id after the colon' }],
  ])('%j', (raw, expected) => {
    expect(parseUserRef(raw)).toEqual(expected);
  });

  it('gives paths the API reads', () => {
    expect(['7', 'sam', 'sis_user_id:S-007', 'self'].map(userPath)).toEqual(['7', 'sis_login_id:sam', 'sis_user_id:S-007', 'self']);
  });
});

describe('every command reads a user reference alike', () => {
  it.each([
    ['grade (one)', 'grade --course 1 --assignment 1 --user {u} 18 -o json --fields user_id,grade', { user_id: 7, grade: '18' }],
    ['submissions get', 'submissions get --course 1 --assignment 1 --user {u} -o json --fields user_id', { user_id: 7 }],
    ['submissions list', 'submissions list --course 1 --user {u} --assignment 1 -o json --fields user_id,assignment_id', [{ user_id: 7, assignment_id: 1 }]],
    ['submissions comment', 'submissions comment --course 1 --assignment 1 --user {u} "Good" -o json --fields comment', { comment: 'Good' }],
  ])('%s: a login, a SIS id and an id name the same student', async (_what, line, expected) => {
    for (const u of ['sam', 'Sam', 'sis_login_id:sam', 'sis_user_id:S-007', '7']) {
      const r = await session(TEACHER).run(line.replace('{u}', u));
      expect([u, r.exitCode, r.stderr]).toEqual([u, 0, '']);
      expect(JSON.parse(r.stdout)).toEqual(expected);
    }
  });

  it('grade --csv and enrollments import read a login as the single commands do', async () => {
    const w = workspace();
    const lms = session({ ...w.env, ...TEACHER });
    const graded = await lms.run(`grade --course 1 --assignment 1 --csv ${w.file('g.csv', 'user,grade\nsam,18\n')} -o json`);
    expect(graded.exitCode, graded.stderr).toBe(0);
    expect(JSON.parse(graded.stdout)).toMatchObject({ rows: [{ user: 'sam', user_id: 7, status: 'updated' }] });
    const enrolled = await lms.run(`enrollments import --course 3 ${w.file('r.csv', 'user,type\nsam,ta\n')} -o json`, { env: { LMS_TOKEN: '' } });
    expect(enrolled.exitCode, enrolled.stderr).toBe(0);
    expect(JSON.parse((await lms.run('enrollments list --course 3 --type ta -o json --fields user_id', { env: { LMS_TOKEN: '' } })).stdout)).toEqual([{ user_id: 7 }]);
  });

  it.each([
    ['grade (one)', 'grade --course 1 --assignment 1 --user {u} 18', 4, 'not found'],
    ['grade --csv', 'grade --course 1 --assignment 1 --csv {file}', 2, 'g.csv:2: user "S-009" not found'],
    ['enrollments import', 'enrollments import --course 3 {file}', 2, 'g.csv:2: user "S-009" not found'],
  ])('%s: a bare SIS id is a login, and no one has that login', async (what, line, code, message) => {
    const w = workspace();
    const lms = session({ ...w.env, ...(what === 'enrollments import' ? {} : TEACHER) });
    const file = w.file('g.csv', what === 'enrollments import' ? 'user,type\nS-009,student\n' : 'user,grade\nS-009,18\n');
    const r = await lms.run(line.replace('{u}', 'S-009').replace('{file}', file));
    expect(r.exitCode, r.stderr).toBe(code);
    expect(r.stderr).toContain(message);
  });
});

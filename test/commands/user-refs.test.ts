// A user named by a bare login (`sam`) is the same person to every command that takes a user, as
// to the imports: the login's path form (sis_login_id:sam) is what is sent.
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

describe('a bare login names a user everywhere', () => {
  it.each([
    ['users get sam', (out: unknown) => expect(out).toMatchObject({ id: 7, name: 'Sam Student' })],
    ['users profile sam', (out: unknown) => expect(out).toMatchObject({ id: 7 })],
    ['users settings get sam', (out: unknown) => expect(out).toBeTypeOf('object')],
    [
      'enrollments list --user sam',
      (out: unknown) => expect((out as { user_id: number }[]).every((e) => e.user_id === 7)).toBe(true),
    ],
    [
      'enrollments list --course 1 --user SAM',
      (out: unknown) => expect((out as { user_id: number }[]).map((e) => e.user_id)).toEqual([7]),
    ],
  ])('%s', async (line, check) => {
    const s = session();
    const r = await s.run(`${line} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    check(JSON.parse(r.stdout));
  });

  it.each([
    // The dry run shows a form body as its decoded fields.
    ['enrollments add --course 2 --user sam --type student', /"enrollment\[user_id\]",\s*"sis_login_id:sam"/],
    ['admins add --account 1 --user sam', /"user_id",\s*"sis_login_id:sam"/],
    ['admins remove sam --account 1', /\/admins\/sis_login_id:sam/],
  ])('%s sends the login as sis_login_id', async (line, sent) => {
    const r = await session().run(`${line} --dry-run -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(sent);
  });
});

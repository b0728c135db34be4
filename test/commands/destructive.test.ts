// Every destructive verb asks on a terminal and, in a script, needs --yes: without it the command
// is a usage error (exit 2) naming --yes, and nothing is changed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { session, type Session } from '../helpers/run-lms.js';

const PROFILE = 'profile add prod --url https://lms.example.edu --token-stdin --no-verify';

function roster(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lms-destructive-')), 'keep.csv');
  writeFileSync(path, 'user,type\n7,student\n');
  return path;
}

async function withProfile(): Promise<Session> {
  const lms = session();
  expect((await lms.run(PROFILE, { stdin: 'tok\n' })).exitCode).toBe(0);
  return lms;
}

const verbs: [string, () => string][] = [
  ['users delete 7 --account 1', () => ''],
  ['sections delete 2', () => ''],
  ['admins remove 1 --account 1', () => ''],
  ['topics delete 1 --course 1', () => ''],
  ['assignments delete 1 --course 1', () => ''],
  ['topics delete-entry 1 1 --course 1', () => ''],
  ['announcements delete 1 --course 1', () => ''],
  ['conv delete 1', () => ''],
  ['conv batch --ids 5,6 --event destroy', () => ''],
  ['conv remove-messages 5 --message 7', () => ''],
  ['outcomes unlink 6 2 --course 1', () => ''],
  ['outcomes groups delete 4 --account 1', () => ''],
  ['enrollments delete 1 --course 1', () => ''],
  ['enrollments import --course 2 --sync', roster],
  ['enrollments add --course 1 --user 7 --state inactive', () => ''],
  ['mock reset', () => ''],
  ['profile remove prod', () => ''],
];

describe('in a script, a destructive verb without --yes', () => {
  it.each(verbs)('%s: exit 2, naming --yes', async (line, file) => {
    const lms = await withProfile();
    const r = await lms.run(`${line} ${file()}`);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*pass --yes to confirm/);
  });

  it('profile remove keeps the profile', async () => {
    const lms = await withProfile();
    await lms.run('profile remove prod');
    await lms.run('profile remove prod --no-input', { tty: true });
    expect(JSON.parse((await lms.run('profile show prod -o json')).stdout)).toMatchObject({ name: 'prod' });
  });
});

describe('lms profile remove', () => {
  it('asks on a terminal, naming the profile', async () => {
    const lms = await withProfile();
    const confirm = vi.fn(async () => true);
    const r = await lms.run('profile remove prod', { tty: true, prompter: { secret: async () => '', confirm } });
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: 'Removed profile "prod".\n' });
    expect(confirm).toHaveBeenCalledWith('Remove profile "prod" and its token?');
    expect((await lms.run('profile show prod')).exitCode).toBe(2);
  });

  it('takes --yes (or -y) in a script', async () => {
    for (const yes of ['--yes', '-y']) {
      const lms = await withProfile();
      expect(await lms.run(`profile remove prod ${yes}`)).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: 'Removed profile "prod".\n',
      });
    }
  });

  it('names an unknown profile before asking anything', async () => {
    const confirm = vi.fn(async () => true);
    const r = await session().run('profile remove nope', { tty: true, prompter: { secret: async () => '', confirm } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no profile named "nope"');
    expect(confirm).not.toHaveBeenCalled();
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/entry.js';
import { loadMock } from '../../src/mock/runtime.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';
import { value } from '../helpers/sql.js';

const json = (s: string) => JSON.parse(s) as unknown;

interface TokenRow {
  user_id: number;
  name: string;
  role: string;
  token: string;
}

/** The seeded developer keys, listed after the users: what `lms auth login` names against the mock. */
const DEVELOPER_KEY = {
  user_id: null,
  name: 'lms command-line tool',
  role: 'developer_key',
  token: null,
  client_id: '10000000000001',
  client_secret: 'mock-client-secret',
};
/** A public client: no secret (PKCE only). */
const PUBLIC_KEY = {
  user_id: null,
  name: 'lms command-line tool (public client)',
  role: 'developer_key',
  token: null,
  client_id: '10000000000002',
  client_secret: null,
};

describe('lms mock tokens', () => {
  it('lists every seeded user with a role and a working token, then the developer keys', async () => {
    const lms = session();
    const r = await lms.run('mock tokens -o json');
    expect(r.exitCode).toBe(0);
    const all = json(r.stdout) as TokenRow[];
    expect(all.slice(-2)).toEqual([DEVELOPER_KEY, PUBLIC_KEY]);
    const rows = all.slice(0, -2);
    expect(rows).toHaveLength(13);
    for (const row of rows) expect(Object.keys(row)).toEqual(['user_id', 'name', 'role', 'token']);
    expect(rows[0]).toEqual({ user_id: 1, name: 'Ada Admin', role: 'admin', token: '1~mock-admin' });
    expect(rows.find((x) => x.user_id === 3)).toEqual({
      user_id: 3,
      name: 'Tess Teacher',
      role: 'teacher',
      token: '3~mock-tteacher',
    });
    expect(rows.map((x) => x.user_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    // Each token authenticates as its user.
    const sam = rows.find((x) => x.role === 'student')!;
    const self = await lms.run('users get self -o json', { env: { LMS_TOKEN: sam.token } });
    expect(json(self.stdout)).toMatchObject({ id: sam.user_id, name: sam.name });
  });

  it(
    'prints a table on a TTY, the developer keys with their ' + 'client ids, and the secret of the confidential one',
    async () => {
      const lms = session();
      const r = await lms.run('mock tokens', { tty: true });
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^USER_ID\s+NAME\s+ROLE\s+TOKEN\s+CLIENT_ID\s+CLIENT_SECRET$/);
      expect(lines[1]).toMatch(/^1\s+Ada Admin\s+admin\s+1~mock-admin\s*$/);
      expect(lines[14]).toMatch(/^\s+lms command-line tool\s+developer_key\s+10000000000001\s+mock-client-secret$/);
      expect(lines[15]).toMatch(/^\s+lms command-line tool \(public client\)\s+developer_key\s+10000000000002\s*$/);
      expect(lines).toHaveLength(16);
    },
  );
});

describe('lms mock reset / seed', () => {
  it('reset leaves only the admin; seed brings the school back', async () => {
    const lms = session();
    const reset = await lms.run('mock reset --yes');
    expect(reset.exitCode).toBe(0);
    expect(reset.stdout).toBe('');
    expect(reset.stderr).toBe('Reset the mock database in :memory:.\n');

    const afterReset = await lms.run('users list --account 1 --all -o json --fields id,name');
    expect(afterReset.exitCode).toBe(0);
    expect(json(afterReset.stdout)).toEqual([{ id: 1, name: 'Ada Admin' }]);
    // The developer key stays: logging in is how any instance is reached.
    expect(json((await lms.run('mock tokens -o json')).stdout)).toEqual([
      { user_id: 1, name: 'Ada Admin', role: 'admin', token: '1~mock-admin' },
      DEVELOPER_KEY,
      PUBLIC_KEY,
    ]);
    expect(json((await lms.run('courses list --account 1 --all -o json')).stdout)).toEqual([]);
    // A token of the old school no longer works.
    expect((await lms.run('users get self', { env: { LMS_TOKEN: '7~mock-sam' } })).exitCode).toBe(3);

    const seeded = await lms.run('mock seed');
    expect(seeded.exitCode).toBe(0);
    expect(seeded.stderr).toContain('Seeded the mock school in :memory:.');
    const afterSeed = await lms.run('users list --account 1 --all -o ndjson');
    expect(afterSeed.stdout.trimEnd().split('\n')).toHaveLength(13);
    expect((await lms.run('users get self', { env: { LMS_TOKEN: '7~mock-sam' } })).exitCode).toBe(0);
  });

  it('seed undoes changes', async () => {
    const lms = session();
    expect((await lms.run('users create --login-id extra --name Extra')).exitCode).toBe(0);
    expect((await lms.run('users list --all -o ndjson')).stdout.trimEnd().split('\n')).toHaveLength(14);
    await lms.run('mock seed');
    expect((await lms.run('users list --all -o ndjson')).stdout.trimEnd().split('\n')).toHaveLength(13);
  });

  it('reset refuses to run in a script without --yes, and asks on a TTY', async () => {
    const lms = session();
    const refused = await lms.run('mock reset');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Erase everything in the mock database: pass --yes to confirm');

    let asked = '';
    const declined = await lms.run('mock reset', {
      tty: true,
      prompter: {
        secret: async () => '',
        confirm: async (m) => {
          asked = m;
          return false;
        },
      },
    });
    expect(asked).toBe('Erase everything in the mock database?');
    expect(declined.exitCode).toBe(130);
    expect((await lms.run('users list --all -o ndjson')).stdout.trimEnd().split('\n')).toHaveLength(13);

    const accepted = await lms.run('mock reset', {
      tty: true,
      prompter: { secret: async () => '', confirm: async () => true },
    });
    expect(accepted.exitCode).toBe(0);
    expect(json((await lms.run('users list --all -o json --fields id')).stdout)).toEqual([{ id: 1 }]);
  });
});

describe('lms mock seed on a database that holds data', () => {
  const dbFile = async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lms-seed-')), 'mock.db');
    (await loadMock(path, {})).db.close();
    return path;
  };
  const seedWith = async (path: string, args: string[], tty = false, answer = false) => {
    const mock = await loadMock(path, {});
    const io = fakeIO({ tty });
    let asked = '';
    const exitCode = await run(['mock', 'seed', ...args], {
      io,
      env: { LMS_MOCK: '1' },
      mock,
      prompter: {
        secret: async () => '',
        confirm: async (m) => {
          asked = m;
          return answer;
        },
      },
    });
    const users = value(mock.db, `SELECT count(*) FROM users`);
    mock.db.close();
    return { exitCode, stderr: io.stderrText(), asked, users };
  };

  it('needs --yes in a script, asks on a terminal, and keeps the data when declined', async () => {
    const path = await dbFile();
    const writer = await loadMock(path, {});
    writer.db.prepare(`UPDATE users SET name = 'Changed' WHERE id = 7`).run();
    writer.db.close();

    const refused = await seedWith(path, []);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `Replace everything in the mock database ${path} with the seeded school: pass --yes to confirm`,
    );

    const declined = await seedWith(path, [], true, false);
    expect(declined.asked).toBe(`Replace everything in the mock database ${path} with the seeded school?`);
    expect(declined.exitCode).toBe(130);
    const kept = await loadMock(path, {});
    expect(value(kept.db, `SELECT name FROM users WHERE id = 7`)).toBe('Changed');
    kept.db.close();

    const confirmed = await seedWith(path, ['--yes']);
    expect(confirmed.exitCode).toBe(0);
    const reseeded = await loadMock(path, {});
    expect(value(reseeded.db, `SELECT name FROM users WHERE id = 7`)).toBe('Sam Student');
    reseeded.db.close();
  });
});

describe('lms mock seed --users', () => {
  it('adds a generated school that the next command lists', async () => {
    const lms = session();
    const r = await lms.run('mock seed --yes --users 120 --courses 3');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('with 120 generated users, 3 courses and');
    const users = await lms.run('users list --account 1 --all -o ndjson --fields id');
    expect(users.stdout.trim().split('\n')).toHaveLength(133);
    const courses = await lms.run('courses list --account 1 --search GEN- -o json --fields sis_course_id');
    expect(JSON.parse(courses.stdout)).toEqual([
      { sis_course_id: 'GEN-C1' },
      { sis_course_id: 'GEN-C2' },
      { sis_course_id: 'GEN-C3' },
    ]);
  });

  it.each([
    ['--users lots', '--users must be a whole number'],
    ['--users 2000000', '--users must be a whole number from 0 to 1000000'],
    ['--courses 3', '--courses goes with --users'],
  ])('refuses %s with exit 2, changing nothing', async (flags, message) => {
    const lms = session();
    await lms.run('users create --login-id keepme --name Keep');
    const r = await lms.run(`mock seed --yes ${flags}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect((await lms.run('users get sis_login_id:keepme')).exitCode).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;

describe('lms users list', () => {
  it('prints JSON when piped, with the seeded users in sortable-name order', async () => {
    const lms = session();
    const r = await lms.run('users list --account 1 --fields id,name,login_id');
    expect(r.exitCode).toBe(0);
    const rows = json(r.stdout) as { id: number; name: string; login_id: string }[];
    expect(rows).toHaveLength(13);
    expect(rows[0]).toEqual({ id: 1, name: 'Ada Admin', login_id: 'admin' });
    expect(r.stdout).toBe(`${JSON.stringify(rows, null, 2)}\n`);
  });

  it('prints a table on a TTY', async () => {
    const lms = session();
    const r = await lms.run('users list --account 1 --search okafor', { tty: true });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+LOGIN_ID\s+SIS_USER_ID\s+EMAIL$/);
    expect(lines[1]).toMatch(/^10\s+Mina Okafor\s+mina\s+S-010\s+mina@example\.edu$/);
    expect(lines).toHaveLength(2);
  });

  it.each([
    [
      'ndjson',
      (out: string) =>
        expect(
          out
            .trim()
            .split('\n')
            .map((l) => (JSON.parse(l) as { id: number }).id),
        ).toEqual([9, 7, 8]),
    ],
    ['csv', (out: string) => expect(out).toBe('id,login_id\n9,ravi\n7,sam\n8,sofia\n')],
  ])('prints %s', async (format, check) => {
    const lms = session();
    const r = await lms.run(`users list --search S-00 -o ${format} --fields id,login_id`);
    expect(r.exitCode).toBe(0);
    check(r.stdout);
  });

  it('follows pages with --all and stops at --limit', async () => {
    const lms = session();
    const all = await lms.run('users list --all --per-page 4 -o ndjson');
    expect(all.stdout.trim().split('\n')).toHaveLength(13);
    const limited = await lms.run('users list --limit 5 --per-page 2 -o ndjson');
    expect(limited.stdout.trim().split('\n')).toHaveLength(5);
    const firstPage = await lms.run('users list --per-page 3 -o ndjson', { tty: false });
    expect(firstPage.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('rejects a short --search before sending anything (exit 2)', async () => {
    const lms = session();
    const r = await lms.run('users list --search ab');
    expect(r).toMatchObject({ exitCode: 2, stdout: '' });
    expect(r.stderr).toContain('--search needs at least 3 characters');
  });

  it('prints [] for an empty list as JSON and a note for a table', async () => {
    const lms = session();
    expect(await lms.run('users list --search zzzzz')).toMatchObject({ exitCode: 0, stdout: '[]\n' });
    const table = await lms.run('users list --search zzzzz', { tty: true });
    expect(table).toMatchObject({ exitCode: 0, stdout: '' });
    expect(table.stderr).not.toBe('');
  });

  it('exits 3 when the caller may not list users', async () => {
    const lms = session();
    const r = await lms.run('users list', { env: { LMS_TOKEN: '7~mock-sam' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('user not authorized to perform that action');
  });
});

describe('lms users get', () => {
  it('exits 4 naming the missing user', async () => {
    const lms = session();
    const r = await lms.run('users get 987654321');
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('user 987654321 not found');
    expect(r.stdout).toBe('');
  });

  it('also writes the error as JSON on stderr with -o json', async () => {
    const lms = session();
    const r = await lms.run('users get 987654321 -o json');
    const last = r.stderr.trim().split('\n').at(-1)!;
    expect(json(last)).toMatchObject({ error: 'ApiError', status: 404, exit_code: 4 });
  });

  it('shows yourself by default, and accepts SIS ids', async () => {
    const lms = session();
    expect(json((await lms.run('users get')).stdout)).toMatchObject({ id: 1, name: 'Ada Admin' });
    expect(json((await lms.run('users get sis_user_id:S-008')).stdout)).toMatchObject({ id: 8 });
  });

  it('acts as another user with --as-user', async () => {
    const lms = session();
    expect(json((await lms.run('users get self --as-user 12')).stdout)).toMatchObject({ id: 12, name: 'Hana Sato' });
  });
});

describe('lms users create / update / delete', () => {
  it('creates a user that a later list shows', async () => {
    const lms = session();
    const created = await lms.run([
      'users',
      'create',
      '--login-id',
      'jdoe',
      '--name',
      'Jane Doe',
      '--email',
      'jdoe@example.edu',
      '--sis-user-id',
      'J-1',
      '--time-zone',
      'Europe/Paris',
    ]);
    expect(created.exitCode).toBe(0);
    expect(json(created.stdout)).toMatchObject({
      name: 'Jane Doe',
      login_id: 'jdoe',
      email: 'jdoe@example.edu',
      sis_user_id: 'J-1',
      time_zone: 'Europe/Paris',
    });
    const listed = await lms.run('users list --search jdoe --fields login_id');
    expect(json(listed.stdout)).toEqual([{ login_id: 'jdoe' }]);
  });

  it.each([
    ['a missing --login-id', 'users create --name X', 2, "required option '--login-id <login>' not specified"],
    ['a taken login', 'users create --login-id sam', 5, 'pseudonym.unique_id: ID already in use'],
    [
      'a bad time zone',
      'users create --login-id new1 --time-zone Nowhere/City',
      5,
      "user.time_zone: 'Nowhere/City' is not a known time zone",
    ],
    [
      'both --email and --channel-address',
      'users create --login-id n2 --email a@b.c --channel-address d@e.f',
      2,
      'either --email or --channel-address',
    ],
  ])('rejects %s', async (_what, line, code, message) => {
    const lms = session();
    const r = await lms.run(line);
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(message);
  });

  it('updates a user and refuses an empty update', async () => {
    const lms = session();
    expect(json((await lms.run('users update 7 --short-name Sammy --locale fr')).stdout)).toMatchObject({
      short_name: 'Sammy',
      locale: 'fr',
    });
    const empty = await lms.run('users update 7');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('nothing to update');
  });

  it('asks before deleting: --yes in scripts, a prompt on a TTY', async () => {
    const lms = session();
    const refused = await lms.run('users delete 9');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const declined = await lms.run('users delete 9', {
      tty: true,
      prompter: { secret: async () => '', confirm: async () => false },
    });
    expect(declined.exitCode).toBe(130);
    expect((await lms.run('users get 9')).exitCode).toBe(0);
    expect((await lms.run('users delete 9 --yes')).exitCode).toBe(0);
    expect((await lms.run('users get 9')).exitCode).toBe(4);
  });
});

describe('lms users update --suspend / --unsuspend, lms users logins', () => {
  const states = async (lms: ReturnType<typeof session>, user: string) =>
    (json((await lms.run(`users logins ${user} -o json`)).stdout) as { workflow_state: string }[]).map(
      (l) => l.workflow_state,
    );

  it("lists a user's logins, yourself by default, as a table on a terminal", async () => {
    const lms = session();
    const r = await lms.run('users logins sis_user_id:S-007', { tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+UNIQUE_ID\s+SIS_USER_ID\s+ACCOUNT_ID\s+WORKFLOW_STATE$/);
    expect(lines[1]).toMatch(/^\d+\s+sam\s+S-007\s+1\s+active$/);
    expect(lines).toHaveLength(2);
    const own = await lms.run('users logins -o json --as-user 7');
    expect((json(own.stdout) as { unique_id: string }[]).map((l) => l.unique_id)).toEqual(['sam']);
  });

  it('asks before --suspend: --yes in scripts, a prompt on a TTY; --unsuspend asks nothing', async () => {
    const lms = session();
    const refused = await lms.run('users update 7 --suspend');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      'error: --suspend destroys data: pass --yes to confirm when not running interactively\n',
    );
    const asked: string[] = [];
    const declined = await lms.run('users update 7 --suspend', {
      tty: true,
      prompter: {
        secret: async () => '',
        confirm: async (message: string) => {
          asked.push(message);
          return false;
        },
      },
    });
    expect(declined.exitCode).toBe(130);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('--suspend');
    expect(await states(lms, '7')).toEqual(['active']);
    const done = await lms.run('users update 7 --suspend --yes');
    expect(done.exitCode, done.stderr).toBe(0);
    expect(json(done.stdout)).toMatchObject({ id: 7 });
    expect(await states(lms, '7')).toEqual(['suspended']);
    expect((await lms.run('users update 7 --unsuspend')).exitCode).toBe(0);
    expect(await states(lms, '7')).toEqual(['active']);
    const both = await lms.run('users update 7 --suspend --unsuspend --yes');
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('either --suspend or --unsuspend');
  });
});

describe('lms users settings, follow, profile, avatars, page-views', () => {
  it('reads and updates settings', async () => {
    const lms = session();
    expect(json((await lms.run('users settings update --manual-mark-as-read true')).stdout)).toMatchObject({
      manual_mark_as_read: true,
    });
    expect(json((await lms.run('users settings get')).stdout)).toMatchObject({ manual_mark_as_read: true });
  });

  it('follows and unfollows, with the API refusals as exit codes', async () => {
    const lms = session({ LMS_TOKEN: '7~mock-sam' });
    expect(json((await lms.run('users follow 8')).stdout)).toMatchObject({ following_user_id: 7, followed_user_id: 8 });
    expect((await lms.run('users follow self')).exitCode).toBe(5);
    expect((await lms.run('users follow 10')).exitCode).toBe(3);
    expect((await lms.run('users unfollow 8')).exitCode).toBe(0);
  });

  it('shows the calendar feed only in your own profile', async () => {
    const lms = session();
    expect(json((await lms.run('users profile')).stdout)).toHaveProperty('calendar.ics');
    expect(json((await lms.run('users profile 7')).stdout)).not.toHaveProperty('calendar');
  });

  it('lists avatar options whose token update accepts', async () => {
    const lms = session();
    const options = json((await lms.run('users avatars 7')).stdout) as { type: string; token: string; url: string }[];
    const external = options.find((o) => o.type === 'external')!;
    const updated = await lms.run(`users update 7 --avatar-token ${external.token}`);
    expect(json(updated.stdout)).toMatchObject({ avatar_url: external.url });
  });

  it('lists page views newest first and validates times', async () => {
    const lms = session();
    await lms.run('users get 7');
    expect(json((await lms.run('users page-views --fields action')).stdout)).toEqual([{ action: 'get' }]);
    expect(json((await lms.run('users page-views --fields action')).stdout)).toEqual([
      { action: 'pageViews' },
      { action: 'get' },
    ]);
    expect((await lms.run('users page-views --start-time yesterday-ish')).exitCode).toBe(2);
  });
});

describe('a single user on a terminal', () => {
  it('users update shows every field, the one it changed included', async () => {
    const lms = session();
    const r = await lms.run('users update 7 --time-zone Europe/Berlin', { tty: true });
    expect(r.exitCode).toBe(0);
    const rows = new Map(
      r.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => {
          const [key, ...value] = line.split(/\s{2,}/);
          return [key, value.join('  ')] as const;
        }),
    );
    expect(r.stdout.split('\n')[0]).toMatch(/^KEY\s+VALUE$/);
    expect(rows.get('time_zone')).toBe('Europe/Berlin');
    expect(rows.get('name')).toBe('Sam Student');
    expect(rows.get('id')).toBe('7');
    const fields = Object.keys(json((await lms.run('users get 7')).stdout) as object);
    expect([...rows.keys()]).toEqual(fields);
  });

  it('users get with --fields shows only those', async () => {
    const r = await session().run('users get 7 --fields time_zone,login_id', { tty: true });
    expect(r.stdout).toMatch(/^KEY\s+VALUE\ntime_zone\s+\S+\nlogin_id\s+sam\n$/);
  });

  it('--fields naming a field users do not have is a usage error naming the one meant', async () => {
    const r = await session().run('users list --fields id,nmae -o json');
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const error = json(r.stderr) as { message: string; available_fields: string[] };
    expect(error.message).toBe('--fields: unknown field "nmae"');
    expect(error.available_fields).toContain('name');
    const text = await session().run('users list --fields id,nmae', { tty: true });
    expect(text.stderr).toBe('error: --fields: unknown field "nmae"\nhint: did you mean --fields id,name?\n');
  });
});

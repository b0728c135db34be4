// `lms doctor`: every check's way of going wrong, through a fake probe of the machine and the
// instance; then the command itself against the mock, where the probe is the real one.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks, type Check, type DoctorProbe, type InstanceReport } from '../../src/commands/doctor/checks.js';
import { checkLines, writable } from '../../src/commands/doctor/index.js';
import { ApiError, NetworkError, UsageError } from '../../src/errors.js';
import { MOCK_ADMIN_TOKEN } from '../../src/mock/runtime.js';
import { session } from '../helpers/run-lms.js';

const NOW = Date.parse('2026-11-02T12:00:00Z');

/** A machine where everything is fine: a remote instance with a token that works. */
function healthy(): DoctorProbe {
  return {
    node: '24.11.0',
    platform: 'linux',
    sqlite: async () => ({ driver: 'node:sqlite' }),
    instance: async () => ({ kind: 'remote', url: 'https://lms.example.edu', source: 'the default profile "prod"', overridden: [], tokenSource: 'profile "prod"' }),
    configFile: async () => ({ path: '/home/u/.config/lms/config.json', mode: 0o100600, dirMode: 0o40700 }),
    whoami: async () => ({ user: { id: 1, name: 'Ada Admin', login_id: 'admin' }, date: new Date(NOW).toUTCString() }),
    now: () => NOW,
    cacheDir: async () => '/home/u/.cache/lms',
    stateDir: async () => '/home/u/.cache/lms',
    writable: async () => ({ writable: true, exists: true }),
  };
}

const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.check, c]));

describe('lms doctor checks', () => {
  it('all pass on a healthy machine, each saying what it found', async () => {
    const checks = await runChecks(healthy());
    expect(checks.map((c) => [c.check, c.status])).toEqual([
      ['node', 'ok'],
      ['sqlite', 'ok'],
      ['instance', 'ok'],
      ['config', 'ok'],
      ['token', 'ok'],
      ['auth', 'ok'],
      ['clock', 'ok'],
      ['code cache', 'ok'],
      ['state', 'ok'],
    ]);
    expect(checkLines(checks)).toBe(
      [
        'ok    node        Node.js 24.11.0, a long-term support line',
        'ok    sqlite      the mock would use node:sqlite, built into this Node; it opens',
        'ok    instance    https://lms.example.edu, from the default profile "prod"',
        'ok    config      /home/u/.config/lms/config.json (mode 0600)',
        'ok    token       present, from profile "prod" (never shown)',
        'ok    auth        accepted by lms.example.edu: Ada Admin (user 1, admin)',
        "ok    clock       this machine's clock is in step with the instance's",
        'ok    code cache  /home/u/.cache/lms is writable',
        'ok    state       /home/u/.cache/lms is writable',
        '',
      ].join('\n'),
    );
  });

  const mock: InstanceReport = { kind: 'mock', where: ':memory:', source: '--mock', overridden: [], tokenSource: "the mock's seeded admin" };

  /** [what goes wrong, the probe's difference, the check it shows in, its status, what the line says, what it says to do] */
  const cases: [string, Partial<DoctorProbe>, string, Check['status'], RegExp, RegExp?][] = [
    ['Node older than the floor', { node: '20.11.1' }, 'node', 'fail', /Node\.js 20\.11\.1: lms needs 20\.18\.1 or newer/, /install Node\.js 22 or 24/],
    ['Node 20', { node: '20.19.0' }, 'node', 'warn', /support ends in April 2026/, /22 or 24/],
    ['an odd Node line', { node: '25.1.0' }, 'node', 'warn', /not a long-term support line/, /22 or 24/],
    ['SQLite that does not open, the mock in use', { sqlite: async () => ({ driver: 'better-sqlite3', error: 'no addon' }), instance: async () => mock }, 'sqlite', 'fail', /better-sqlite3.*does not open: no addon/, /native addons/],
    ['SQLite that does not open, a real instance in use', { sqlite: async () => ({ driver: 'better-sqlite3', error: 'no addon' }) }, 'sqlite', 'warn', /does not open/, /22\.13/],
    ['no instance configured', { instance: async () => { throw new UsageError('no instance configured', { hint: 'add one with `lms profile add`' }); } }, 'instance', 'fail', /^no instance configured$/, /lms profile add/],
    ['a source that lost is named', { instance: async () => ({ ...mock, overridden: ['LMS_BASE_URL'] }) }, 'instance', 'ok', /the mock \(:memory:\), from --mock; not used: LMS_BASE_URL/],
    ['a profile file others can read', { configFile: async () => ({ path: '/h/config.json', mode: 0o100644, dirMode: 0o40700 }) }, 'config', 'fail', /\/h\/config\.json holds tokens and others may read or write it \(mode 0644\)/, /^chmod 600 \/h\/config\.json$/],
    ['a profile directory others can list', { configFile: async () => ({ path: '/h/lms/config.json', mode: 0o100600, dirMode: 0o40755 }) }, 'config', 'warn', /its directory \(mode 0755\)/, /^chmod 700 \/h\/lms$/],
    ['no profile file', { configFile: async () => ({ path: '/h/config.json' }) }, 'config', 'ok', /no profile file yet/],
    ['Windows, where modes do not apply', { platform: 'win32', configFile: async () => ({ path: 'C:\\u\\config.json', mode: 0o100666 }) }, 'config', 'ok', /file modes do not apply/],
    ['no token', { instance: async () => ({ kind: 'remote', url: 'https://lms.example.edu', source: 'LMS_BASE_URL in the environment', overridden: [] }) }, 'token', 'fail', /no token for https:\/\/lms\.example\.edu/, /LMS_TOKEN/],
    ['a token the instance refuses', { whoami: async () => { throw new ApiError({ status: 401, method: 'GET', url: 'https://lms.example.edu/api/v1/users/self', messages: ['Invalid access token.'] }); } }, 'auth', 'fail', /lms\.example\.edu did not accept the token \(401\)/, /new token/],
    ['an instance that cannot be reached', { whoami: async () => { throw new NetworkError('connect ECONNREFUSED 127.0.0.1:4010', { code: 'ECONNREFUSED', neverSent: true }); } }, 'auth', 'fail', /could not reach lms\.example\.edu: connect ECONNREFUSED/, /instance is up/],
    ['a URL that is not the API', { whoami: async () => { throw new ApiError({ status: 404, method: 'GET', url: 'https://lms.example.edu/api/v1/users/self', messages: [] }); } }, 'auth', 'fail', /answered GET \/api\/v1\/users\/self with 404/, /instance's address/],
    ['an answer that is no user', { whoami: async () => ({ user: '<html>', date: new Date(NOW).toUTCString() }) }, 'auth', 'fail', /without a user/, /address/],
    ['a clock five minutes behind', { whoami: async () => ({ user: { id: 1 }, date: new Date(NOW + 300_000).toUTCString() }) }, 'clock', 'warn', /5 min behind the instance's/, /network time/],
    ['a clock two days ahead', { whoami: async () => ({ user: { id: 1 }, date: new Date(NOW - 2 * 86_400_000).toUTCString() }) }, 'clock', 'warn', /2 days ahead of the instance's/, /network time/],
    ['no Date header', { whoami: async () => ({ user: { id: 1 } }) }, 'clock', 'warn', /no Date header/],
    ['no answer to compare the clock with', { whoami: async () => { throw new NetworkError('timed out', { code: 'ETIMEDOUT' }); } }, 'clock', 'warn', /not checked: no answer/],
    ['a code cache that cannot be written', { writable: async (dir) => (dir.endsWith('cache') ? { writable: false, reason: 'EACCES' } : { writable: true, exists: true }), cacheDir: async () => '/c/cache', stateDir: async () => '/s/state' }, 'code cache', 'warn', /\/c\/cache is not writable \(EACCES\): commands compile from scratch/, /LMS_CACHE_DIR/],
    ['a state directory that cannot be written', { writable: async (dir) => (dir.endsWith('state') ? { writable: false, reason: 'EROFS' } : { writable: true, exists: false }), cacheDir: async () => '/c/cache', stateDir: async () => '/s/state' }, 'state', 'fail', /\/s\/state is not writable \(EROFS\): bulk imports/, /LMS_STATE_DIR/],
  ];

  it.each(cases)('%s', async (_name, change, name, status, detail, fix) => {
    const check = byName(await runChecks({ ...healthy(), ...change }))[name];
    expect(check.status).toBe(status);
    expect(check.detail).toMatch(detail);
    if (fix) expect(check.fix).toMatch(fix);
    else expect(check.fix).toBeUndefined();
  });

  it('asks the instance nothing it cannot ask: no instance, or no token', async () => {
    let asked = 0;
    const whoami = async () => {
      asked++;
      return { user: { id: 1 } };
    };
    const none = byName(await runChecks({ ...healthy(), whoami, instance: async () => { throw new UsageError('no instance configured'); } }));
    expect([none.token.status, none.auth.status, none.clock.status]).toEqual(['warn', 'warn', 'warn']);
    const tokenless = byName(await runChecks({ ...healthy(), whoami, instance: async () => ({ kind: 'remote', url: 'https://x.edu', source: 'LMS_BASE_URL in the environment', overridden: [] }) }));
    expect(tokenless.auth.detail).toBe('not checked: no token');
    expect(asked).toBe(0);
  });

  it('the mock needs no clock check: it runs on this machine', async () => {
    expect(byName(await runChecks({ ...healthy(), instance: async () => mock, whoami: async () => ({ user: { id: 1 } }) })).clock).toMatchObject({ status: 'ok' });
  });
});

describe('writable', () => {
  it('is a directory that exists, or one that could be made under the nearest that does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-doctor-'));
    expect(await writable(dir)).toEqual({ writable: true, exists: true });
    expect(await writable(join(dir, 'a', 'b'))).toEqual({ writable: true, exists: false });
    writeFileSync(join(dir, 'file'), '');
    expect(await writable(join(dir, 'file', 'x'))).toEqual({ writable: false, reason: `${join(dir, 'file')} is not a directory` });
  });
});

describe('lms doctor against the mock', () => {
  it('passes, as a line per check, and as data with -o json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-doctor-run-'));
    const lms = session({ LMS_STATE_DIR: join(dir, 'state'), LMS_CACHE_DIR: join(dir, 'cache') });
    const table = await lms.run('doctor', { tty: true });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ok    instance    the mock \(:memory:\), from LMS_MOCK in the environment$/m);
    expect(table.stdout).toMatch(/^ok    auth        accepted by the mock: Ada Admin \(user 1, admin\)$/m);
    const json = await lms.run('--mock doctor -o json');
    expect(json.exitCode, json.stderr).toBe(0);
    const checks = JSON.parse(json.stdout) as Check[];
    expect(checks.map((c) => c.check)).toEqual(['node', 'sqlite', 'instance', 'config', 'token', 'auth', 'clock', 'code cache', 'state']);
    expect(checks.every((c) => c.status === 'ok' || c.status === 'warn')).toBe(true);
    expect(checks.find((c) => c.check === 'instance')?.detail).toContain('from --mock');
    for (const r of [table, json]) expect(r.stdout + r.stderr).not.toContain(MOCK_ADMIN_TOKEN);
  });

  it('fails, exit 1, when the profile file can be read by others, and says how to fix it', async () => {
    const lms = session();
    expect((await lms.run('profile add prod --url https://lms.example.edu --token-stdin --no-verify', { stdin: 'secret-token\n' })).exitCode).toBe(0);
    const path = join(lms.configDir, 'config.json');
    chmodSync(path, 0o644);
    const r = await lms.run('doctor -o json');
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).find((c: Check) => c.check === 'config')).toEqual({ check: 'config', status: 'fail', detail: `${path} holds tokens and others may read or write it (mode 0644)`, fix: `chmod 600 ${path}` });
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: config', exit_code: 1 });
    expect(r.stdout + r.stderr).not.toContain('secret-token');
  });

  it('names a missing profile as the instance failure, with what to do', async () => {
    const r = await session().run('--no-mock -p nope doctor', { tty: true });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^fail  instance    no profile named "nope"; fix: lms profile list shows the profiles$/m);
    expect(r.stderr).toBe('error: 1 check failed: instance\n');
  });
});

// The state directory with the built binary and a fresh HOME: the audit log, the journals and
// apply's keys outlive a cache cleaner (~/.cache deleted whole), XDG_STATE_HOME and LMS_STATE_DIR
// are honoured, and the state an older lms kept in ~/.cache/lms is moved once, by one of several
// processes starting at once, with no entry of the audit log lost or doubled.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

beforeAll(ensureBuilt, 120_000);

/** A workspace whose HOME is its own, with no LMS_STATE_DIR and no XDG directory named. */
function home(prefix: string) {
  const { dir, env } = e2eWorkspace(prefix);
  const homeEnv: Record<string, string> = {
    ...env,
    HOME: dir,
    LMS_STATE_DIR: '',
    LMS_CACHE_DIR: '',
    XDG_STATE_HOME: '',
    XDG_CACHE_HOME: '',
    XDG_CONFIG_HOME: '',
    XDG_DATA_HOME: '',
  };
  return { dir, env: homeEnv, cache: join(dir, '.cache', 'lms'), state: join(dir, '.local', 'state', 'lms') };
}

async function lms(args: string[], env: Record<string, string>) {
  const r = await spawnLms(args, env);
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
}

let made = 0;
/** A write the audit log records. */
const createUser = (env: Record<string, string>) => {
  made++;
  return lms(
    [
      '--mock',
      'users',
      'create',
      '--account',
      '1',
      '--name',
      `State Person ${made}`,
      '--login-id',
      `state.person.${made}.${process.pid}`,
      '-o',
      'json',
    ],
    env,
  );
};

/** A bulk import, which keeps a journal, and an apply, which keeps its keys. */
async function importAndApply(dir: string, env: Record<string, string>) {
  const users = join(dir, 'users.csv');
  writeFileSync(users, 'name,login_id,sis_user_id\nJournal One,journal.one,J-1\nJournal Two,journal.two,J-2\n');
  await lms(['--mock', 'users', 'import', '--account', '1', users], env);
  const course = join(dir, 'course.yaml');
  writeFileSync(
    course,
    'courses:\n  - sis_course_id: STATE-1\n    name: State\n    account: sis_account_id:MSU\n    assignments:\n' +
      '      - { key: lab1, name: Lab 1, points_possible: 10 }\n',
  );
  await lms(['--mock', 'apply', '-f', course, '--yes'], env);
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.ndjson')) : []);
const logLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('the state directory', () => {
  it("keeps the audit log, the journals and apply's keys where deleting ~/.cache takes none of them", async () => {
    const { dir, env, state } = home('state-home');
    await createUser(env);
    await importAndApply(dir, env);
    rmSync(join(dir, '.cache'), { recursive: true, force: true });
    expect(logLines(join(state, 'audit.log')).length).toBeGreaterThanOrEqual(4);
    expect(files(join(state, 'journals')).length).toBeGreaterThan(0);
    expect(files(join(state, 'apply')).length).toBeGreaterThan(0);
    const logged = await lms(['log', '-o', 'json'], env);
    expect((JSON.parse(logged.stdout) as { verb: string }[]).map((e) => e.verb)).toEqual(
      expect.arrayContaining(['lms users create', 'lms users import', 'lms apply']),
    );
  }, 120_000);

  it('is $XDG_STATE_HOME/lms when that is set, and LMS_STATE_DIR when that is', async () => {
    const { dir, env, state } = home('state-xdg');
    const xdg = { ...env, XDG_STATE_HOME: join(dir, 'xdg-state') };
    await createUser(xdg);
    expect(logLines(join(dir, 'xdg-state', 'lms', 'audit.log'))).toHaveLength(1);
    const named = { ...xdg, LMS_STATE_DIR: join(dir, 'named') };
    await createUser(named);
    expect(logLines(join(dir, 'named', 'audit.log'))).toHaveLength(1);
    expect(logLines(join(dir, 'xdg-state', 'lms', 'audit.log'))).toHaveLength(1);
    expect(existsSync(state)).toBe(false);
  }, 60_000);

  it('moves the state an older lms kept in ~/.cache/lms once, and never while LMS_STATE_DIR is set', async () => {
    const { dir, env, cache, state } = home('state-move');
    // Made as an older lms made it: its state directory was the cache directory.
    const older = { ...env, LMS_STATE_DIR: cache };
    await createUser(older);
    await importAndApply(dir, older);
    const journals = files(join(cache, 'journals'));
    const keys = files(join(cache, 'apply'));
    const oldLog = readFileSync(join(cache, 'audit.log'), 'utf8');

    // LMS_STATE_DIR set: the old place is not touched.
    await createUser({ ...env, LMS_STATE_DIR: join(dir, 'elsewhere') });
    expect(readFileSync(join(cache, 'audit.log'), 'utf8')).toBe(oldLog);

    const first = await createUser(env);
    expect(first.stderr).toBe('');
    expect(readFileSync(join(state, 'audit.log'), 'utf8')).toBe(
      `${oldLog}${logLines(join(state, 'audit.log')).at(-1)}\n`,
    );
    expect(files(join(state, 'journals')).sort()).toEqual(journals.sort());
    expect(files(join(state, 'apply')).sort()).toEqual(keys.sort());
    expect(readdirSync(cache).filter((name) => !['compile', 'completions'].includes(name))).toEqual([]);

    // Once: what an older lms writes there afterwards stays there, and the newer log is not touched.
    await createUser(older);
    const newLog = readFileSync(join(state, 'audit.log'), 'utf8');
    const second = await createUser(env);
    expect(second.stderr).toBe('');
    expect(logLines(join(cache, 'audit.log'))).toHaveLength(1);
    expect(readFileSync(join(state, 'audit.log'), 'utf8').startsWith(newLog)).toBe(true);
    expect(logLines(join(state, 'audit.log'))).toHaveLength(newLog.split('\n').filter(Boolean).length + 1);
  }, 180_000);

  it('is moved by one of several lms starting at once, losing and doubling no entry of the log', async () => {
    const { env, cache, state } = home('state-race');
    // Enough files that processes moving them without the lock would meet inside the move.
    const JOURNALS = 300;
    const AT_ONCE = 8;
    const old = Array.from({ length: 500 }, (_, i) =>
      JSON.stringify({
        time: new Date().toISOString(),
        instance: 'mock:older',
        user: {},
        surface: 'cli',
        verb: `old ${i}`,
      }),
    );
    mkdirSync(join(cache, 'journals'), { recursive: true, mode: 0o700 });
    writeFileSync(join(cache, 'audit.log'), `${old.join('\n')}\n`, { mode: 0o600 });
    for (let i = 0; i < JOURNALS; i++)
      writeFileSync(join(cache, 'journals', `job-${i}.ndjson`), `{"row":${i}}\n`, { mode: 0o600 });
    const runs = await Promise.all(Array.from({ length: AT_ONCE }, () => createUser(env)));
    for (const r of runs) expect(r.stderr).toBe('');
    const lines = logLines(join(state, 'audit.log'));
    expect(lines.slice(0, old.length)).toEqual(old);
    expect(lines.slice(old.length).map((l) => (JSON.parse(l) as { verb: string }).verb)).toEqual(
      Array(AT_ONCE).fill('lms users create'),
    );
    expect(files(join(state, 'journals'))).toHaveLength(JOURNALS);
    expect(existsSync(join(cache, 'audit.log'))).toBe(false);
    expect(existsSync(join(cache, 'journals'))).toBe(false);
  }, 60_000);
});

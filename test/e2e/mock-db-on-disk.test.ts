// The mock's school is whole in mock.db after any command: SQLite folds its write-ahead log into the
// file as the last connection closes, so a copy of mock.db alone (what a CI job keeps) is the school.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bin, e2eWorkspace, ensureBuilt, serveMock, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('mock-db-on-disk');

beforeAll(ensureBuilt);

/** `mock.db` alone, copied where no log lies beside it. */
const copyAlone = (db: string) => {
  const copy = join(mkdtempSync(join(tmpdir(), 'lms-db-copy-')), 'copy.db');
  copyFileSync(db, copy);
  return copy;
};
const usersOf = async (db: string) => {
  const listed = await spawnLms(
    ['--mock', 'users', 'list', '--account', '1', '--all', '-o', 'csv', '--fields', 'login_id'],
    { ...env, LMS_MOCK_DB: db },
  );
  expect(listed.exitCode).toBe(0);
  return listed.stdout.split('\n').slice(1);
};

describe('mock.db holds the school once a command ends', () => {
  it('after lms mock seed: a copy of mock.db alone lists every seeded user', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'lms-db-')), 'mock.db');
    const seeded = await spawnLms(['mock', 'seed', '--yes', '--users', '40'], { ...env, LMS_MOCK_DB: db });
    expect(seeded.exitCode).toBe(0);
    expect(existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0).toBe(0);
    const users = await usersOf(copyAlone(db));
    expect(users.length).toBeGreaterThan(40);
    expect(users).toEqual(await usersOf(db));
  });

  it('after a one-request write: the user it created is in the copy', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'lms-db-')), 'mock.db');
    const created = await spawnLms(
      ['--mock', 'users', 'create', '--account', '1', '--name', 'Kept Write', '--login-id', 'kept.write'],
      { ...env, LMS_MOCK_DB: db },
    );
    expect(created.exitCode).toBe(0);
    expect(await usersOf(copyAlone(db))).toContain('kept.write');
  });

  // Each of these reads writes a page view, and ends by process.exit rather than by running out of work.
  it.each([
    [
      'a completion, which ends once its answer is written',
      `LMS_MOCK=1 "$NODE" "$BIN" __complete bash -- courses get ''`,
    ],
    [
      'a listing whose reader went away (EPIPE)',
      `"$NODE" "$BIN" --mock users list --account 1 --all -o ndjson | head -c 10`,
    ],
  ])('after %s: no write is left in the log', async (_what, line) => {
    const db = join(mkdtempSync(join(tmpdir(), 'lms-db-')), 'mock.db');
    expect((await spawnLms(['mock', 'seed', '--yes', '--users', '300'], { ...env, LMS_MOCK_DB: db })).exitCode).toBe(0);
    const shell = spawnSync('sh', ['-c', line], {
      env: { ...process.env, ...env, LMS_MOCK_DB: db, NODE: process.execPath, BIN: bin },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(shell.stdout.length).toBeGreaterThan(0);
    expect(existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0).toBe(0);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'after lms mock serve is stopped with %s: what it was sent is in the copy',
    async (signal) => {
      const db = join(mkdtempSync(join(tmpdir(), 'lms-db-')), 'mock.db');
      expect((await spawnLms(['mock', 'seed', '--yes'], { ...env, LMS_MOCK_DB: db })).exitCode).toBe(0);
      const served = await serveMock({ ...env, LMS_MOCK_DB: db });
      const body = new URLSearchParams({
        'user[name]': 'Over Http',
        'pseudonym[unique_id]': `over.http.${signal.toLowerCase()}`,
      });
      const answer = await fetch(`${served.url}/api/v1/accounts/1/users`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${ADMIN}`, 'user-agent': 'test' },
      });
      expect(answer.status).toBe(200);
      served.child.kill(signal);
      await served.child.catch(() => undefined);
      expect(await usersOf(copyAlone(db))).toContain(`over.http.${signal.toLowerCase()}`);
    },
  );
});

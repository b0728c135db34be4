// One mock database file shared by many processes, on whichever Node runs the suite: eight writers
// at once lose nothing, a writer killed with -9 mid-write corrupts nothing, and no process aborts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/mock/db/driver.js';
import { e2eWorkspace, ensureBuilt, root, spawnLms } from '../helpers/e2e.js';
import { value, values } from '../helpers/sql.js';

const worker = join(root, 'test/fixtures/processes/mutate.cjs');
const cli = join(root, 'bin/lms');

/** Logins the workers created (they name them `<worker>-<n>`), and the file's own verdict on itself. */
function inspect(file: string): { logins: Set<string>; integrity: unknown[] } {
  const db = openSqlite(file, { readonly: true });
  try {
    return {
      logins: new Set(values(db, `SELECT unique_id FROM pseudonyms WHERE unique_id LIKE 'w%-%'`) as string[]),
      integrity: values(db, 'PRAGMA integrity_check'),
    };
  } finally {
    db.close();
  }
}

beforeAll(ensureBuilt);

describe(`one database file, many processes (Node ${process.version})`, () => {
  it('8 processes × 200 writing commands at once: all 1,600 writes kept, the file intact', async () => {
    const { env } = e2eWorkspace('shared-db');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, k) =>
        execa(process.execPath, [worker, cli, `w${k + 1}`, '200'], { env, reject: false }),
      ),
    );
    for (const r of runs)
      expect({ exitCode: r.exitCode, signal: r.signal, stderr: r.stderr }).toEqual({
        exitCode: 0,
        signal: undefined,
        stderr: '',
      });
    const acknowledged = runs.flatMap((r) => r.stdout.split('\n'));
    expect(acknowledged).toHaveLength(1600);
    const { logins, integrity } = inspect(env.LMS_MOCK_DB);
    expect(integrity).toEqual(['ok']);
    expect(logins.size).toBe(1600);
    for (const login of acknowledged) expect(logins.has(login), login).toBe(true);
  }, 120_000);

  it('a writer killed with -9 mid-write: every acknowledged write is there, the file is intact, and the next writer ' +
    'goes on', async () => {
    const { env } = e2eWorkspace('shared-db-kill');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const child = spawn(process.execPath, [worker, cli, 'w1', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        if (printed.split('\n').length > 150) resolve();
      });
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    // Whole lines only: the last may have been cut by the kill.
    const acknowledged = printed.split('\n').slice(0, -1);
    const { logins, integrity } = inspect(env.LMS_MOCK_DB);
    expect(integrity).toEqual(['ok']);
    for (const login of acknowledged) expect(logins.has(login), login).toBe(true);
    // The write it was in the middle of is there whole or not at all.
    expect(logins.size - acknowledged.length).toBeLessThanOrEqual(1);

    const next = await execa(process.execPath, [worker, cli, 'w2', '20'], { env, reject: false });
    expect({ exitCode: next.exitCode, stderr: next.stderr }).toEqual({ exitCode: 0, stderr: '' });
    const db = openSqlite(env.LMS_MOCK_DB, { readonly: true });
    expect(value(db, `SELECT count(*) FROM pseudonyms WHERE unique_id LIKE 'w2-%'`)).toBe(20);
    db.close();
  }, 120_000);
});

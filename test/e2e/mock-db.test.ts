// A bad --mock-db is a usage error that names the path, from the real binary (it used to spin
// forever on /proc: the test's timeout catches that).
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

beforeAll(ensureBuilt);

describe('--mock-db', () => {
  it.each([
    ['/proc/nope/x.db', 'cannot create the directory /proc/nope for the mock database /proc/nope/x.db'],
    ['/etc/hostname', '/etc/hostname is not an SQLite database'],
    ['/tmp', 'the mock database /tmp is a directory'],
  ])('%s exits 2 with a message naming it', async (path, message) => {
    const { env } = e2eWorkspace('mockdb');
    const r = await spawnLms(['--mock', '--mock-db', path, 'users', 'list'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});

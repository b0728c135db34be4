// The audit log with the built binary: a write through --mock is in `lms log`, and `lms log --follow`
// prints a write made while it runs.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

beforeAll(ensureBuilt, 120_000);

describe('the audit log', () => {
  it('holds a write made with --mock, which lms log shows and --follow prints as it happens', async () => {
    const { env, dir } = e2eWorkspace('audit');
    const made = await spawnLms(
      [
        '--mock',
        'users',
        'create',
        '--account',
        '1',
        '--name',
        'Eve Audit',
        '--login-id',
        'eve.audit',
        '--password',
        'pw-not-for-the-log',
        '-o',
        'json',
      ],
      env,
    );
    expect(made.exitCode, made.stderr).toBe(0);
    const logged = await spawnLms(['log', '-o', 'json'], env);
    expect(logged.exitCode, logged.stderr).toBe(0);
    expect(JSON.parse(logged.stdout)).toEqual([
      expect.objectContaining({
        instance: `mock:${join(dir, 'mock.db')}`,
        surface: 'cli',
        verb: 'lms users create',
        method: 'POST',
        path: '/api/v1/accounts/1/users',
        status: 200,
      }),
    ]);
    const file = join(dir, 'state', 'audit.log');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The mock's database holds tokens: private too, whatever the umask (this suite's is 022).
    expect(statSync(join(dir, 'mock.db')).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toMatch(/pw-not-for-the-log|Eve Audit|mock-admin/);

    // Piped, it streams NDJSON; --since brings the earlier write first, which shows it is running.
    const follower = execa(process.execPath, [bin, 'log', '--follow', '--since', '1h'], {
      env,
      reject: false,
      extendEnv: true,
    });
    let out = '';
    follower.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { verb: string; path: string });
    const until = async (n: number) => {
      const deadline = Date.now() + 15_000;
      while (lines().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      await until(1);
      expect(lines()).toHaveLength(1);
      const removed = await spawnLms(['--mock', 'users', 'delete', String(JSON.parse(made.stdout).id), '--yes'], env);
      expect(removed.exitCode, removed.stderr).toBe(0);
      await until(2);
      expect(lines().map((l) => l.verb)).toEqual(['lms users create', 'lms users delete']);
      expect(follower.exitCode).toBeNull();
    } finally {
      follower.kill('SIGINT');
      await follower;
    }
    // Stopped with Ctrl-C: 130, as everywhere, and what it printed is all it printed.
    expect(follower.exitCode).toBe(130);
    expect(lines()).toHaveLength(2);
  }, 60_000);

  it('keeps every write of eight lms processes at once while the log drops its stale part', async () => {
    const { env } = e2eWorkspace('audit-race');
    const made = await spawnLms(['--mock', 'users', 'get', '7', '-o', 'json'], env);
    expect(made.exitCode, made.stderr).toBe(0);
    mkdirSync(env.LMS_STATE_DIR, { recursive: true, mode: 0o700 });
    const file = join(env.LMS_STATE_DIR, 'audit.log');
    const old = Date.now() - 200 * 86_400_000;
    const stale = Array.from(
      { length: 40_000 },
      (_, i) =>
        `${JSON.stringify({ time: new Date(old + i).toISOString(), instance: 'x', user: {}, surface: 'cli', path: `/stale/${i}` })}` +
        `\n`,
    ).join('');
    const logins: string[] = [];
    for (let round = 0; round < 3; round++) {
      // Each round starts with the oldest entry past the retention, so every process's first write prunes.
      let kept = '';
      try {
        kept = readFileSync(file, 'utf8');
      } catch {
        // No write logged yet.
      }
      writeFileSync(file, stale + kept, { mode: 0o600 });
      const names = Array.from({ length: 8 }, (_, i) => `race-${round}-${i}`);
      logins.push(...names);
      const runs = await Promise.all(
        names.map((login) =>
          spawnLms(
            ['--mock', 'users', 'create', '--account', '1', '--name', login, '--login-id', login, '-o', 'json'],
            env,
          ),
        ),
      );
      for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    }
    const logged = await spawnLms(['log', '-o', 'json'], env);
    expect(logged.exitCode, logged.stderr).toBe(0);
    const entries = JSON.parse(logged.stdout) as { verb?: string; path: string }[];
    expect(entries.filter((e) => e.path.startsWith('/stale/'))).toEqual([]);
    // One line for each of the 24 writes.
    expect(entries.filter((e) => e.verb === 'lms users create')).toHaveLength(logins.length);
  }, 120_000);
});

// The launcher's code cache: written once per build, used after, and never a reason for a command
// to fail or to run other code than the build's.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, root, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('code-cache');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

beforeAll(ensureBuilt);

const buildId = () => (JSON.parse(readFileSync(join(root, 'dist', 'build.json'), 'utf8')) as { id: string }).id;
const cacheName = () => `${buildId()}-${process.version}-${process.arch}.v8`;

/** `lms --no-color --version`: two arguments, so the CLI answers rather than the launcher's fast path. */
const throughCli = (extra: Record<string, string>) => spawnLms(['--no-color', '--version'], { ...env, ...extra });

describe('the code cache', () => {
  it('is written by the first run, named for the build, Node and architecture, and then used as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const first = await throughCli({ LMS_CACHE_DIR: dir });
    expect(first).toMatchObject({ exitCode: 0, stdout: version });
    expect(readdirSync(dir)).toEqual([cacheName()]);
    const written = statSync(join(dir, cacheName()));
    expect(written.size).toBeGreaterThan(10_000);
    expect(written.mode & 0o777).toBe(0o600);

    const second = await throughCli({ LMS_CACHE_DIR: dir });
    expect(second).toMatchObject({ exitCode: 0, stdout: version });
    // Accepted by V8, so not written again.
    expect(statSync(join(dir, cacheName())).mtimeMs).toBe(written.mtimeMs);
  });

  it("keeps one for each command's first word, in mock mode or not, so a listing never runs on what `profile list` compiled; one of each part of the CLI a command loads beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const mockEnv = { ...env, LMS_CACHE_DIR: dir, LMS_MOCK_DB: join(dir, 'mock.db') };
    const named = (variant: string, part?: string) => `${buildId()}-${variant}${part ? `@${part}` : ''}-${process.version}-${process.arch}.v8`;
    const caches = () => readdirSync(dir).filter((f) => f.endsWith('.v8')).sort();
    expect((await spawnLms(['profile', 'list'], mockEnv)).exitCode).toBe(0);
    // The profile verbs' file, and neither the mock nor any other noun's.
    expect(caches()).toEqual([named('profile'), named('profile', 'verbs-profile')].sort());
    const listing = ['--mock', 'users', 'list', '--account', '1', '-o', 'json'];
    expect((await spawnLms(listing, mockEnv)).exitCode).toBe(0);
    expect((await spawnLms(['users', 'get', 'self'], { ...mockEnv, LMS_MOCK: '1' })).exitCode).toBe(0);
    // Not in mock mode: an instance that does not answer (exit 7, which unlike a usage error still writes the cache).
    expect((await spawnLms(['users', 'get', 'self'], { ...mockEnv, LMS_BASE_URL: 'http://127.0.0.1:9', LMS_TOKEN: 'not-a-token' })).exitCode).toBe(7);
    expect(caches()).toEqual(
      [named('profile'), named('profile', 'verbs-profile'), named('users'), named('users', 'verbs-users'), named('users-mock'), named('users-mock', 'verbs-users'), named('users-mock', 'mock')].sort(),
    );
    const written = [named('users-mock'), named('users-mock', 'mock')].map((name) => statSync(join(dir, name)).mtimeMs);
    expect((await spawnLms(listing, mockEnv)).exitCode).toBe(0);
    expect([named('users-mock'), named('users-mock', 'mock')].map((name) => statSync(join(dir, name)).mtimeMs)).toEqual(written);
  });

  it('is written for every part a command loads without a word more on stderr: completions load every noun', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const run = await spawnLms(['completion', 'zsh'], { ...env, LMS_CACHE_DIR: dir });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(readdirSync(dir).filter((f) => f.includes('@verbs-')).length).toBeGreaterThan(10);
  });

  it('is not written by a run that ends on a usage error, which compiled little of what the same words need when right; the next good run writes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const mockEnv = { ...env, LMS_CACHE_DIR: dir, LMS_MOCK_DB: join(dir, 'mock.db') };
    const mistyped = await spawnLms(['--mock', 'users', 'list', '--acount', '1'], mockEnv);
    expect(mistyped.exitCode).toBe(2);
    const usres = await spawnLms(['usres', '-o', 'json'], mockEnv);
    expect(usres.exitCode).toBe(2);
    expect(usres.stderr.split('\n')).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8'))).toEqual([]);
    expect((await spawnLms(['--mock', 'users', 'list', '--account', '1'], mockEnv)).exitCode).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('-users-mock')).length).toBeGreaterThan(0);
  });

  it('a damaged cache is rejected and written afresh; the command is unaffected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const garbage = Buffer.alloc(50_000, 7);
    writeFileSync(join(dir, cacheName()), garbage);
    const run = await throughCli({ LMS_CACHE_DIR: dir });
    expect(run).toMatchObject({ exitCode: 0, stdout: version });
    expect(readFileSync(join(dir, cacheName())).equals(garbage)).toBe(false);
  });

  it("drops this Node's caches of other builds once they are a week old, and keeps other Nodes'", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const weekOld = `0123456789abcdef-${process.version}-${process.arch}.v8`;
    const recent = `fedcba9876543210-${process.version}-${process.arch}.v8`;
    const otherNode = `${buildId()}-v99.0.0-${process.arch}.v8`;
    for (const name of [weekOld, recent, otherNode]) writeFileSync(join(dir, name), 'x');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    for (const name of [weekOld, otherNode]) utimesSync(join(dir, name), eightDaysAgo, eightDaysAgo);
    expect((await throughCli({ LMS_CACHE_DIR: dir })).exitCode).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([cacheName(), recent, otherNode].sort());
  });

  it.each([
    ['under a file', () => {
      const file = join(mkdtempSync(join(tmpdir(), 'lms-cache-')), 'a-file');
      writeFileSync(file, '');
      return join(file, 'cache');
    }],
    ['under /proc, where a recursive mkdir never returns', () => '/proc/lms-nope/cache'],
  ])('a cache directory that cannot be made (%s) is no error, and costs no wait', async (_what, where) => {
    const run = await throughCli({ LMS_CACHE_DIR: where() });
    expect(run).toMatchObject({ exitCode: 0, stdout: version, stderr: '' });
  });

  it('is not written by a run that lists past a first page (it changes a V8 flag, which would make the cache refused); the next run writes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const mockEnv = { LMS_CACHE_DIR: dir, LMS_MOCK_DB: join(dir, 'mock.db') };
    expect((await spawnLms(['mock', 'seed', '--yes', '--users', '150'], { ...env, ...mockEnv, LMS_CACHE_DIR: join(dir, 'other') })).exitCode).toBe(0);
    const long = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--all', '-o', 'ndjson'], { ...env, ...mockEnv });
    expect(long.exitCode).toBe(0);
    expect(long.stdout.split('\n').length).toBeGreaterThan(150);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8'))).toEqual([]);
    expect((await throughCli(mockEnv)).exitCode).toBe(0);
    const written = statSync(join(dir, cacheName())).mtimeMs;
    expect((await throughCli(mockEnv)).exitCode).toBe(0);
    expect(statSync(join(dir, cacheName())).mtimeMs).toBe(written);
  });

  it("is not written by a session (lms mcp open for more than 10 s), whose compiled code no command needs; the SDK's and yaml's are", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-cache-'));
    const mockEnv = { LMS_CACHE_DIR: dir, LMS_MOCK_DB: join(dir, 'mock.db') };
    const session = spawn(process.execPath, [bin, '--mock', 'mcp'], { env: { ...env, ...mockEnv }, stdio: ['pipe', 'ignore', 'ignore'] });
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    session.stdin.end();
    expect(await new Promise((resolve) => session.on('exit', resolve))).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8')).sort()).toEqual([`${buildId()}-mcp-sdk-${process.version}-${process.arch}.v8`, `${buildId()}-yaml-${process.version}-${process.arch}.v8`]);
    expect((await throughCli(mockEnv)).exitCode).toBe(0);
    expect(readdirSync(dir)).toContain(cacheName());
  }, 30_000);

  it.skipIf(process.platform === 'win32' || process.platform === 'darwin')("lives in XDG_CACHE_HOME/lms, or ~/.cache/lms (env-paths' cache directory)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'lms-home-'));
    expect((await throughCli({ LMS_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: home })).exitCode).toBe(0);
    expect(readdirSync(join(home, '.cache', 'lms'))).toEqual([cacheName()]);
    expect(statSync(join(home, '.cache', 'lms')).mode & 0o777).toBe(0o700);
    const xdg = join(home, 'xdg');
    mkdirSync(xdg);
    expect((await throughCli({ LMS_CACHE_DIR: '', XDG_CACHE_HOME: xdg, HOME: home })).exitCode).toBe(0);
    expect(readdirSync(join(xdg, 'lms'))).toEqual([cacheName()]);
  });
});

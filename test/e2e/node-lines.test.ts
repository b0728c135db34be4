// Every supported Node line runs lms, and they share a mock: a database one line wrote, another
// reads and writes (both ways). Node 22 says nothing about its experimental SQLite; a Node older
// than the floor gets one sentence and exit 2.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt } from '../helpers/e2e.js';
import { currentMajor, nodeLine } from '../helpers/node-lines.js';

const lmsOn = (node: string, args: string[], env: Record<string, string>) =>
  execa(node, [bin, ...args], { env, reject: false });

describe.each([20, 22, 24].filter((major) => major !== currentMajor))(`Node ${currentMajor} and Node %i`, (other) => {
  it('share a mock database file, each reading and writing what the other wrote', async (ctx) => {
    await ensureBuilt();
    const otherNode = await nodeLine(other);
    if (!otherNode) return ctx.skip(`npm could not fetch node@${other} here`);
    const { env } = e2eWorkspace(`lines-${other}`);
    const create = (login: string) => [
      '--mock',
      'users',
      'create',
      '--account',
      '1',
      '--login-id',
      login,
      '--name',
      login,
      '-o',
      'json',
    ];
    const logins = [
      '--mock',
      'users',
      'list',
      '--account',
      '1',
      '--search',
      'from-node',
      '-o',
      'json',
      '--fields',
      'login_id',
    ];

    expect((await lmsOn(process.execPath, create('from-node-here'), env)).exitCode).toBe(0);
    const there = await lmsOn(otherNode, [...create('from-node-there')], env);
    expect({ code: there.exitCode, stderr: there.stderr }).toEqual({ code: 0, stderr: '' });
    for (const node of [otherNode, process.execPath]) {
      const list = await lmsOn(node, logins, env);
      expect(list.stderr).toBe('');
      expect((JSON.parse(list.stdout) as { login_id: string }[]).map((u) => u.login_id).sort()).toEqual([
        'from-node-here',
        'from-node-there',
      ]);
    }
  }, 240_000);
});

describe('Node 22', () => {
  it('runs the mock on its own SQLite without a word about it being experimental', async (ctx) => {
    await ensureBuilt();
    const node22 = await nodeLine(22);
    if (!node22) return ctx.skip('npm could not fetch node@22 here');
    const { env } = e2eWorkspace('lines-22-quiet');
    const seeded = await lmsOn(node22, ['mock', 'seed', '--yes'], env);
    expect(seeded.exitCode).toBe(0);
    expect(seeded.stderr).not.toMatch(/experimental|warning/i);
    const list = await lmsOn(node22, ['--mock', 'users', 'list', '-o', 'csv', '--fields', 'id'], env);
    expect({ code: list.exitCode, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
  }, 240_000);
});

describe('a Node older than the floor', () => {
  it('gets one plain sentence and exit 2, for any command', async (ctx) => {
    const node18 = await nodeLine(18);
    if (!node18) return ctx.skip('npm could not fetch node@18 here');
    const { env } = e2eWorkspace('lines-18');
    for (const args of [['--version'], ['--mock', 'users', 'list']]) {
      const r = await lmsOn(node18, args, env);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^lms needs Node\.js 20\.18\.1 or newer \(22 or 24, the LTS lines, are recommended\); this is Node\.js v18\.\d+\.\d+\.$/,
      );
    }
  }, 240_000);
});

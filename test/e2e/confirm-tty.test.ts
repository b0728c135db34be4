// "No" at a real terminal's confirmation: the built binary under a pseudo-terminal (util-linux
// `script`), answering the prompt it draws. Exit 130 as the README says, and nothing deleted.
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, hasScript, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-confirm');
const mock = { ...env, LMS_MOCK: '1', LMS_MOCK_DB: join(dir, 'mock.db') };

/** Runs `lms args` on a terminal and types `answer` once the question is on the screen. */
async function answering(args: string[], answer: string): Promise<{ exitCode: number; screen: string }> {
  const command = [process.execPath, bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = execa('script', ['-qec', command, '/dev/null'], { env: mock, reject: false, extendEnv: true });
  let screen = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const before = screen;
    screen += chunk.toString();
    if (!before.includes('(y/N)') && screen.includes('(y/N)')) child.stdin!.write(answer);
  });
  const r = await child;
  return { exitCode: r.exitCode ?? -1, screen };
}

beforeAll(ensureBuilt);

describe.runIf(hasScript)('a confirmation at a terminal', () => {
  it('answered "n": exit 130, cancelled, the user is still there', async () => {
    const r = await answering(['users', 'delete', '7', '--account', '1'], 'n\r');
    expect(r.screen).toContain('Delete user 7 (Sam Student, sam) from account 1?');
    expect(r.screen).toContain('error: cancelled; nothing was changed');
    expect(r.exitCode).toBe(130);
    expect((await spawnLms(['users', 'get', '7'], mock)).exitCode).toBe(0);
  }, 30_000);

  it('answered "y": the user is deleted', async () => {
    const r = await answering(['users', 'delete', '8', '--account', '1'], 'y\r');
    expect(r.exitCode, r.screen).toBe(0);
    expect((await spawnLms(['users', 'get', '8'], mock)).exitCode).toBe(4);
  }, 30_000);
});

// An instance out of reach: a TAB waits for it once, then not again for a minute (the failure is
// kept with the answers, for that instance and caller alone), and a command gives up on it at its deadline.
import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('completion-unreachable');
let connections = 0;
const held: Socket[] = [];
/** Accepts and never answers. */
const silent = createServer((socket) => {
  connections++;
  held.push(socket);
});
let url: string;

beforeAll(async () => {
  await ensureBuilt();
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(() => {
  for (const socket of held) socket.destroy();
  silent.close();
});

describe('completion against a silent instance', () => {
  it('asks it once; the next TABs within the minute answer nothing without asking', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'lms-complete-cache-'));
    const tab = (words: string[]) =>
      spawnLms(['__complete', 'bash', '--', ...words], {
        ...env,
        LMS_BASE_URL: url,
        LMS_TOKEN: 'tok',
        LMS_CACHE_DIR: cache,
      });
    const first = await tab(['courses', 'get', '']);
    expect(first).toMatchObject({ exitCode: 0, stdout: '' });
    expect(connections).toBeGreaterThan(0);
    const asked = connections;
    for (const words of [
      ['courses', 'get', ''],
      ['users', 'get', ''],
    ]) {
      expect(await tab(words)).toMatchObject({ exitCode: 0, stdout: '' });
    }
    expect(connections).toBe(asked);
    // Another instance (the mock) is asked as ever.
    const mock = await spawnLms(['__complete', 'bash', '--', 'courses', 'get', ''], {
      ...env,
      LMS_MOCK: '1',
      LMS_CACHE_DIR: cache,
      LMS_MOCK_DB: join(cache, 'mock.db'),
    });
    expect(mock.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(0);
  });

  it('against a port that refuses: asked once too', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'lms-complete-cache-'));
    const tab = () =>
      spawnLms(['__complete', 'bash', '--', 'courses', 'get', ''], {
        ...env,
        LMS_BASE_URL: 'http://127.0.0.1:9',
        LMS_TOKEN: 'tok',
        LMS_CACHE_DIR: cache,
      });
    expect((await tab()).exitCode).toBe(0);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(cache, 'completions'))).toHaveLength(1);
  });
});

describe('a command against a silent instance', () => {
  it('with --timeout 2 ends at its deadline (exit 7): one try, not five', async () => {
    const before = connections;
    const started = Date.now();
    const r = await spawnLms(['--timeout', '2', 'users', 'get', 'self'], {
      ...env,
      LMS_BASE_URL: url,
      LMS_TOKEN: 'tok',
    });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('no answer within 2 s');
    // --timeout is the request's, its retries included: the silent instance holds its one try to the end.
    expect(connections - before).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

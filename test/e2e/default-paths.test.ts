// The README's first command as a newcomer runs it: nothing of lms's own set, so the mock's
// database, the config and the caches go where the platform keeps an application's files (here
// under a fresh HOME), through the built files as they load one another.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, spawnLms } from '../helpers/e2e.js';

beforeAll(ensureBuilt);

describe('lms with no LMS_* paths set', () => {
  it("lists the mock school from the platform's data directory, created on first use", async () => {
    const home = mkdtempSync(join(tmpdir(), 'lms-home-'));
    const env: Record<string, string> = {
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      NO_COLOR: '1',
    };
    for (const name of [
      'LMS_MOCK',
      'LMS_MOCK_DB',
      'LMS_CONFIG_DIR',
      'LMS_STATE_DIR',
      'LMS_CACHE_DIR',
      'LMS_TOKEN',
      'LMS_BASE_URL',
      'LMS_PROFILE',
    ])
      env[name] = '';
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '-o', 'json'], env);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
    expect(existsSync(join(home, 'data', 'lms', 'mock.db'))).toBe(true);
  });
});

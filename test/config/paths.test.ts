import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalDir, platformStateDir, stateDir, stateDirOf, userCacheDir } from '../../src/config/paths.js';

const quiet = { warn: () => undefined };

describe('where lms keeps state', () => {
  it('LMS_STATE_DIR wins, for the state directory and the journals in it', async () => {
    const env = { LMS_STATE_DIR: '/srv/lms-state', XDG_STATE_HOME: '/x/state' };
    expect(await stateDir({ env, ...quiet })).toBe('/srv/lms-state');
    expect(await journalDir({ env, ...quiet })).toBe(join('/srv/lms-state', 'journals'));
    expect(stateDirOf(env)).toBe('/srv/lms-state');
  });

  it("without LMS_STATE_DIR (or with it empty), the platform's state directory, not the cache directory", async () => {
    for (const env of [{}, { LMS_STATE_DIR: '' }]) {
      expect(stateDirOf(env)).toBe(platformStateDir(env));
      expect(stateDirOf(env)).not.toBe(await userCacheDir());
    }
  });

  it.each([
    ['linux', {}, '/home/u/.local/state/lms'],
    ['linux', { XDG_STATE_HOME: '/x/state' }, '/x/state/lms'],
    // The XDG specification: a relative path in the variable is invalid and ignored.
    ['linux', { XDG_STATE_HOME: 'relative/state' }, '/home/u/.local/state/lms'],
    ['linux', { XDG_STATE_HOME: '' }, '/home/u/.local/state/lms'],
    ['freebsd', { XDG_STATE_HOME: '/x/state' }, '/x/state/lms'],
    ['darwin', { XDG_STATE_HOME: '/x/state' }, '/home/u/Library/Application Support/lms'],
    [
      'win32',
      { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', XDG_STATE_HOME: '/x/state' },
      'C:\\Users\\u\\AppData\\Local\\lms',
    ],
    ['win32', {}, 'C:\\Users\\u\\AppData\\Local\\lms'],
  ] as const)('on %s with %j: %s', (platform, env, expected) => {
    const home = platform === 'win32' ? 'C:\\Users\\u' : '/home/u';
    expect(platformStateDir(env, platform, home)).toBe(expected);
  });

  it('the user cache directory is named for lms, with no "-nodejs" suffix', async () => {
    expect(await userCacheDir()).toMatch(/[\\/]lms([\\/]Cache)?$/);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalDir, stateDir, userCacheDir } from '../../src/config/paths.js';

describe('where lms keeps state', () => {
  it.each([
    { env: { LMS_STATE_DIR: '/srv/lms-state' }, state: '/srv/lms-state', journals: '/srv/lms-state/journals' },
    { env: { LMS_STATE_DIR: '' }, state: 'cache', journals: 'cache/journals' },
    { env: {}, state: 'cache', journals: 'cache/journals' },
  ])('LMS_STATE_DIR=$env.LMS_STATE_DIR', async ({ env, state, journals }) => {
    const cache = await userCacheDir();
    const at = (p: string) => (p.startsWith('cache') ? join(cache, p.slice('cache'.length)) : p);
    expect(await stateDir(env)).toBe(at(state));
    expect(await journalDir(env)).toBe(at(journals));
  });

  it('the user cache directory is named for lms, with no "-nodejs" suffix', async () => {
    expect(await userCacheDir()).toMatch(/[\\/]lms([\\/]Cache)?$/);
  });
});

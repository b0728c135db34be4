// Nothing reaches stdout until there is data: a script's `> users.csv` after a failure is empty,
// not a header that reads as an export with no one in it.
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('honest-output');

beforeAll(ensureBuilt);

describe('-o csv on a failure', () => {
  it.each([
    [
      'an instance that does not answer',
      ['users', 'list', '--account', '1', '-o', 'csv'],
      { LMS_BASE_URL: 'http://127.0.0.1:9', LMS_TOKEN: 'tok' },
      7,
    ],
    [
      'a role refused the listing (a student)',
      ['--mock', 'users', 'list', '--account', '1', '-o', 'csv'],
      { LMS_TOKEN: '7~mock-sam' },
      3,
    ],
  ])('%s: the exit code, and stdout empty', async (_what, args, extra, exitCode) => {
    const r = await spawnLms(['--timeout', '3', ...args], { ...env, ...extra });
    expect(r.exitCode).toBe(exitCode);
    expect(r.stdout).toBe('');
  });
});

// The confirmation prompt on a terminal is coloured or not as everything else is: --no-color and
// NO_COLOR are one switch.
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, hasScript, quote } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('prompt-color');
const SGR = /\x1b\[[0-9;]*m/;

beforeAll(ensureBuilt);

/** The prompt of `users delete` on a pseudo-terminal, answered "n". */
async function prompt(flags: string[], extra: Record<string, string>): Promise<string> {
  // Node reads NO_COLOR as set whatever its value, and colours nothing under a CI variable or
  // without TERM: left out, and TERM named, so the terminal is one that colours.
  const all: Record<string, string | undefined> = { ...process.env, ...env, TERM: 'xterm-256color' };
  const { NO_COLOR: _set, CI: _ci, ...inherited } = all;
  const command = [process.execPath, bin, '--mock', ...flags, 'users', 'delete', '7', '--account', '1']
    .map(quote)
    .join(' ');
  const r = await execa('script', ['-qec', command, '/dev/null'], {
    env: { ...inherited, LMS_MOCK_DB: join(dir, 'mock.db'), ...extra },
    input: 'n\r',
    reject: false,
    extendEnv: false,
    timeout: 20_000,
  });
  expect(r.stdout).toContain('Delete user 7');
  return r.stdout;
}

describe.skipIf(!hasScript)('the confirmation prompt', () => {
  it('is coloured on a terminal by default', async () => {
    expect(await prompt([], {})).toMatch(SGR);
  });

  it.each([
    ['--no-color', ['--no-color'], {}],
    ['NO_COLOR', [], { NO_COLOR: '1' }],
  ])('has no colour with %s', async (_what, flags, extra) => {
    const screen = await prompt(flags, extra);
    expect(screen).not.toMatch(SGR);
    // The same words and marks as the coloured prompt.
    expect(screen).toContain('? Delete user 7 (Sam Student, sam) from account 1? (y/N)');
  });
});

import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pseudonymKey } from '../../src/mcp/pseudonym-key.js';

const dir = () => mkdtempSync(join(tmpdir(), 'lms-pkey-'));

describe('the pseudonym key file', () => {
  it('is made 0600, with a private directory, when neither exists, and read back the same', () => {
    const file = join(dir(), 'config', 'lms', 'pseudonym.key');
    const made = pseudonymKey(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    expect(pseudonymKey(file).equals(made)).toBe(true);
  });

  it.each([
    [
      'readable by others',
      (f: string) => {
        writeFileSync(f, 'k'.repeat(32));
        return chmodSync(f, 0o644);
      },
      /can be read by others than its owner/,
    ],
    ['too short', (f: string) => writeFileSync(f, 'short\n', { mode: 0o600 }), /less than 16 characters/],
    [
      'far too long to be a key',
      (f: string) => writeFileSync(f, 'k'.repeat(5000), { mode: 0o600 }),
      /more than 4096 bytes/,
    ],
  ])('is refused when %s', (_what, make, message) => {
    const file = join(dir(), 'pseudonym.key');
    make(file);
    expect(() => pseudonymKey(file)).toThrow(message);
  });

  it('is refused when it is not a file', () => {
    expect(() => pseudonymKey('/dev/zero')).toThrow(/is not a file/);
  });
});

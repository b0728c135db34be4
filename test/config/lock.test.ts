import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/config/lock.js';
import { FailureError } from '../../src/errors.js';

const options = { waitMs: 5_000, staleMs: 60_000, what: 'testing' };
const lockIn = () => join(mkdtempSync(join(tmpdir(), 'lms-lock-')), 'locks', 'p.lock');

describe('the lock file', () => {
  it('lets one holder in at a time, and leaves no file behind', async () => {
    const path = lockIn();
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withFileLock(path, options, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(existsSync(path)).toBe(false);
  });

  it('releases the lock when the work throws', async () => {
    const path = lockIn();
    await expect(withFileLock(path, options, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(path)).toBe(false);
    await expect(withFileLock(path, options, async () => 'again')).resolves.toBe('again');
  });

  it('takes over the file of a holder that died', async () => {
    const path = lockIn();
    await withFileLock(path, options, async () => undefined);
    // A pid no process has: the holder crashed without removing its file.
    writeFileSync(path, '2147483646 0 dead\n');
    await expect(withFileLock(path, { ...options, waitMs: 200 }, async () => 'taken')).resolves.toBe('taken');
  });

  it('gives up on a live holder after the wait, saying what it waited for and how to clear it', async () => {
    const path = lockIn();
    await withFileLock(path, options, async () => undefined);
    writeFileSync(path, `${process.pid} ${Date.now()} alive\n`);
    const error = await withFileLock(
      path,
      { ...options, waitMs: 100, what: 'renewing the token of profile "prod"' },
      async () => 'never',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FailureError);
    expect((error as FailureError).message).toBe(
      'another lms command is renewing the token of profile "prod" and has not finished within 0 s',
    );
    expect((error as FailureError).hint).toContain(path);
  });

  it('takes over an empty file a holder died before writing, once it is a second old', async () => {
    const path = lockIn();
    await withFileLock(path, options, async () => undefined);
    writeFileSync(path, '');
    const old = new Date(Date.now() - 5_000);
    utimesSync(path, old, old);
    await expect(withFileLock(path, { ...options, waitMs: 200 }, async () => 'taken')).resolves.toBe('taken');
  });

  it("does not take a live holder's file for slowness, only when far older than a renewal can take", async () => {
    const path = lockIn();
    await withFileLock(path, options, async () => undefined);
    writeFileSync(path, `${process.pid} 0 alive\n`);
    const twiceStale = new Date(Date.now() - 2 * options.staleMs);
    utimesSync(path, twiceStale, twiceStale);
    await expect(withFileLock(path, { ...options, waitMs: 100 }, async () => 'never')).rejects.toBeInstanceOf(
      FailureError,
    );
    const long = new Date(Date.now() - 6 * options.staleMs);
    utimesSync(path, long, long);
    await expect(withFileLock(path, { ...options, waitMs: 100 }, async () => 'taken')).resolves.toBe('taken');
  });
});

// The lock of an instance and course that one apply holds at a time: a second waits for it, saying
// so, within a bound (then exit 6, naming the holder); a lock whose holder died is taken over.
import { mkdirSync, mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockCourses, LockTimeoutError } from '../../src/apply/lock.js';
import { createHash } from 'node:crypto';

const base = (dir: string, waitMs: number, waits: string[] = []) => ({
  dir,
  where: 'https://lms.example.edu',
  courses: ['BIO-201'],
  waitMs,
  onWait: (m: string) => void waits.push(m),
  onLost: () => undefined,
});

describe('the apply lock', () => {
  it('refuses a second holder that will not wait: exit 6, naming the holder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-lock-'));
    const release = await lockCourses(base(dir, 0));
    const second = await lockCourses(base(dir, 0)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(LockTimeoutError);
    expect((second as LockTimeoutError).exitCode).toBe(6);
    expect((second as Error).message).toBe(
      `another lms apply (pid ${process.pid}) is applying course BIO-201 on this instance; nothing was changed`,
    );
    // Another course, or another instance, is not held.
    await (await lockCourses({ ...base(dir, 0), courses: ['BIO-202'] }))();
    // The same course however the file spells its SIS id.
    expect(await lockCourses({ ...base(dir, 0), courses: ['bio-201'] }).catch((x: unknown) => x)).toBeInstanceOf(
      LockTimeoutError,
    );
    await (await lockCourses({ ...base(dir, 0), where: 'mock:/tmp/other.db' }))();
    await release();
    await (await lockCourses(base(dir, 0)))();
  });

  it('makes a second holder wait, saying so once, until the first lets go', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-lock-'));
    const release = await lockCourses(base(dir, 0));
    const waits: string[] = [];
    const second = lockCourses(base(dir, 5000, waits));
    setTimeout(() => void release(), 300);
    await (await second)();
    expect(waits).toEqual([
      `waiting for another lms apply (pid ${process.pid}) of course BIO-201 on this instance (up to 5 s)`,
    ]);
  });

  it('gives up after the bounded wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-lock-'));
    const release = await lockCourses(base(dir, 0));
    const started = Date.now();
    const e = await lockCourses(base(dir, 400)).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LockTimeoutError);
    expect((e as Error).message).toMatch(/; waited 0.4 s; nothing was changed$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    await release();
  });

  it('takes over a lock its holder left behind (killed) once it is stale', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-lock-'));
    const name = createHash('sha256')
      .update('https://lms.example.edu')
      .update('\0')
      .update('bio-201')
      .digest('hex')
      .slice(0, 32);
    const left = join(dir, `${name}.lock`);
    mkdirSync(left);
    const old = new Date(Date.now() - 60_000);
    utimesSync(left, old, old);
    await (await lockCourses(base(dir, 0)))();
  });
});

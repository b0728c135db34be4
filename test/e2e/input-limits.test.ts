// End to end: the memory of a spawned `lms users import` given an endless input — /dev/zero, and a
// 300 MB stream of rows on stdin through a pipe. Each is refused (exit 2, the file and the limit
// named) while the child's peak resident set (VmHWM, sampled while it runs) stays within a bound
// far below what reading the whole input would take. A child that passes the bound is killed, so a
// regression fails here rather than exhausting the machine.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, peakRss } from '../helpers/e2e.js';

const MiB = 1024 * 1024;
const BOUND = 300 * MiB;
const { dir, env } = e2eWorkspace('input-limits');
const linux = existsSync('/proc/self/status');

beforeAll(ensureBuilt);

/**
 * `lms ARGS` with stdin from `feed` (if any), sampling the child's VmHWM every 10 ms; the child is
 * killed at BOUND or after 15 s.
 */
async function watched(args: string[], feed?: (stdin: NodeJS.WritableStream) => void) {
  const child = execa(process.execPath, [bin, '--mock', ...args], {
    env: { ...env, LMS_MOCK_DB: join(dir, 'mock.db') },
    reject: false,
    timeout: 15_000,
    stdin: feed ? 'pipe' : 'ignore',
  });
  let highest = 0;
  const sample = () => {
    const now = child.pid === undefined ? undefined : peakRss(child.pid);
    if (now === undefined) return;
    highest = Math.max(highest, now);
    if (highest > BOUND) child.kill('SIGKILL');
  };
  const timer = setInterval(sample, 10);
  // The child stops reading at its limit and exits: the writer then meets a closed pipe.
  child.stdin?.on('error', () => undefined);
  if (feed && child.stdin) feed(child.stdin);
  const result = await child;
  clearInterval(timer);
  return { ...result, peak: highest };
}

describe.skipIf(!linux)('an endless input: refused early, in bounded memory', () => {
  it('refuses /dev/zero at the field limit', async () => {
    const r = await watched(['users', 'import', '--account', '1', '/dev/zero']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('/dev/zero:1: a field is larger than 1 MiB');
    expect(r.stderr).toContain('nothing was sent');
    expect(r.peak).toBeGreaterThan(0);
    expect(r.peak).toBeLessThan(BOUND);
  });

  it('refuses 300 MB of rows on stdin at the size limit', async () => {
    const rows = Buffer.from('Student Somebody,somebody,somebody@example.edu\n'.repeat(Math.floor(MiB / 48)));
    let written = 0;
    const r = await watched(['users', 'import', '--account', '1', '-'], (stdin) => {
      stdin.write('name,login_id,email\n');
      const pump = () => {
        while (written < 300 * MiB) {
          written += rows.length;
          if (!stdin.write(rows)) return void stdin.once('drain', pump);
        }
        stdin.end();
      };
      pump();
    });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('stdin is larger than 64 MiB');
    expect(r.peak).toBeGreaterThan(0);
    expect(r.peak).toBeLessThan(BOUND);
    // It stopped reading: most of the stream was never taken.
    expect(written).toBeLessThan(200 * MiB);
  });
});

// The audit log's lock: a holder that died is seen by its pid and the lock taken over at once; a
// live holder is waited for; a lock no one can be seen to hold is taken over once it is stale.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog } from '../src/audit/log.js';
import { lockFileOf, lockSync } from '../src/file-lock.js';
import { followEntries, readEntries } from '../src/audit/read.js';

const scratch = () => join(mkdtempSync(join(tmpdir(), 'lms-audit-lock-')), 'audit.log');
const entry = (time: number, n: number) => ({
  time: new Date(time).toISOString(),
  instance: 'x',
  user: { via: 'w' },
  surface: 'cli',
  method: 'POST',
  path: `/a?n=${n}`,
  status: 200,
});

/** A pid that was a process and is no more. */
async function deadPid(): Promise<number> {
  const p = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => p.on('exit', r));
  return p.pid!;
}

describe("the audit log's lock", () => {
  it('is taken and released, and names its holder while held', () => {
    const file = lockFileOf(scratch());
    const release = lockSync(file);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    release();
    expect(existsSync(file)).toBe(false);
  });

  it('is taken over at once from a holder on this host that died holding it', async () => {
    const path = scratch();
    new AuditLog(path).append(entry(Date.now(), 1));
    writeFileSync(lockFileOf(path), `${await deadPid()} ${hostname()}\n`);
    // A stale age far beyond the test's bound: only the dead pid can free it.
    new AuditLog(path, { lockStaleMs: 3_600_000 }).append(entry(Date.now(), 2));
    expect([...readEntries(path)].map((e) => e.path)).toEqual(['/a?n=1', '/a?n=2']);
    expect(existsSync(lockFileOf(path))).toBe(false);
  });

  it('is waited for while a live holder keeps it, then taken', async () => {
    const path = scratch();
    new AuditLog(path).append(entry(Date.now(), 1));
    const lock = lockFileOf(path);
    // Another process holds it until told to let go.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `
      const fs = require('node:fs'); const os = require('node:os');
      fs.writeFileSync(${JSON.stringify(lock)}, process.pid + ' ' + os.hostname() + '\\n', { flag: 'wx' });
      process.stdout.write('held\\n');
      process.stdin.once('data', () => { fs.unlinkSync(${JSON.stringify(lock)}); process.exit(0); });
    `,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise((r) => holder.stdout.once('data', r));
    expect(() => lockSync(lock, { waitMs: 50 })).toThrow(/held by another process/);
    holder.stdin.write('go\n');
    await new Promise((r) => holder.on('exit', r));
    new AuditLog(path).append(entry(Date.now(), 2));
    expect([...readEntries(path)].map((e) => e.path)).toEqual(['/a?n=1', '/a?n=2']);
  });

  it('is taken over once stale when its holder cannot be seen (another host, or not yet named)', () => {
    const path = scratch();
    for (const holder of ['4242 some-other-host\n', '']) {
      writeFileSync(lockFileOf(path), holder);
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockFileOf(path), old, old);
      new AuditLog(path, { lockStaleMs: 10_000 }).append(entry(Date.now(), 1));
      expect(existsSync(lockFileOf(path))).toBe(false);
    }
    // A fresh one is not.
    writeFileSync(lockFileOf(path), '4242 some-other-host\n');
    expect(() => lockSync(lockFileOf(path), { staleMs: 10_000, waitMs: 50 })).toThrow(/held by another process/);
  });
});

describe('following the log across the rotation that drops its stale part', () => {
  it('reads every line once: the old file to its end, then the new one from its start', async () => {
    // The reader shows what is kept; the stale line is dropped only from the rotated file.
    const path = scratch();
    const now = Date.now();
    new AuditLog(path, { now: () => now - 200 * 86_400_000 }).append(entry(now - 200 * 86_400_000, 0));
    new AuditLog(path, { now: () => now - 200 * 86_400_000 }).append(entry(now - 1000, 1));
    const stop = new AbortController();
    const seen: string[] = [];
    const follow = (async () => {
      for await (const e of followEntries(path, { signal: stop.signal, intervalMs: 5, rotatedFirst: true })) {
        seen.push(e.path!);
        if (seen.length === 2) {
          // A new process's first line: the file's oldest is stale, so it is rotated away.
          new AuditLog(path).append(entry(Date.now(), 2));
          new AuditLog(path).append(entry(Date.now(), 3));
        }
        if (seen.length >= 4) stop.abort();
      }
    })();
    const deadline = Date.now() + 10_000;
    while (seen.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await follow;
    expect(seen).toEqual(['/a?n=0', '/a?n=1', '/a?n=2', '/a?n=3']);
    expect(existsSync(`${path}.1`)).toBe(true);
  });
});

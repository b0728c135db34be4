// The audit log's file: appended a line at a time, private, rotated by size, and rid of entries
// older than its retention; and the trail that writes it, learning who the token belongs to.
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, keepDaysOf, type AuditEntry } from '../../src/audit/log.js';
import { keptFiles, readEntries } from '../../src/audit/read.js';
import { auditTrail } from '../../src/audit/trail.js';
import { NetworkError } from '../../src/errors.js';
import type { ApiRequest, Transport } from '../../src/transport/types.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-02T12:00:00Z');
const entry = (time: number, n: number): AuditEntry => ({
  time: new Date(time).toISOString(),
  instance: 'https://lms.example.edu',
  user: { via: 'work' },
  surface: 'cli',
  verb: 'lms users create',
  method: 'POST',
  path: `/api/v1/accounts/1/users?n=${n}`,
  status: 200,
});
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEntry);
const scratch = () => join(mkdtempSync(join(tmpdir(), 'lms-audit-')), 'state', 'audit.log');

describe('the audit log file', () => {
  it('is made with its directory, mode 0600, and a file found more open is made private', () => {
    const path = scratch();
    new AuditLog(path, { now: () => NOW }).append(entry(NOW, 1));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    chmodSync(path, 0o644);
    new AuditLog(path, { now: () => NOW }).append(entry(NOW, 2));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(lines(path).map((e) => e.path)).toEqual(['/api/v1/accounts/1/users?n=1', '/api/v1/accounts/1/users?n=2']);
  });

  it('rotates past its size, keeping so many older files, each private, and reads back oldest first', () => {
    const path = scratch();
    const one = Buffer.byteLength(`${JSON.stringify(entry(NOW, 10))}\n`);
    const log = new AuditLog(path, { maxBytes: one * 3, keepFiles: 2, now: () => NOW });
    for (let n = 10; n < 30; n++) log.append(entry(NOW, n));
    expect(keptFiles(path)).toEqual([`${path}.2`, `${path}.1`, path]);
    for (const file of keptFiles(path)) {
      expect(statSync(file).size).toBeLessThanOrEqual(one * 3);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(existsSync(`${path}.3`)).toBe(false);
    // Files of 3 lines (10-12, …, 25-27) and the current 28-29: two rotated ones kept, the rest gone.
    expect([...readEntries(path)].map((e) => e.path!.split('=')[1])).toEqual([
      '22',
      '23',
      '24',
      '25',
      '26',
      '27',
      '28',
      '29',
    ]);
  });

  it('drops entries older than its retention when it rotates, and a rotated file of only old ones', () => {
    const path = scratch();
    const one = Buffer.byteLength(`${JSON.stringify(entry(NOW, 10))}\n`);
    // Written over 100 days, a line a day: two files of old lines, then new ones.
    let clock = NOW - 100 * DAY;
    const log = new AuditLog(path, { maxBytes: one * 40, keepFiles: 5, keepDays: 30, now: () => clock });
    for (let day = 0; day < 100; day++, clock += DAY) log.append(entry(clock, day));
    // The rotated files' times are when they were last written: as old as their last line.
    for (const file of keptFiles(path).filter((f) => f !== path)) {
      const last = lines(file).at(-1)!;
      utimesSync(file, new Date(last.time), new Date(last.time));
    }
    clock = NOW;
    for (let n = 0; n < 40; n++) log.append(entry(clock, 100 + n));
    const kept = [...readEntries(path)];
    expect(kept.every((e) => Date.parse(e.time) >= NOW - 30 * DAY)).toBe(true);
    // What is within the retention stays: days 70..99 and the 40 new lines.
    expect(kept).toHaveLength(30 + 40);
  });

  it("drops a slow log's stale entries when a process first writes to it", () => {
    const path = scratch();
    const old = new AuditLog(path, { now: () => NOW - 200 * DAY });
    old.append(entry(NOW - 200 * DAY, 1));
    old.append(entry(NOW - 10 * DAY, 2));
    new AuditLog(path, { keepDays: 90, now: () => NOW }).append(entry(NOW, 3));
    // The file is rotated (renamed, never rewritten where a writer appends), and the rotated one
    // loses its stale line.
    expect(lines(`${path}.1`).map((e) => e.path!.split('=')[1])).toEqual(['2']);
    expect(lines(path).map((e) => e.path!.split('=')[1])).toEqual(['3']);
    expect([...readEntries(path)].map((e) => e.path!.split('=')[1])).toEqual(['2', '3']);
  });

  it('passes over a line cut short by a crash', () => {
    const path = scratch();
    new AuditLog(path).append(entry(NOW, 1));
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"time":"2026-11-0`, { flag: 'w' });
    new AuditLog(path).append(entry(NOW, 2));
    expect([...readEntries(path)].map((e) => e.path!.split('=')[1])).toEqual(['1']);
  });

  it('reads LMS_AUDIT_KEEP_DAYS: 90 by default, a positive number, or a usage error', () => {
    expect(keepDaysOf({})).toBe(90);
    expect(keepDaysOf({ LMS_AUDIT_KEEP_DAYS: '7' })).toBe(7);
    expect(keepDaysOf({ LMS_AUDIT_KEEP_DAYS: '0.5' })).toBe(0.5);
    for (const bad of ['0', '-3', 'ninety', '7d'])
      expect(() => keepDaysOf({ LMS_AUDIT_KEEP_DAYS: bad })).toThrow(
        /LMS_AUDIT_KEEP_DAYS must be a positive number of days/,
      );
  });
});

describe('the trail a client writes through', () => {
  const request = (method: ApiRequest['method'], url: string): ApiRequest => ({
    method,
    url,
    headers: { authorization: 'Bearer s3cret-token' },
  });

  function trailWith(answer: Transport, asUser?: string) {
    const path = scratch();
    const warnings: string[] = [];
    const trail = auditTrail({
      scope: { surface: 'cli', verb: 'lms users create' },
      instance: 'https://lms.example.edu',
      via: 'work',
      asUser,
      open: async () => new AuditLog(path),
      warn: (m) => warnings.push(m),
    });
    return { send: trail.wrap(answer), path, warnings, trail };
  }

  it("names the token's user once the command has read users/self, and masks secrets in the path", async () => {
    const { send, path } = trailWith(async (req) =>
      req.url.endsWith('/users/self')
        ? { status: 200, headers: {}, body: 'while(1);{"id":5,"login_id":"pat","name":"Pat"}' }
        : { status: 201, headers: {}, body: '{}' },
    );
    await send(request('GET', 'https://lms.example.edu/api/v1/users/self'));
    await send(request('POST', 'https://lms.example.edu/api/v1/accounts/1/users?access_token=leaked&x=1'));
    const [line, ...rest] = lines(path);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      user: { via: 'work', id: 5, login: 'pat' },
      method: 'POST',
      path: '/api/v1/accounts/1/users?access_token=[REDACTED]&x=1',
      status: 201,
    });
    expect(readFileSync(path, 'utf8')).not.toMatch(/leaked|s3cret-token/);
  });

  it("does not take a masqueraded user's self for the token's", async () => {
    const { send, path } = trailWith(
      async () => ({ status: 200, headers: {}, body: '{"id":9,"login_id":"someone"}' }),
      '9',
    );
    await send(request('GET', 'https://lms.example.edu/api/v1/users/self?as_user_id=9'));
    await send(request('PUT', 'https://lms.example.edu/api/v1/users/9?as_user_id=9'));
    expect(lines(path)[0]).toMatchObject({ user: { via: 'work' }, as_user: '9' });
  });

  it('logs a write whose answer never came, with why, and throws on', async () => {
    const { send, path } = trailWith(async () => {
      throw new NetworkError('socket hang up', { code: 'ECONNRESET' });
    });
    await expect(send(request('POST', 'https://lms.example.edu/api/v1/courses/1/sections'))).rejects.toThrow(
      'socket hang up',
    );
    expect(lines(path)).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/api/v1/courses/1/sections',
        status: null,
        error: 'ECONNRESET',
      }),
    ]);
  });

  it('warns once, and lets the write stand, when the log cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-audit-'));
    // A directory where the file should be: every append fails.
    const path = join(dir, 'audit.log');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path);
    const warnings: string[] = [];
    const trail = auditTrail({
      scope: { surface: 'cli' },
      instance: 'x',
      via: 'work',
      open: async () => new AuditLog(path),
      warn: (m) => warnings.push(m),
    });
    const send = trail.wrap(async () => ({ status: 200, headers: {}, body: '{}' }));
    expect((await send(request('POST', 'https://lms.example.edu/a'))).status).toBe(200);
    expect((await send(request('POST', 'https://lms.example.edu/b'))).status).toBe(200);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^could not write the audit log: /);
  });
});

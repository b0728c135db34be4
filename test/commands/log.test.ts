// `lms log`: the audit log read back, filtered by time, surface and instance, in every format.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/log.js';
import { sinceTime } from '../../src/commands/log/index.js';
import { session } from '../helpers/run-lms.js';

const HOUR = 3_600_000;
const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString();
const line = (over: Partial<AuditEntry>): AuditEntry => ({
  time: at(0),
  instance: 'https://lms.example.edu',
  user: { via: 'work' },
  surface: 'cli',
  verb: 'lms users create',
  method: 'POST',
  path: '/api/v1/accounts/1/users',
  status: 200,
  ...over,
});

function withLog(entries: AuditEntry[]) {
  const lms = session();
  mkdirSync(lms.stateDir, { recursive: true });
  writeFileSync(join(lms.stateDir, 'audit.log'), entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return lms;
}

const ENTRIES = [
  line({ time: at(200), verb: 'lms users delete', method: 'DELETE', path: '/api/v1/accounts/1/users/7' }),
  line({ time: at(30), surface: 'apply', verb: 'lms apply', path: '/api/v1/accounts/1/courses' }),
  line({ time: at(2), surface: 'mcp:users_create', instance: 'mock:/tmp/mock.db' }),
  line({
    time: at(0.5),
    surface: 'mcp:grade_set',
    verb: 'lms grade set',
    method: 'PUT',
    path: '/api/v1/courses/1/assignments/1/submissions/7',
    instance: 'https://other.example.edu',
  }),
];

describe('lms log', () => {
  it.each([
    ['', [0, 1, 2, 3]],
    ['--since 1h', [3]],
    ['--since 3h', [2, 3]],
    ['--since 2d', [1, 2, 3]],
    ['--surface mcp', [2, 3]],
    ['--surface mcp:grade_set', [3]],
    ['--surface apply', [1]],
    ['--surface mc', []],
    ['--instance lms.example.edu', [0, 1]],
    ['--instance https://other.example.edu/', [3]],
    ['--instance mock', [2]],
    ['--since 1d --instance lms.example.edu', []],
    ['--limit 2', [0, 1]],
  ])('lms log %s', async (flags, shown) => {
    const lms = withLog(ENTRIES);
    const r = await lms.run(`log ${flags} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(shown.map((i) => ENTRIES[i]));
  });

  it('writes ndjson and csv, with the columns of a write in a table', async () => {
    const lms = withLog(ENTRIES.slice(2));
    const nd = await lms.run('log -o ndjson');
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(ENTRIES.slice(2));
    const csv = await lms.run('log -o csv');
    expect(csv.stdout.split('\n')[0]).toBe('time,surface,verb,method,path,status,user.login,user.via,as_user,instance');
    expect(csv.stdout.split('\n')[1]).toBe(
      `${ENTRIES[2].time},mcp:users_create,lms users create,POST,/api/v1/accounts/1/users,200,,work,,mock:/tmp/mock.db`,
    );
  });

  it('shows a write made just before, and an empty log is an empty list', async () => {
    const lms = session();
    expect(JSON.parse((await lms.run('log -o json')).stdout)).toEqual([]);
    await lms.run('users create --account 1 --name Logged --login-id logged.one');
    expect(JSON.parse((await lms.run('log --surface cli -o json')).stdout)).toEqual([
      expect.objectContaining({ verb: 'lms users create', status: 200 }),
    ]);
  });

  it.each([
    [
      '--since yesterday',
      '--since must be a duration (30m, 1h, 7d, 2w) or a date (YYYY-MM-DD) or time (ISO 8601), not "yesterday"',
    ],
    ['--follow -o json', 'a list that keeps going cannot be one JSON array'],
  ])('refuses %s (exit 2)', async (flags, message) => {
    const r = await withLog([]).run(`log ${flags}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('reads --since as a duration or a date', () => {
    const now = Date.parse('2026-11-02T12:00:00Z');
    expect(sinceTime('90m', now)).toBe(now - 90 * 60_000);
    expect(sinceTime('7d', now)).toBe(now - 7 * 86_400_000);
    expect(sinceTime('2w', now)).toBe(now - 14 * 86_400_000);
    expect(sinceTime('2026-11-01', now)).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(sinceTime('2026-11-01T08:00:00+01:00', now)).toBe(Date.parse('2026-11-01T07:00:00Z'));
  });
});

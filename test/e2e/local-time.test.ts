// Tables show the instance's moments in the local time zone, which TZ sets; every other format keeps
// the instance's text byte for byte. Spawned, as a shell runs lms, with TZ in the environment.
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('local-time');
// Graded "now": a moment in December (New York on EST), beside the seeded submission's September one (EDT).
const base = { ...env, LMS_MOCK: '1', LMS_MOCK_NOW: '2026-12-02T14:30:00Z' };

async function ok(args: string[], tz: string): Promise<string> {
  const r = await spawnLms(args, { ...base, TZ: tz });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout;
}

const GET = ['submissions', 'get', '--course', '1', '--assignment', '1', '--user', '9'];

beforeAll(async () => {
  await ensureBuilt();
  await ok(['grade', '--course', '1', '--assignment', '1', '--user', '9', '17', '-o', 'json'], 'UTC');
});

describe('moments in tables', () => {
  it.each([
    ['America/New_York', '2026-12-02 09:30', '2026-09-14 16:00'],
    ['UTC', '2026-12-02 14:30', '2026-09-14 20:00'],
    ['Asia/Kolkata', '2026-12-02 20:00', '2026-09-15 01:30'],
  ])('in %s: a record and a list show local time', async (tz, graded, submitted) => {
    const record = await ok([...GET, '-o', 'table'], tz);
    expect(record).toMatch(new RegExp(`^graded_at +${graded}$`, 'm'));
    expect(record).toMatch(new RegExp(`^submitted_at +${submitted}$`, 'm'));
    const listed = await ok(
      [
        'submissions',
        'list',
        '--course',
        '1',
        '--assignment',
        '1',
        '--fields',
        'user_id,submitted_at,graded_at',
        '-o',
        'table',
      ],
      tz,
    );
    expect(listed.split('\n')).toContain(`9        ${submitted}  ${graded}`);
  });

  it.each(['json', 'ndjson', 'csv', 'yaml'])("-o %s keeps the instance's text, whatever TZ says", async (format) => {
    const newYork = await ok([...GET, '-o', format], 'America/New_York');
    const utc = await ok([...GET, '-o', format], 'UTC');
    expect(newYork).toBe(utc);
    expect(newYork).toContain('2026-09-14T20:00:00Z');
    expect(newYork).toContain('2026-12-02T14:30:00Z');
  });

  it("-o json is the instance's answer as it sent it", async () => {
    const answered = JSON.parse(
      await ok(['api', 'GET', '/api/v1/courses/1/assignments/1/submissions/9'], 'America/New_York'),
    ) as Record<string, unknown>;
    const shown = JSON.parse(await ok([...GET, '-o', 'json'], 'America/New_York')) as Record<string, unknown>;
    expect(shown.submitted_at).toBe(answered.submitted_at);
    expect(shown.graded_at).toBe(answered.graded_at);
    expect(JSON.stringify(shown)).toBe(JSON.stringify(answered));
  });
});

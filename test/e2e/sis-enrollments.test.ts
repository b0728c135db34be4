// `lms enrollments import` of a SIS enrollments.csv over HTTP against `lms mock serve`: rows of two
// courses with no --course, then a completed status that concludes through the end route, asked first.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms } from '../helpers/e2e.js';

describe('lms enrollments import of a SIS file against lms mock serve', () => {
  it('enrolls across courses by SIS ids, then concludes a completed row after asking', async () => {
    await ensureBuilt();
    const { dir, env } = e2eWorkspace('sis-enrollments');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock(env);
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    try {
      const start = join(dir, 'start.csv');
      writeFileSync(
        start,
        'course_id,section_id,user_id,role,status\nBIO-101,,S-007,ta,active\nCHEM-201,,S-007,designer,active\n',
      );
      const first = await spawnLms(['enrollments', 'import', start, '-o', 'json'], remote);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, failed: 0 });

      const ends = join(dir, 'ends.csv');
      writeFileSync(ends, 'course_id,user_id,role,status\nCHEM-201,S-007,designer,completed\n');
      const asked = await spawnLms(['enrollments', 'import', '--update', ends], remote);
      expect(asked.exitCode).toBe(2);
      expect(asked.stderr).toContain('--yes');
      const done = await spawnLms(['enrollments', 'import', '--update', '--yes', ends, '-o', 'json'], remote);
      expect(done.exitCode, done.stderr).toBe(0);
      expect(JSON.parse(done.stdout)).toMatchObject({ updated: 1, failed: 0 });
      const listed = await spawnLms(
        [
          'enrollments',
          'list',
          '--course',
          'sis_course_id:CHEM-201',
          '--type',
          'designer',
          '--state',
          'completed',
          '-o',
          'json',
        ],
        remote,
      );
      const rows = JSON.parse(listed.stdout) as { enrollment_state: string }[];
      expect(rows.map((e) => e.enrollment_state)).toEqual(['completed']);
    } finally {
      await served.stop();
    }
  }, 60_000);
});

// `lms enrollments import` of a SIS enrollments.csv over HTTP against `lms mock serve`: rows of two
// courses with no --course, then a completed status that concludes through the end route, asked first;
// an observer's second observee as a link of its own, and an unknown role refused before anything is sent;
// a deleted row whose enrollment is deleted already, or was never made, is nothing to do the next night.
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

  it('passes over a deleted row the next night: deleted already or never made, exit 0, no write', async () => {
    await ensureBuilt();
    const { dir, env } = e2eWorkspace('sis-deleted');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock(env);
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    // The audit log's requests (each run also logs a line of its own, with no method).
    const writes = async () =>
      (JSON.parse((await spawnLms(['log', '-o', 'json'], env)).stdout) as { method?: string }[]).filter((e) => e.method)
        .length;
    try {
      const header = 'course_id,user_id,role,status\n';
      const start = join(dir, 'start.csv');
      writeFileSync(start, `${header}CHEM-201,S-007,ta,active\n`);
      expect((await spawnLms(['enrollments', 'import', start], remote)).exitCode).toBe(0);
      const night1 = join(dir, 'night1.csv');
      writeFileSync(night1, `${header}CHEM-201,S-007,ta,deleted\nBIO-101,S-007,designer,deleted\n`);
      const first = await spawnLms(['enrollments', 'import', '--update', '--yes', night1, '-o', 'json'], remote);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ updated: 1, existed: 1, failed: 0 });

      // The next night's file keeps both deleted rows and adds one: only that one is written, nothing asked.
      const night2 = join(dir, 'night2.csv');
      writeFileSync(
        night2,
        `${header}CHEM-201,S-007,ta,deleted\nBIO-101,S-007,designer,deleted\nCHEM-201,S-008,designer,active\n`,
      );
      const before = await writes();
      const second = await spawnLms(['enrollments', 'import', '--update', night2, '-o', 'json'], remote);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ created: 1, existed: 2, updated: 0, failed: 0 });
      expect(await writes()).toBe(before + 1);
      const again = await spawnLms(['enrollments', 'import', '--update', '--restart', night2, '-o', 'json'], remote);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, existed: 3, updated: 0, failed: 0 });
      expect(await writes()).toBe(before + 1);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it("links an observer to a second observee, and refuses a role the course's account lacks", async () => {
    await ensureBuilt();
    const { dir, env } = e2eWorkspace('sis-observers');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock(env);
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    try {
      const header = 'course_id,user_id,role,section_id,status,associated_user_id\n';
      const roles = join(dir, 'roles.csv');
      writeFileSync(roles, `${header}BIO-101,S-008,student,,active,\nBIO-101,S-008,Marker,,active,\n`);
      const refused = await spawnLms(['enrollments', 'import', roles], remote);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('roles.csv:3: role "Marker" is not an active role of account');

      // The seeded school: Olive (O-013) observes Sam (S-007) in BIO-101.
      const observe = join(dir, 'observe.csv');
      writeFileSync(observe, `${header}BIO-101,O-013,observer,,active,S-007\nBIO-101,O-013,observer,,active,S-008\n`);
      const r = await spawnLms(['enrollments', 'import', '--update', observe, '-o', 'json'], remote);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, existed: 1, failed: 0 });
      const listed = await spawnLms(
        ['enrollments', 'list', '--course', 'sis_course_id:BIO-101', '--type', 'observer', '-o', 'json'],
        remote,
      );
      const links = (JSON.parse(listed.stdout) as { associated_user_id: number }[]).map((e) => e.associated_user_id);
      expect(links.sort()).toEqual([7, 8]);
    } finally {
      await served.stop();
    }
  }, 60_000);
});

// `lms sis` over HTTP against `lms mock serve`: a zip posted as one multipart attachment, the
// server's job followed to its end, batch mode, a warning row, a `;` member sent as UTF-8 commas, an
// abort of an import that has not ended (the job held back by a long tick) and of one that has; and
// a server killed mid-import leaves an import that the next server reports failed, so no one waits
// on it for ever. And `lms users import` of a users.csv's suspended and active rows through the
// logins route and user[event], which the server's SIS job keeps in the same login state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms } from '../helpers/e2e.js';

const USERS = 'user_id,login_id,first_name,last_name,status\nu1,ada,Ada,Lovelace,active\nu2,alan,Alan,Turing,active\n';
const COURSES =
  'course_id,short_name,long_name,term_id,status\nC1,M1,Maths One,2026-FA,active\nC2,M2,Maths Two,2026-FA,active\n';
const ENROLLMENTS =
  'course_id,user_id,role,status\nC1,u1,student,active\nC2,u2,teacher,active\nC2,ghost,student,active\n';

const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([n, t]) => [n, strToU8(t)])));

describe('lms sis against lms mock serve', () => {
  it('imports a zip, warns of a row, then batch mode deletes what the batch no longer names', async () => {
    await ensureBuilt();
    const { dir, env } = e2eWorkspace('sis');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock(env);
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    try {
      const school = join(dir, 'school.zip');
      writeFileSync(school, zipOf({ 'users.csv': USERS, 'courses.csv': COURSES, 'enrollments.csv': ENROLLMENTS }));
      const first = await spawnLms(['sis', 'import', school, '-o', 'json'], remote);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({
        workflow_state: 'imported_with_messages',
        data: { counts: { users: 2, courses: 2, enrollments: 2, warning_count: 1 } },
      });
      expect(first.stderr).toContain('enrollments.csv: row 4: User not found');

      const onlyC1 = join(dir, 'c1.zip');
      writeFileSync(onlyC1, zipOf({ 'courses.csv': COURSES.split('\n').slice(0, 2).join('\n') }));
      const batch = await spawnLms(
        ['sis', 'import', onlyC1, '--batch-mode', '--batch-term', 'sis_term_id:2026-FA', '--yes', '-o', 'json'],
        remote,
      );
      expect(batch.exitCode, batch.stderr).toBe(0);
      expect(JSON.parse(batch.stdout)).toMatchObject({ data: { counts: { batch_courses_deleted: 1 } } });
      const gone = await spawnLms(['courses', 'get', 'sis_course_id:C2'], remote);
      expect(gone.exitCode).toBe(4);
      const listed = await spawnLms(['sis', 'list', '-o', 'json'], remote);
      expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(3);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('users import suspends, re-runs with no write and unsuspends; sis import keeps the same login state', async () => {
    await ensureBuilt();
    const { dir, env } = e2eWorkspace('sis-suspend');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock(env);
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    const states = async (user: string) => {
      const r = await spawnLms(['users', 'logins', user, '-o', 'json'], remote);
      return (JSON.parse(r.stdout) as { workflow_state: string }[]).map((l) => l.workflow_state);
    };
    try {
      const head = 'user_id,login_id,full_name,status\n';
      const suspend = join(dir, 'suspend.csv');
      writeFileSync(suspend, `${head}S-007,sam,Sam Student,suspended\nu9,kay,Kay Nine,suspended\n`);
      const asked = await spawnLms(['users', 'import', '--update', suspend], remote);
      expect(asked.exitCode).toBe(2);
      expect(asked.stderr).toContain('--yes');
      const done = await spawnLms(['users', 'import', '--update', '--yes', suspend, '-o', 'json'], remote);
      expect(done.exitCode, done.stderr).toBe(0);
      expect(JSON.parse(done.stdout)).toMatchObject({ created: 1, updated: 1, failed: 0 });
      expect(await states('sis_user_id:S-007')).toEqual(['suspended']);
      expect(await states('sis_user_id:u9')).toEqual(['suspended']);
      // The same rows as a spreadsheet saves them (CRLF), which no journal vouches for: the logins say
      // nothing differs.
      const again = join(dir, 'again.csv');
      const crlf = 'S-007,sam,Sam Student,suspended\r\nu9,kay,Kay Nine,suspended\r\n';
      writeFileSync(again, `${head.replace('\n', '\r\n')}${crlf}`);
      const rerun = await spawnLms(['users', 'import', '--update', again, '-o', 'json'], remote);
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(JSON.parse(rerun.stdout)).toMatchObject({ existed: 2, updated: 0, created: 0 });

      const active = join(dir, 'active.csv');
      writeFileSync(active, `${head}S-007,sam,Sam Student,active\n`);
      const back = await spawnLms(['users', 'import', '--update', active, '-o', 'json'], remote);
      expect(back.exitCode, back.stderr).toBe(0);
      expect(JSON.parse(back.stdout)).toMatchObject({ updated: 1 });
      expect(await states('sis_user_id:S-007')).toEqual(['active']);

      // The instance's own SIS job suspends the same logins that users import reads.
      const nightly = join(dir, 'nightly.csv');
      writeFileSync(nightly, `${head}S-007,sam,Sam Student,suspended\n`);
      const job = await spawnLms(['sis', 'import', '--yes', nightly, '-o', 'json'], remote);
      expect(job.exitCode, job.stderr).toBe(0);
      expect(await states('sis_user_id:S-007')).toEqual(['suspended']);
      const agrees = await spawnLms(['users', 'import', '--update', nightly, '-o', 'json'], remote);
      expect(JSON.parse(agrees.stdout)).toMatchObject({ existed: 1, updated: 0 });
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('sends a ";" zip member as UTF-8 commas, names the import at once, and cannot abort it once ended', async () => {
    await ensureBuilt();
    const { dir, env } = e2eWorkspace('sis-dialects');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock(env);
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    try {
      const semi = join(dir, 'semi.zip');
      const users = 'user_id;login_id;full_name;status;integration_id\r\nu1;ada;Lovelace, Ada;active;IU1\r\n';
      writeFileSync(
        semi,
        zipOf({ 'nightly/users.csv': users, 'xlists.csv': 'xlist_course_id,section_id,status\nC1,S1,active\n' }),
      );
      const r = await spawnLms(['sis', 'import', semi, '-o', 'json'], remote);
      expect(r.exitCode, r.stderr).toBe(0);
      const done = JSON.parse(r.stdout) as { id: number };
      expect(done).toMatchObject({ workflow_state: 'imported_with_messages', data: { counts: { users: 1 } } });
      expect(r.stderr).toContain(`SIS import ${done.id} created; follow it with lms sis status ${done.id}`);
      expect(r.stderr).toContain('xlists.csv: this mock does not apply xlists rows; 1 row skipped');
      const ada = await spawnLms(['users', 'get', 'sis_user_id:u1', '-o', 'json'], remote);
      expect(JSON.parse(ada.stdout)).toMatchObject({ name: 'Lovelace, Ada', login_id: 'ada', integration_id: 'IU1' });
      const abort = await spawnLms(['sis', 'abort', String(done.id)], remote);
      expect(abort.exitCode).toBe(4);
      expect(abort.stderr).toContain(`SIS import ${done.id} had already ended imported_with_messages`);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('aborts an import that has not ended; status then exits 1', async () => {
    await ensureBuilt();
    const { env } = e2eWorkspace('sis-abort');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const served = await serveMock({ ...env, LMS_MOCK_JOB_TICK_MS: '60000' });
    const remote = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: ADMIN };
    try {
      const form = new FormData();
      form.append('attachment', new Blob([USERS], { type: 'text/csv' }), 'users.csv');
      const res = await fetch(`${served.url}/api/v1/accounts/1/sis_imports?import_type=instructure_csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'user-agent': 'lms-test' },
        body: form,
      });
      expect(res.status).toBe(200);
      const { id, workflow_state } = (await res.json()) as { id: number; workflow_state: string };
      expect(workflow_state).toBe('created');
      const aborted = await spawnLms(['sis', 'abort', String(id), '-o', 'json'], remote);
      expect(aborted.exitCode, aborted.stderr).toBe(0);
      expect(JSON.parse(aborted.stdout)).toMatchObject({ id, workflow_state: 'aborted' });
      const status = await spawnLms(['sis', 'status', String(id)], remote);
      expect(status.exitCode).toBe(1);
      expect(status.stderr).toContain(`SIS import ${id} ended aborted`);
    } finally {
      await served.stop();
    }
  }, 60_000);
  it('a server killed mid-import leaves an import the next server reports failed', async () => {
    await ensureBuilt();
    const { env } = e2eWorkspace('sis-orphan');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const first = await serveMock({ ...env, LMS_MOCK_JOB_TICK_MS: '60000' });
    const form = new FormData();
    form.append('attachment', new Blob([USERS], { type: 'text/csv' }), 'users.csv');
    const res = await fetch(`${first.url}/api/v1/accounts/1/sis_imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'user-agent': 'lms-test' },
      body: form,
    });
    const { id } = (await res.json()) as { id: number };
    first.child.kill('SIGKILL');
    await first.child.catch(() => undefined);
    const second = await serveMock(env);
    try {
      const status = await spawnLms(['sis', 'status', String(id), '-o', 'json'], {
        ...env,
        LMS_BASE_URL: second.url,
        LMS_TOKEN: ADMIN,
      });
      expect(status.exitCode).toBe(1);
      expect(JSON.parse(status.stdout)).toMatchObject({ id, workflow_state: 'failed' });
      expect(status.stderr).toContain('the server stopped before this job finished');
    } finally {
      await second.stop();
    }
  }, 60_000);
});

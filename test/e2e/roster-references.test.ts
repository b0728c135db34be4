// End to end: a roster naming a user who does not exist, imported by the built binary over HTTP from
// `lms mock serve`, is refused whole before anything is written — exit 2, the line named, the course's
// roster as it was — and with --skip-invalid only that row is left out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-roster-references');
let server: Served;

const lms = (line: string[]) => spawnLms(line, { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: ADMIN });

/** HIST-110's live enrollments as `user_id role`, read back from the server. */
async function roster(): Promise<string[]> {
  const r = await lms([
    'enrollments',
    'list',
    '--course',
    'sis_course_id:HIST-110',
    '--state',
    'active',
    '--state',
    'invited',
    '--state',
    'inactive',
    '--all',
    '-o',
    'json',
    '--fields',
    'user_id,role',
  ]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { user_id: number; role: string }[]).map((e) => `${e.user_id} ${e.role}`).sort();
}

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock(env, ['--quiet']);
});

afterAll(async () => {
  await server?.stop();
});

describe('enrollments import with an unknown user', () => {
  it('exits 2 naming the line, and enrolls no one; --skip-invalid enrolls the rest', async () => {
    const file = join(dir, 'roster.csv');
    writeFileSync(file, 'user,type\nsam,student\nghost,student\nsis_user_id:S-008,student\n');
    const before = await roster();
    expect(before).not.toContain('7 StudentEnrollment');

    for (const flags of [['--dry-run'], []]) {
      // -v lists every request on stderr: none may write.
      const r = await lms(['-v', 'enrollments', 'import', '--course', 'sis_course_id:HIST-110', ...flags, file]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('roster.csv has 1 problem; nothing was written');
      expect(r.stderr).toContain('roster.csv:3: user "ghost" not found');
      expect(r.stderr).toMatch(/→ GET \S+\/api\/v1\/users\/sis_login_id:ghost/);
      expect(r.stderr).not.toMatch(/→ (POST|PUT|DELETE) /);
    }
    expect(await roster()).toEqual(before);

    const skipped = await lms([
      'enrollments',
      'import',
      '--course',
      'sis_course_id:HIST-110',
      '--skip-invalid',
      file,
      '-o',
      'json',
    ]);
    expect(skipped.exitCode, skipped.stderr).toBe(1);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ created: 2, failed: 0, invalid: 1 });
    expect(await roster()).toEqual([...before, '7 StudentEnrollment', '8 StudentEnrollment'].sort());
  }, 60_000);
});

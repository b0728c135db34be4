// Through the built binary: a dry run that predicts failures exits as its run does, and with -o json
// a bulk command's stderr is one JSON object a script can parse, whether the job succeeded or not.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, root, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-bulk-exits');
const mock = (name: string) => ({
  ...env,
  LMS_MOCK: '1',
  LMS_MOCK_DB: join(dir, `${name}.db`),
  LMS_STATE_DIR: join(dir, `state-${name}`),
});

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** stderr (its final newline taken off by execa) as the one JSON object it must be. */
function onlyObject(stderr: string): Record<string, unknown> {
  expect(stderr.split('\n')).toHaveLength(1);
  return JSON.parse(stderr) as Record<string, unknown>;
}

beforeAll(ensureBuilt);

describe('a dry run that predicts rows left undone', () => {
  it('exits 1, as the run does', async () => {
    // Sections that do not exist are found before anything is sent; --skip-invalid skips their rows.
    const roster = file(
      'roster.csv',
      'user,type,section\n7,student,sis_section_id:NOPE-1\n8,student,sis_section_id:NOPE-2\n' +
        '9,student,sis_section_id:NOPE-3\n',
    );
    const plan = await spawnLms(
      ['enrollments', 'import', '--course', '3', '--dry-run', '--skip-invalid', roster],
      mock('dry'),
    );
    expect(plan.stderr).toContain('roster.csv:2: section "sis_section_id:NOPE-1" not found');
    expect(plan.stderr.split('\n').at(-1)).toBe('error: dry run: 3 invalid rows would be skipped');
    expect(plan.exitCode).toBe(1);
    const run = await spawnLms(['enrollments', 'import', '--course', '3', '--skip-invalid', roster], mock('dry'));
    expect(run.exitCode).toBe(1);
  }, 30_000);
});

describe('-o json on a bulk command', () => {
  it('grade --csv: the summary is one JSON object on stderr', async () => {
    const csv = join(root, 'test/fixtures/grading/lab-report.csv');
    const r = await spawnLms(['grade', '--course', '1', '--assignment', '1', '--csv', csv, '-o', 'json'], {
      ...mock('grade'),
      LMS_TOKEN: '3~mock-tteacher',
    });
    expect(r.exitCode, r.stderr).toBe(0);
    // Lucas resubmitted after his 20: the same grade in the file grades his new attempt.
    expect(onlyObject(r.stderr)).toEqual({
      summary: expect.stringMatching(/^Graded 6 grades in \d+\.\d s: 5 updated, 1 unchanged, 0 failed\.$/),
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 5, unchanged: 1, failed: 0 });
  }, 30_000);

  it('users import with refused rows: summary, row errors ' +
    'and the failed-rows file in the one error object', async () => {
    const users = file('users.csv', 'name,login_id,sis_user_id\nAna,ana,\nBo,bo,SIS-B\n');
    const failedOut = join(dir, 'failed.csv');
    const r = await spawnLms(['users', 'import', users, '--failed-out', failedOut, '-o', 'json'], {
      ...mock('users'),
      LMS_TOKEN: '2~mock-helpdesk',
    });
    expect(r.exitCode).toBe(1);
    expect(onlyObject(r.stderr)).toMatchObject({
      error: 'RowsFailedError',
      message: '1 of 2 rows failed',
      exit_code: 1,
      summary: expect.stringContaining('1 created, 0 already existed, 1 failed'),
      attention: [{ line: 3, login_id: 'bo', status: 'failed' }],
      failed_out: failedOut,
    });
    expect(readFileSync(failedOut, 'utf8')).toMatch(/^name,login_id,sis_user_id,error\nBo,bo,SIS-B,/);
  }, 30_000);
});

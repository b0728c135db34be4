// Bulk commands tell the truth in their exit codes and on stderr: a dry run exits as its run would,
// rows skipped as invalid fail the job, `-o json` leaves exactly one JSON object on stderr, and
// --failed-out writes a file only when there are rows to put in it.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session, type Session } from '../helpers/run-lms.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-exits-'));
  return {
    dir,
    env: { LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

const grading = new URL('../fixtures/grading/lab-report.csv', import.meta.url).pathname;
const TEACHER = '3~mock-tteacher';
const HELPDESK = '2~mock-helpdesk';
/** Three rows naming sections that do not exist: found before anything is sent, and skipped with --skip-invalid. */
const MISSING_SECTIONS =
  'user,type,section\n7,student,sis_section_id:NOPE-1\n8,student,sis_section_id:NOPE-2\n' +
  '9,student,sis_section_id:NOPE-3\n';
const OUTCOME_V1 = 'outcomes:\n  - title: One\n    vendor_guid: o1\n    ratings: ["3:Yes", "0:No"]\n';
/** Renames an outcome that exists: its own title is not the API's to change, so the row fails. */
const OUTCOME_V2 =
  'outcomes:\n  - title: Uno\n    vendor_guid: o1\n    ratings: ["3:Yes", "0:No"]\n  - title: Two\n    vendor_guid: ' +
  'o2\n';

/** A server that keeps no grade for user 9, whichever way it is sent. */
function dropsUser9(lms: Session): void {
  const real = lms.mock.handler;
  lms.mock.handler = async (req: ApiRequest) => {
    if (req.method === 'PUT' && /\/submissions\/9(\?|$)/.test(req.url))
      return {
        status: 422,
        headers: { 'content-type': 'application/json' },
        body: '{"errors":[{"message":"grade refused"}]}',
      };
    if (typeof req.body === 'string' && req.url.includes('update_grades'))
      return real({ ...req, body: req.body.replace(/grade_data%5B9%5D%5Bposted_grade%5D=18&?/, '') });
    return real(req);
  };
}

interface Case {
  /** Files the command lines name as {name}. */
  files: Record<string, string>;
  /** Run first, each must exit 0. */
  setup?: string[];
  line: string;
  env?: Record<string, string>;
  prepare?: (lms: Session) => void;
}

async function prepared(c: Case) {
  const w = workspace();
  const lms = session(w.env);
  const fill = (line: string) =>
    line.replace(/\{([\w.-]+)\}/g, (_, name: string) =>
      c.files[name] !== undefined
        ? w.file(name, c.files[name])
        : name === 'lab-report.csv'
          ? grading
          : join(w.dir, name),
    );
  for (const line of c.setup ?? []) {
    const r = await lms.run(fill(line), { env: c.env });
    expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
  }
  c.prepare?.(lms);
  return { w, lms, run: (extra = '') => lms.run(`${fill(c.line)}${extra}`, { env: c.env }) };
}

describe('a dry run exits as its run does', () => {
  const cases: [string, Case & { code: number; says: string }][] = [
    [
      'enrollments import --skip-invalid, rows naming sections that do not exist',
      {
        files: { 'r.csv': MISSING_SECTIONS },
        line: 'enrollments import --course 3 --skip-invalid {r.csv}',
        code: 1,
        says: 'r.csv:2: section "sis_section_id:NOPE-1" not found',
      },
    ],
    [
      'users import --update, a difference the API cannot make',
      {
        files: { 'u.csv': 'name,login_id,email\nSam Student,sam,sam@school.example\n' },
        line: 'users import --update {u.csv}',
        code: 1,
        says: '1 would fail',
      },
    ],
    [
      'outcomes import, a new title for an existing outcome',
      {
        files: { 'v1.yaml': OUTCOME_V1, 'v2.yaml': OUTCOME_V2 },
        setup: ['outcomes import --course 1 {v1.yaml}'],
        line: 'outcomes import --course 1 {v2.yaml}',
        code: 1,
        says: '1 would fail',
      },
    ],
    [
      'users import --skip-invalid, a row skipped',
      {
        files: { 'u.csv': 'name,login_id\nAna,ana\n,bo\n' },
        line: 'users import --skip-invalid {u.csv}',
        code: 1,
        says: 'u.csv:3: name is empty',
      },
    ],
    [
      'users import, every row fine',
      {
        files: { 'u.csv': 'name,login_id\nAna,ana\nBo,bo\n' },
        line: 'users import {u.csv}',
        code: 0,
        says: '2 would be created',
      },
    ],
  ];

  it.each(cases)('%s', async (_what, c) => {
    const { run } = await prepared(c);
    const plan = await run(' --dry-run');
    expect(plan.stderr).toContain(c.says);
    expect(plan.exitCode, plan.stderr).toBe(c.code);
    if (c.code) expect(plan.stderr).toMatch(/^error: dry run: .*(would fail|would be skipped)$/m);
    const applied = await run();
    expect(applied.exitCode, applied.stderr).toBe(c.code);
  });

  it('names both what would fail and what would be skipped', async () => {
    const { run } = await prepared({
      files: { 'u.csv': 'name,login_id,email\nSam Student,sam,sam@school.example\n,bo,\n' },
      line: 'users import --update --skip-invalid {u.csv}',
    });
    const plan = await run(' --dry-run');
    expect(plan.exitCode).toBe(1);
    expect(plan.stderr).toContain('error: dry run: 1 of 1 rows would fail; 1 invalid row would be skipped\n');
  });
});

describe('--skip-invalid', () => {
  it('exits 1 when it skipped rows, after importing the rest', async () => {
    const { lms, run } = await prepared({
      files: { 'u.csv': 'name,login_id\nAna,ana\n,bo\nCy,cy\n' },
      line: 'users import --skip-invalid {u.csv}',
    });
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, invalid: 1 });
    expect(r.stderr).toContain('error: 1 invalid row skipped\n');
    expect(JSON.parse((await lms.run('users get sis_login_id:cy -o json')).stdout)).toMatchObject({ login_id: 'cy' });
  });
});

describe('with -o json, stderr is exactly one JSON object', () => {
  const cases: [string, Case & { code: number; expected: Record<string, unknown> }][] = [
    [
      'users import, rows refused, with --failed-out',
      {
        files: { 'u.csv': 'name,login_id,sis_user_id\nAna,ana,\nBo,bo,SIS-B\n' },
        env: { LMS_TOKEN: HELPDESK },
        line: 'users import {u.csv} --failed-out {failed.csv}',
        code: 1,
        expected: {
          error: 'RowsFailedError',
          message: '1 of 2 rows failed',
          summary: expect.stringMatching(/^Imported 2 rows in \d+\.\d s: 1 created, 0 already existed, 1 failed\.$/),
          attention: [{ line: 3, login_id: 'bo', status: 'failed', error: expect.stringContaining('not authorized') }],
          failed_out: expect.stringMatching(/failed\.csv$/),
          notes: [
            expect.stringMatching(/^Failed rows are in .*failed\.csv; fix them and import that file as it is\.$/),
            'Re-running this command retries only the rows that are not done.',
          ],
        },
      },
    ],
    [
      'users import, every row created',
      {
        files: { 'u.csv': 'name,login_id\nAna,ana\n' },
        line: 'users import {u.csv}',
        code: 0,
        expected: { summary: expect.stringContaining('1 created') },
      },
    ],
    [
      'users import --skip-invalid',
      {
        files: { 'u.csv': 'name,login_id\nAna,ana\n,bo\n' },
        line: 'users import --skip-invalid {u.csv}',
        code: 1,
        expected: {
          message: '1 invalid row skipped',
          attention: [{ line: 3, login_id: 'bo', status: 'invalid', error: 'name is empty' }],
        },
      },
    ],
    [
      'users import --dry-run, rows that would fail',
      {
        files: { 'u.csv': 'name,login_id,email\nSam Student,sam,sam@school.example\n' },
        line: 'users import --update --dry-run {u.csv}',
        code: 1,
        expected: {
          message: 'dry run: 1 of 1 rows would fail',
          summary: expect.stringMatching(/^Dry run: .*1 would fail\. Nothing was written\.$/),
          attention: [{ line: 2, login_id: 'sam', status: 'failed' }],
        },
      },
    ],
    [
      'enrollments import --sync, held back by a failed row',
      {
        // No role of that name: the API refuses the enrollment (a teacher may not read the roles to
        // check them first).
        files: { 'r.csv': 'user,type,role\n7,student,\n8,,Dean\n' },
        line: 'enrollments import --course 1 --sync --yes {r.csv}',
        env: { LMS_TOKEN: TEACHER },
        code: 1,
        expected: {
          attention: [{ line: 3, user: '8', status: 'failed' }],
          warnings: [expect.stringContaining('--sync concluded nothing: 1 row failed')],
        },
      },
    ],
    [
      'enrollments import --dry-run --skip-invalid',
      {
        files: { 'r.csv': MISSING_SECTIONS },
        line: 'enrollments import --course 3 --dry-run --skip-invalid {r.csv}',
        code: 1,
        expected: { message: 'dry run: 3 invalid rows would be skipped' },
      },
    ],
    [
      'outcomes import, a row refused',
      {
        files: { 'v1.yaml': OUTCOME_V1, 'v2.yaml': OUTCOME_V2 },
        setup: ['outcomes import --course 1 {v1.yaml}'],
        line: 'outcomes import --course 1 {v2.yaml}',
        code: 1,
        expected: {
          attention: [
            { line: 2, vendor_guid: 'o1', status: 'failed', error: expect.stringContaining('title "One" → "Uno"') },
          ],
        },
      },
    ],
    [
      'grade --csv, a grade the server did not keep',
      {
        files: {},
        env: { LMS_TOKEN: TEACHER },
        prepare: dropsUser9,
        line: 'grade --course 1 --assignment 1 --csv {lab-report.csv} --failed-out {failed.csv}',
        code: 1,
        expected: {
          error: 'RowsFailedError',
          message: '1 of 6 grades failed',
          summary: expect.stringMatching(/^Graded 6 grades in \d+\.\d s: 4 updated, 1 unchanged, 1 failed\.$/),
          attention: [{ line: 4, user: '9', assignment_id: 1, status: 'failed', error: 'the server kept null' }],
          failed_out: expect.stringMatching(/failed\.csv$/),
          notes: [expect.stringContaining('fix them and grade that file as it is')],
        },
      },
    ],
    [
      'grade --csv --per-row, a grade refused',
      {
        files: {},
        env: { LMS_TOKEN: TEACHER },
        prepare: dropsUser9,
        line: 'grade --course 1 --assignment 1 --csv {lab-report.csv} --per-row',
        code: 1,
        expected: {
          attention: [{ line: 4, user: '9', status: 'failed', error: expect.stringContaining('grade refused') }],
        },
      },
    ],
    [
      'grade --csv, every grade kept',
      {
        files: {},
        env: { LMS_TOKEN: TEACHER },
        line: 'grade --course 1 --assignment 1 --csv {lab-report.csv}',
        code: 0,
        expected: { summary: expect.stringContaining('5 updated, 1 unchanged, 0 failed') },
      },
    ],
    [
      'grade --csv --dry-run',
      {
        files: {},
        env: { LMS_TOKEN: TEACHER },
        line: 'grade --course 1 --assignment 1 --csv {lab-report.csv} --dry-run',
        code: 0,
        expected: { summary: 'Dry run: 5 grades to change, 1 unchanged. Nothing was sent.' },
      },
    ],
  ];

  it.each(cases)('%s', async (_what, c) => {
    const { run } = await prepared(c);
    const r = await run(' -o json');
    expect(r.exitCode, r.stderr).toBe(c.code);
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(r.stderr) as Record<string, unknown>;
    expect(report).toMatchObject(c.expected);
    expect(typeof report.summary).toBe('string');
    if (c.code) expect(report).toMatchObject({ error: 'RowsFailedError', exit_code: c.code });
    else expect(report).not.toHaveProperty('error');
    // The results are still on stdout, as JSON.
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
  });

  it('LMS_OUTPUT=json counts like -o json', async () => {
    const { run } = await prepared({
      files: { 'u.csv': 'name,login_id\nAna,ana\n,bo\n' },
      line: 'users import --skip-invalid {u.csv}',
      env: { LMS_OUTPUT: 'json' },
    });
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: 'RowsFailedError',
      attention: [{ line: 3, status: 'invalid' }],
    });
  });

  it('without -o json, the same report is lines of text', async () => {
    const { run } = await prepared({
      files: { 'u.csv': 'name,login_id,sis_user_id\nAna,ana,\nBo,bo,SIS-B\n' },
      env: { LMS_TOKEN: HELPDESK },
      line: 'users import {u.csv}',
    });
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^Imported 2 rows in \d+\.\d s: 1 created, 0 already existed, 1 failed\.\n {2}\S*u\.csv:3 \(login_id bo\): failed: .*not authorized.*\nRe-running this command retries only the rows that are not done\.\nerror: 1 of 2 rows failed\n$/,
    );
  });
});

describe('--failed-out', () => {
  const cases: [string, Case & { earlier?: string }][] = [
    [
      'users import, nothing failed',
      { files: { 'u.csv': 'name,login_id\nAna,ana\n' }, line: 'users import {u.csv} --failed-out {failed.csv}' },
    ],
    [
      'users import, nothing failed, an earlier run left a file',
      {
        files: { 'u.csv': 'name,login_id\nAna,ana\n' },
        line: 'users import {u.csv} --failed-out {failed.csv}',
        earlier: 'name,login_id,error\nAna,ana,earlier\n',
      },
    ],
    [
      'outcomes import, nothing failed',
      { files: { 'v1.yaml': OUTCOME_V1 }, line: 'outcomes import --course 1 {v1.yaml} --failed-out {failed.csv}' },
    ],
    [
      'grade --csv, nothing failed',
      {
        files: {},
        env: { LMS_TOKEN: TEACHER },
        line: 'grade --course 1 --assignment 1 --csv {lab-report.csv} --failed-out {failed.csv}',
      },
    ],
    [
      'grade --csv, nothing failed, an earlier run left a file',
      {
        files: {},
        env: { LMS_TOKEN: TEACHER },
        line: 'grade --course 1 --assignment 1 --csv {lab-report.csv} --failed-out {failed.csv}',
        earlier: 'user,grade,comment,error\n9,18,,earlier\n',
      },
    ],
  ];

  it.each(cases)('%s: no file is written', async (_what, c) => {
    const { w, run } = await prepared(c);
    const path = join(w.dir, 'failed.csv');
    if (c.earlier !== undefined) writeFileSync(path, c.earlier);
    const r = await run();
    expect(r.exitCode, r.stderr).toBe(0);
    if (c.earlier === undefined) {
      expect(existsSync(path)).toBe(false);
      expect(r.stderr).not.toContain('failed.csv');
    } else {
      expect(readFileSync(path, 'utf8')).toBe(c.earlier);
      expect(r.stderr).toContain(`Nothing failed, so ${path} was not written; the file there is left as it was.`);
    }
  });

  it('a file left as it was is a note in the JSON report', async () => {
    const { w, run } = await prepared({
      files: { 'u.csv': 'name,login_id\nAna,ana\n' },
      line: 'users import {u.csv} --failed-out {failed.csv}',
    });
    writeFileSync(join(w.dir, 'failed.csv'), 'name,login_id,error\n');
    const r = await run(' -o json');
    expect(JSON.parse(r.stderr)).toEqual({
      summary: expect.any(String),
      notes: [expect.stringContaining('was not written')],
    });
  });
});

describe('the summary line', () => {
  it.each([
    [1, 'Imported 1 row in'],
    [2, 'Imported 2 rows in'],
  ])('%i row(s): %s', async (n, words) => {
    const w = workspace();
    const rows = Array.from({ length: n }, (_, i) => `Row ${i},row.${i}\n`).join('');
    const r = await session(w.env).run([
      'users',
      'import',
      w.file('u.csv', `name,login_id\n${rows}`),
      '--account',
      '1',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(words);
  });
});

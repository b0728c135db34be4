// End to end: `lms grade --csv` over HTTP against `lms mock serve`. A run whose Progress is followed
// to its end; 150 rows (`npm run soak`: 2,000) against a throttling, failing, dropping server; and a
// run killed with -9 midway then re-run. Whatever happened, the final grades equal the file, and no submission gains
// more than one version for its row, nor a comment twice.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/mock/db/driver.js';
import { interpretGrade } from '../../src/spec/grading.js';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { value } from '../helpers/sql.js';

const { dir, env } = e2eWorkspace('e2e-grading');
const db = join(dir, 'school.db');
const local = { ...env, LMS_MOCK_DB: db };
const servers: Served[] = [];

/**
 * The default run keeps the suite short; `npm run soak` sets LMS_SOAK_ROWS for the long one. Enough rows that the
 * file has every kind of grade (a percentage, pass, half points) and a comment on several submissions.
 */
const STUDENTS = Number(process.env.LMS_SOAK_ROWS ?? 150);
/** The first run's file: one batch of update_grades, whatever the row count. */
const FIRST = Math.min(300, STUDENTS);
/** The faulty server's file goes in at least two batches. */
const FAULTY_BATCH = String(Math.min(250, Math.ceil(STUDENTS / 2)));
/** The run killed midway goes in at least ten batches, one at a time, so the kill lands between them. */
const KILL_BATCH = String(Math.min(50, Math.ceil(STUDENTS / 10)));
/** The generated course: every generated user is a student of it. */
const COURSE = 'sis_course_id:GEN-C1';

/** A grade for generated student n (points, percentages and pass on a 100-point assignment). */
function gradeFor(n: number, salt: number): string {
  const k = (n * 37 + salt * 11) % 100;
  return n % 10 === 0 ? `${k}%` : n % 97 === 0 ? 'pass' : String(k + (n % 3 === 0 ? 0.5 : 0));
}

/** The file: students by login, by SIS id (both forms) and by the SIS id alone, in a shuffled order. */
function writeGrades(name: string, salt: number, count = STUDENTS): string {
  const lines = ['user,grade,comment'];
  for (let i = 0; i < count; i++) {
    const n = ((i * 7919) % count) + 1;
    const user = [`gen${n}`, `sis_user_id:GEN-${n}`, `sis_login_id:gen${n}`][n % 3];
    lines.push(`${user},${gradeFor(n, salt)},${n % 50 === 0 ? `note ${n}` : ''}`);
  }
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** login → [score, grade] as the server's database holds them for an assignment, and versions per submission. */
function held(assignment: number): {
  grades: Map<string, [number | null, string | null]>;
  maxVersions: number;
  versions: number;
} {
  const conn = openSqlite(db, { readonly: true });
  try {
    const rows = conn
      .prepare(
        'SELECT p.unique_id AS login, s.score, s.grade FROM submissions s JOIN pseudonyms p ON p.user_id = ' +
          's.user_id WHERE s.assignment_id = ?',
      )
      .all(assignment) as { login: string; score: number | null; grade: string | null }[];
    const v = conn
      .prepare(
        'SELECT count(*) AS n, coalesce(max(c), 0) AS m FROM (SELECT count(*) AS c FROM submission_versions WHERE ' +
          'assignment_id = ? GROUP BY submission_id)',
      )
      .get(assignment) as { n: number; m: number };
    const total = value(conn, `SELECT count(*) FROM submission_versions WHERE assignment_id = ?`, assignment) as number;
    return { grades: new Map(rows.map((r) => [r.login, [r.score, r.grade]])), maxVersions: v.m, versions: total };
  } finally {
    conn.close();
  }
}

function expectFileHeld(assignment: number, salt: number): void {
  const { grades } = held(assignment);
  const wrong: string[] = [];
  for (let n = 1; n <= STUDENTS; n++) {
    const want = interpretGrade({ grading_type: 'points', points_possible: 100 }, gradeFor(n, salt));
    const got = grades.get(`gen${n}`);
    if (!('score' in want) || !got || got[0] !== want.score || got[1] !== want.grade)
      wrong.push(`gen${n}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
  }
  expect(wrong.slice(0, 5)).toEqual([]);
}

/** Every comment of the file on its submission exactly once: none lost, none posted twice. */
function expectCommentsOnce(assignment: number): void {
  const conn = openSqlite(db, { readonly: true });
  try {
    const counts = conn
      .prepare(
        'SELECT count(*) AS n FROM submission_comments c JOIN submissions s ON s.id = c.submission_id WHERE ' +
          's.assignment_id = ? GROUP BY c.submission_id',
      )
      .all(assignment) as { n: number }[];
    expect({ submissions: counts.length, most: Math.max(0, ...counts.map((c) => c.n)) }).toEqual({
      submissions: Math.floor(STUDENTS / 50),
      most: 1,
    });
  } finally {
    conn.close();
  }
}

async function newAssignment(name: string): Promise<number> {
  const r = await spawnLms(
    [
      '--mock',
      'assignments',
      'create',
      '--course',
      COURSE,
      '--name',
      name,
      '--points',
      '100',
      '-o',
      'json',
      '--fields',
      'id',
    ],
    local,
  );
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: number }).id;
}

interface Summary {
  updated: number;
  unchanged: number;
  failed: number;
}

/** Runs the grading until it succeeds; each run exits 0 or 1 (rows failed) and prints its results. */
async function gradeUntilDone(http: Record<string, string>, args: string[]): Promise<Summary[]> {
  const summaries: Summary[] = [];
  for (let run = 0; run < 6; run++) {
    const r = await spawnLms(['grade', ...args, '-o', 'json'], http);
    expect([0, 1], r.stderr).toContain(r.exitCode);
    summaries.push(JSON.parse(r.stdout) as Summary);
    if (r.exitCode === 0) return summaries;
  }
  throw new Error(`grading ${args.join(' ')} still had failed rows after 6 runs`);
}

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(
    ['--mock', 'mock', 'seed', '--yes', '--users', String(STUDENTS), '--courses', '1'],
    local,
  );
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  servers.push(await serveMock(local, ['--quiet']));
  servers.push(
    await serveMock(local, [
      '--quiet',
      '--throttle',
      '--throttle-rate',
      '3000',
      '--fail-rate',
      '0.1',
      '--drop-rate',
      '0.02',
      '--fault-seed',
      '5',
    ]),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('lms grade --csv against lms mock serve', () => {
  it('sends the file through update_grades, follows the Progress to its end, and reads every row back', async () => {
    const assignment = await newAssignment('Midterm');
    const http = { ...env, LMS_BASE_URL: servers[0].url, LMS_TOKEN: ADMIN };
    const file = writeGrades('midterm', 1, FIRST);
    const dry = await spawnLms(
      ['grade', '--course', COURSE, '--assignment', String(assignment), '--csv', file, '--dry-run', '-o', 'json'],
      http,
    );
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dry_run: true,
      updated: FIRST,
      unchanged: 0,
      failed: 0,
      rows: expect.any(Array),
    });
    expect(held(assignment).versions).toBe(0);
    const r = await spawnLms(
      ['grade', '--course', COURSE, '--assignment', String(assignment), '--csv', file, '-v', '-o', 'json'],
      http,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: FIRST, unchanged: 0, failed: 0 });
    // -v: the Progress's lines, to the end; one update_grades request for one batch.
    expect(r.stderr).toMatch(new RegExp(`grading ${FIRST} rows of assignment \\d+ 100% completed`));
    expect(r.stderr.match(/→ POST \S+\/submissions\/update_grades/g)).toHaveLength(1);
    expect(held(assignment)).toMatchObject({ versions: FIRST, maxVersions: 1 });
  }, 60_000);

  it('ends with the grades of the file under throttling, 5xx and dropped connections', async () => {
    const assignment = await newAssignment('Final Exam');
    const http = { ...env, LMS_BASE_URL: servers[1].url, LMS_TOKEN: ADMIN };
    const file = writeGrades('final', 2);
    const runs = await gradeUntilDone(http, [
      '--course',
      COURSE,
      '--assignment',
      String(assignment),
      '--csv',
      file,
      '--batch-size',
      FAULTY_BATCH,
    ]);
    expect(runs.at(-1)!.failed).toBe(0);
    expectFileHeld(assignment, 2);
    expect(held(assignment).maxVersions).toBe(1);
    expectCommentsOnce(assignment);
    // Once done, a re-run finds every grade in place and sends nothing.
    const again = await spawnLms(
      ['grade', '--course', COURSE, '--assignment', String(assignment), '--csv', file, '-o', 'json'],
      http,
    );
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0, unchanged: STUDENTS, failed: 0 });
    expect(held(assignment).maxVersions).toBe(1);
  }, 180_000);

  it.each([
    // The re-run waits out --timeout for what the killed run left on the wire: both runs name the same short one,
    // ample for a mock that answers at once, so the wait is what either run allowed a request, not the default.
    // Small batches one at a time, so the kill lands between them; the re-run sends the rest at once.
    ['through update_grades', ['--batch-size', KILL_BATCH, '--concurrency', '1', '--timeout', '5'], ['--timeout', '5']],
    [
      'one PUT a row',
      ['--per-row', '--concurrency', '4', '--timeout', '5'],
      ['--per-row', '--concurrency', '4', '--timeout', '5'],
    ],
  ])(
    'ends with the grades of the file after a kill -9 midway (%s)',
    async (_how, flags, rerun) => {
      const assignment = await newAssignment(`Quiz ${flags.join(' ')}`);
      const http = {
        ...env,
        LMS_BASE_URL: servers[1].url,
        LMS_TOKEN: ADMIN,
        LMS_STATE_DIR: join(dir, `state-${assignment}`),
      };
      const file = writeGrades(`quiz-${assignment}`, assignment);
      const args = ['--course', COURSE, '--assignment', String(assignment), '--csv', file];
      const child = spawnLms(['grade', ...args, ...flags], http);
      const deadline = Date.now() + 60_000;
      while (held(assignment).versions < STUDENTS / 10 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGKILL');
      expect((await child).signal).toBe('SIGKILL');
      const partial = held(assignment).versions;
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(STUDENTS);
      await gradeUntilDone(http, [...args, ...rerun]);
      expectFileHeld(assignment, assignment);
      expect(held(assignment)).toMatchObject({ versions: STUDENTS, maxVersions: 1 });
      expectCommentsOnce(assignment);
    },
    240_000,
  );
});

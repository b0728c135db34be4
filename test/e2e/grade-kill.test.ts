// End to end: `lms grade --csv` through update_grades against `lms mock serve` with its latency
// raised, so batches are in flight and their jobs queued when the run is killed with -9 — after some
// batches' Progress was recorded, while a batch is in doubt (sent, no answer seen), and as the first
// batch goes out. The re-run starts at once. Counted through the API afterwards: every student has
// the file's comment exactly once, and the file's grade. The same for `--per-row`, killed while its
// PUTs are on the server. (`npm run soak`: LMS_SOAK_ROWS rows.)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpretGrade } from '../../src/spec/grading.js';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-grade-kill');
const local = { ...env, LMS_MOCK_DB: join(dir, 'school.db') };
let server: Served;

const STUDENTS = Math.min(Number(process.env.LMS_SOAK_ROWS ?? 150), 2000);
const COURSE = 'sis_course_id:GEN-C1';
/** About six batches, three in flight at once, whatever the row count. */
const BATCH = String(Math.max(25, Math.ceil(STUDENTS / 6)));
const gradeFor = (n: number, salt: number) => String((n * 31 + salt) % 100);
const commentFor = (n: number, salt: number) => `feedback ${salt} for student ${n}: see the rubric`;

function writeGrades(salt: number): string {
  const lines = ['user,grade,comment'];
  for (let n = 1; n <= STUDENTS; n++) lines.push(`gen${n},${gradeFor(n, salt)},${commentFor(n, salt)}`);
  const file = join(dir, `grades-${salt}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * What the batch journals under a state directory say so far: batches written down, and those whose Progress is
 * recorded.
 */
function journalled(stateDir: string): { sending: number; sent: number } {
  const root = join(stateDir, 'journals');
  const out = { sending: 0, sent: 0 };
  if (!existsSync(root)) return out;
  for (const d of readdirSync(root).filter((f) => f.startsWith('batches-'))) {
    for (const f of readdirSync(join(root, d))) {
      let text = '';
      try {
        text = readFileSync(join(root, d, f), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').filter(Boolean)) {
        try {
          const e = JSON.parse(line) as { status: string };
          if (e.status === 'sending') out.sending++;
          if (e.status === 'sent') out.sent++;
        } catch {
          // A line being written as we read.
        }
      }
    }
  }
  return out;
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

interface Held {
  user: { login_id: string };
  score: number | null;
  grade: string | null;
  submission_comments: { comment: string }[];
}

/** Every submission of the assignment with its comments, read through the API. */
async function readThroughApi(http: Record<string, string>, assignment: number): Promise<Held[]> {
  const r = await spawnLms(
    [
      'submissions',
      'list',
      '--course',
      COURSE,
      '--assignment',
      String(assignment),
      '--include',
      'submission_comments',
      '--include',
      'user',
      '--all',
      '-o',
      'json',
    ],
    http,
  );
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Held[];
}

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(
    ['--mock', 'mock', 'seed', '--yes', '--users', String(STUDENTS), '--courses', '1'],
    local,
  );
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  // Every answer waits, so batches are in flight and their jobs queued when the run is killed.
  server = await serveMock({ ...local, LMS_MOCK_JOB_TICK_MS: '150' }, ['--quiet', '--latency', '250']);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** The per-row journal's lines so far: rows started, and rows with an outcome. */
function rowsJournalled(stateDir: string): { started: number; ended: number } {
  const root = join(stateDir, 'journals');
  const out = { started: 0, ended: 0 };
  if (!existsSync(root)) return out;
  for (const f of readdirSync(root).filter((n) => n.endsWith('.ndjson'))) {
    for (const line of readFileSync(join(root, f), 'utf8').split('\n').filter(Boolean)) {
      try {
        if ((JSON.parse(line) as { status: string }).status === 'started') out.started++;
        else out.ended++;
      } catch {
        // A line being written as we read.
      }
    }
  }
  return out;
}

describe('lms grade --csv --per-row killed with -9 while its PUTs are on the server, then re-run at once', () => {
  it('posts every comment once and every grade', async () => {
    const assignment = await newAssignment('Essay per row');
    const stateDir = join(dir, `state-${assignment}`);
    const http = { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: stateDir };
    const file = writeGrades(assignment);
    const args = [
      'grade',
      '--course',
      COURSE,
      '--assignment',
      String(assignment),
      '--csv',
      file,
      '--per-row',
      '--concurrency',
      '4',
      '--timeout',
      '3',
      '-o',
      'json',
    ];
    const child = spawnLms(args, http);
    const deadline = Date.now() + 60_000;
    while (rowsJournalled(stateDir).ended < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 120));
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    const again = await spawnLms(args, http);
    expect(again.exitCode, again.stderr).toBe(0);
    const held = await readThroughApi(http, assignment);
    const wrong: string[] = [];
    for (const s of held) {
      const n = Number(/^gen(\d+)$/.exec(s.user.login_id)?.[1]);
      if (!n) continue;
      const comments = s.submission_comments.filter((c) => c.comment === commentFor(n, assignment)).length;
      if (comments !== 1) wrong.push(`gen${n}: ${comments} comments`);
      if (s.grade !== gradeFor(n, assignment)) wrong.push(`gen${n}: grade ${s.grade}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  }, 180_000);
});

describe('lms grade --csv killed with -9 while its batches are on the server, then re-run at once', () => {
  type Journalled = { sending: number; sent: number };
  it.each([
    ['after two batches were answered with their Progress', (j: Journalled) => j.sent >= 2, 0],
    // No Progress recorded to follow: only reading back, once the requests are past answering, can
    // tell. The kill waits a little past the journal's entry (well inside the mock's latency) so the
    // requests have reached the server, whose jobs then run after the run is gone.
    [
      'while every batch in flight is in doubt (sent, no answer seen)',
      (j: Journalled) => j.sent === 0 && j.sending >= 3,
      120,
    ],
    ['as the first batch goes out', (j: Journalled) => j.sending >= 1, 0],
  ])(
    'posts every comment once and every grade (%s)',
    async (_when, killWhen, pastEntry) => {
      const assignment = await newAssignment(`Essay ${_when}`);
      const stateDir = join(dir, `state-${assignment}`);
      const http = { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: stateDir };
      const file = writeGrades(assignment);
      const args = [
        'grade',
        '--course',
        COURSE,
        '--assignment',
        String(assignment),
        '--csv',
        file,
        '--batch-size',
        BATCH,
        '--concurrency',
        '3',
        '--timeout',
        '3',
        '-o',
        'json',
      ];

      const child = spawnLms(args, http);
      const deadline = Date.now() + 60_000;
      while (!killWhen(journalled(stateDir)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      if (pastEntry) await new Promise((r) => setTimeout(r, pastEntry));
      child.kill('SIGKILL');
      expect((await child).signal).toBe('SIGKILL');
      const atKill = journalled(stateDir);
      expect(killWhen(atKill)).toBe(true);

      const again = await spawnLms(args, http);
      expect(again.exitCode, again.stderr).toBe(0);
      // The re-run met the killed run's batches and settled them before sending anything.
      expect(again.stderr).toMatch(/an earlier run stopped with \d+ batch(es)? of grades unfinished/);
      const summary = JSON.parse(again.stdout) as { updated: number; unchanged: number; failed: number };
      expect(summary.failed).toBe(0);
      expect(summary.updated + summary.unchanged).toBe(STUDENTS);

      const held = await readThroughApi(http, assignment);
      const wrong: string[] = [];
      for (const s of held) {
        const n = Number(/^gen(\d+)$/.exec(s.user.login_id)?.[1]);
        if (!n) continue;
        const want = interpretGrade({ grading_type: 'points', points_possible: 100 }, gradeFor(n, assignment));
        const comments = s.submission_comments.filter((c) => c.comment === commentFor(n, assignment)).length;
        if (comments !== 1) wrong.push(`gen${n}: ${comments} comments`);
        if (!('score' in want) || s.score !== want.score || s.grade !== want.grade)
          wrong.push(`gen${n}: grade ${s.grade}`);
      }
      expect(wrong.slice(0, 10)).toEqual([]);
      expect(held.filter((s) => /^gen\d+$/.test(s.user.login_id))).toHaveLength(STUDENTS);
      // Once done, nothing is left behind to settle, and another run sends nothing.
      const third = await spawnLms(args, http);
      expect(third.exitCode, third.stderr).toBe(0);
      expect(third.stderr).not.toMatch(/earlier run stopped/);
      expect(JSON.parse(third.stdout)).toMatchObject({ updated: 0, unchanged: STUDENTS, failed: 0 });
    },
    180_000,
  );
});

// Bulk grading throughput against `lms mock serve --throttle` (issue: submissions and grading).
//
//   node bench/grade.mjs                      10,000 rows: the batch path, then the per-row path
//   node bench/grade.mjs --rows 2000 --rate 2000 --batch-size 1000
//
// One course of `rows` generated students and two 100-point assignments. The batch path
// (update_grades, a Progress per batch) grades one; the per-row path (--per-row, one PUT a row)
// the other. Figures of merit: batch rows/s at least 20× the per-row path's; the per-row path at
// ≥ 0.9 of the bucket's sustainable rate (rate/cost requests a second) with a handful of throttled
// answers at most. Both runs read every row back before they finish, and that time counts.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchEnv, startThrottledServer, throttledAmong, throttledFlags } from './throttled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const { flags, rows, rate, cost, capacity, sustainable } = throttledFlags({
  rows: { type: 'string', default: '10000' },
  'batch-size': { type: 'string', default: '2500' },
  out: { type: 'string', default: join(root, 'bench', 'grade-results.json') },
});
const { scratch, env } = scratchEnv('grade');

function lmsSync(args, extraEnv = {}) {
  const r = spawnSync(process.execPath, [lms, ...args], {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`lms ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r;
}

// The school: one generated course (GEN-C1) holding every generated student.
lmsSync(['--mock', 'mock', 'seed', '--yes', '--users', String(rows), '--courses', '1']);
const assignment = (name) =>
  JSON.parse(
    lmsSync([
      '--mock',
      'assignments',
      'create',
      '--course',
      'sis_course_id:GEN-C1',
      '--name',
      name,
      '--points',
      '100',
      '-o',
      'json',
    ]).stdout,
  ).id;
const batchAssignment = assignment('Bench Batch');
const rowAssignment = assignment('Bench Per Row');

const csv = join(scratch, 'grades.csv');
const lines = ['user,grade'];
for (let n = 1; n <= rows; n++) lines.push(`${n % 2 ? `gen${n}` : `sis_user_id:GEN-${n}`},${(n * 37) % 101}`);
writeFileSync(csv, `${lines.join('\n')}\n`);

const server = startThrottledServer(lms, env, { rate, cost, capacity });
const url = await server.url;

/** One timed run of `lms grade --csv`; its requests and throttled answers from the server's log. */
async function timed(label, args) {
  const before = server.requestLines().length;
  const throttledBefore = throttledAmong(server.requestLines());
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [lms, 'grade', '--course', 'sis_course_id:GEN-C1', '--csv', csv, ...args, '-o', 'json'],
    {
      env: { ...env, LMS_BASE_URL: url, LMS_TOKEN: '1~mock-admin' },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${label} exited ${run.status}:\n${run.stderr}`);
  const summary = JSON.parse(run.stdout);
  await new Promise((r) => setTimeout(r, 300));
  const all = server.requestLines();
  return {
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Number((rows / seconds).toFixed(1)),
    updated: summary.updated,
    failed: summary.failed,
    requests: all.length - before,
    throttled: throttledAmong(all) - throttledBefore,
  };
}

try {
  const batch = await timed('the batch path', [
    '--assignment',
    String(batchAssignment),
    '--batch-size',
    flags['batch-size'],
    '--concurrency',
    flags.concurrency,
  ]);
  const perRow = await timed('the per-row path', [
    '--assignment',
    String(rowAssignment),
    '--per-row',
    '--concurrency',
    flags.concurrency,
  ]);
  const speedup = batch.rowsPerSecond / perRow.rowsPerSecond;
  const fraction = perRow.requests / perRow.seconds / sustainable;
  const result = {
    date: new Date().toISOString(),
    rows,
    bucket: { capacity, cost, rate, sustainablePerSecond: sustainable },
    batch: { ...batch, batchSize: Number(flags['batch-size']) },
    perRow: {
      ...perRow,
      requestsPerSecond: Number((perRow.requests / perRow.seconds).toFixed(1)),
      fractionOfSustainable: Number(fraction.toFixed(3)),
    },
    speedup: Number(speedup.toFixed(1)),
  };
  writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `lms grade --csv of ${rows} rows against mock serve --throttle (capacity ${capacity}, cost ${cost}, drains ` +
      `${rate}/s → ${sustainable} requests/s sustainable)`,
  );
  console.log(
    `  batch (update_grades, ${flags['batch-size']} a batch): ${batch.seconds} s, ${batch.rowsPerSecond} rows/s, ` +
      `${batch.requests} requests, ${batch.throttled} throttled, ${batch.updated} updated, ${batch.failed} failed`,
  );
  console.log(
    `  per row (one PUT a row): ${perRow.seconds} s, ${perRow.rowsPerSecond} rows/s, ${perRow.requests} requests ` +
      `(${result.perRow.requestsPerSecond}/s), ${perRow.throttled} throttled, ${perRow.updated} updated, ` +
      `${perRow.failed} failed`,
  );
  console.log(`  batch ÷ per row: ${speedup.toFixed(1)}× (goal ≥ 20) ${speedup >= 20 ? 'PASS' : 'UNDER'}`);
  console.log(
    `  per row at ${fraction.toFixed(2)} of the sustainable request rate (goal ≥ 0.9) ` +
      `${fraction >= 0.9 ? 'PASS' : 'UNDER'}; ${perRow.throttled} throttled answers (goal: a handful) ` +
      `${perRow.throttled <= 5 ? 'PASS' : 'OVER'}`,
  );
} finally {
  server.stop();
  rmSync(scratch, { recursive: true, force: true });
}

// One roster of many enrollments two ways against a throttling `lms mock serve`: Canvas's SIS
// import (`lms sis import`: one upload, the server's job applies the rows) against the row-by-row
// roster sync (`lms enrollments import`: requests per row, paced by the bucket).
//
//   node bench/sis.mjs                    10,000 enrollments
//   node bench/sis.mjs --rows 200         a quick check that it runs
//
// Both enroll the same students, made first by one SIS import of users.csv (not timed), into a
// course of their own, from the same SIS enrollments.csv columns: only the course_id differs.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchEnv, startThrottledServer, throttledAmong, throttledFlags } from './throttled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const { flags, rows, rate, cost, capacity, sustainable } = throttledFlags({
  rows: { type: 'string', default: '10000' },
  out: { type: 'string', default: join(root, 'bench', 'sis-results.json') },
});
const { scratch, env } = scratchEnv('sis');

const write = (name, lines) => {
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const ids = Array.from({ length: rows }, (_, i) => `bench-${i + 1}`);
const users = write('users.csv', [
  'user_id,login_id,full_name,status',
  ...ids.map((id) => `${id},${id},Bench ${id},active`),
]);
const courses = write('courses.csv', [
  'course_id,short_name,long_name,status',
  'BENCH-SIS,BENCH-SIS,Bench by SIS import,active',
  'BENCH-ROW,BENCH-ROW,Bench row by row,active',
]);
const enrollmentsFor = (course) =>
  write(`enrollments-${course}.csv`, [
    'course_id,user_id,role,status',
    ...ids.map((id) => `${course},${id},student,active`),
  ]);
const sisFile = enrollmentsFor('BENCH-SIS');
const rosterFile = enrollmentsFor('BENCH-ROW');

const server = startThrottledServer(lms, env, { rate, cost, capacity });
const url = await server.url;
const remote = { ...env, LMS_BASE_URL: url, LMS_TOKEN: '1~mock-admin', LMS_WAIT_TIMEOUT: '3600' };
const lmsRun = (args) => {
  const started = performance.now();
  const run = spawnSync(process.execPath, [lms, ...args, '-o', 'json'], {
    env: remote,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`lms ${args.join(' ')} exited ${run.status}:\n${run.stderr.slice(0, 2000)}`);
  return { seconds: (performance.now() - started) / 1000, out: JSON.parse(run.stdout) };
};

try {
  lmsRun(['sis', 'import', users]);
  lmsRun(['sis', 'import', courses]);
  await new Promise((r) => setTimeout(r, 300));
  // The bucket refills between the two: each starts from the same head start.
  await new Promise((r) => setTimeout(r, (1000 * capacity) / rate));
  let seen = server.requestLines().length;
  const measure = async (args) => {
    const { seconds, out } = lmsRun(args);
    // The server's log is read by this process's event loop, which the run above held up.
    await new Promise((r) => setTimeout(r, 300));
    const lines = server.requestLines().slice(seen);
    seen += lines.length;
    return { seconds: Number(seconds.toFixed(2)), requests: lines.length, throttled: throttledAmong(lines), out };
  };
  const sis = await measure(['sis', 'import', sisFile]);
  await new Promise((r) => setTimeout(r, (1000 * capacity) / rate));
  const row = await measure(['enrollments', 'import', rosterFile, '--concurrency', flags.concurrency]);
  const result = {
    date: new Date().toISOString(),
    rows,
    bucket: { capacity, cost, rate, sustainablePerSecond: sustainable },
    sisImport: {
      seconds: sis.seconds,
      requests: sis.requests,
      throttled: sis.throttled,
      state: sis.out.workflow_state,
      enrollments: sis.out.data?.counts?.enrollments,
    },
    rowByRow: {
      seconds: row.seconds,
      requests: row.requests,
      throttled: row.throttled,
      created: row.out.created,
      failed: row.out.failed,
    },
  };
  writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`${rows} enrollments against mock serve --throttle (${sustainable} requests/s sustainable)`);
  console.log(
    `  lms sis import:          ${sis.seconds.toFixed(1)} s, ${sis.requests} requests, ${sis.throttled} throttled ` +
      `(${result.sisImport.state}, ${result.sisImport.enrollments} enrollments)`,
  );
  console.log(
    `  lms enrollments import:  ${row.seconds.toFixed(1)} s, ${row.requests} requests, ${row.throttled} throttled ` +
      `(${row.out.created} created, ${row.out.failed} failed)`,
  );
  console.log(`  the SIS import took ${(row.seconds / sis.seconds).toFixed(1)}× less time`);
} finally {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}

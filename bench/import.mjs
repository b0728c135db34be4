// Bulk-import throughput against a throttling server (DESIGN.md "Bulk work", issue: bulk engine).
//
//   node bench/import.mjs                 2,000 users against `lms mock serve --throttle`
//   node bench/import.mjs --rows 500 --rate 500
//
// The server's bucket drains `rate` units a second and charges `cost` per request, so it sustains
// rate/cost requests a second. An import sends about one request per row, so the figure of merit is
// rows per second as a fraction of that sustainable rate (goal >= 0.9), with the number of throttled
// answers (403) the client took on the way (goal: a handful at most). The bucket starts empty, so
// the first capacity/cost requests come free: that head start is reported with the result.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchEnv, startThrottledServer, throttledAmong, throttledFlags } from './throttled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const { flags, rows, rate, cost, capacity, sustainable } = throttledFlags({
  rows: { type: 'string', default: '2000' },
  out: { type: 'string', default: join(root, 'bench', 'import-results.json') },
});
const { scratch, env } = scratchEnv('import');

const csv = join(scratch, 'users.csv');
const lines = ['name,login_id,email'];
for (let i = 1; i <= rows; i++) lines.push(`Bench Person ${i},bench-${i},bench-${i}@example.edu`);
writeFileSync(csv, `${lines.join('\n')}\n`);

const server = startThrottledServer(lms, env, { rate, cost, capacity });
const url = await server.url;

try {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [lms, 'users', 'import', csv, '--concurrency', flags.concurrency, '-o', 'json'],
    {
      env: { ...env, LMS_BASE_URL: url, LMS_TOKEN: '1~mock-admin' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`the import exited ${run.status}:\n${run.stderr}`);
  const summary = JSON.parse(run.stdout);
  await new Promise((r) => setTimeout(r, 200));
  const requestLines = server.requestLines();
  const throttled = throttledAmong(requestLines);
  const rowsPerSecond = rows / seconds;
  const result = {
    date: new Date().toISOString(),
    rows,
    created: summary.created,
    failed: summary.failed,
    seconds: Number(seconds.toFixed(2)),
    requests: requestLines.length,
    rowsPerSecond: Number(rowsPerSecond.toFixed(1)),
    sustainablePerSecond: sustainable,
    fraction: Number((rowsPerSecond / sustainable).toFixed(3)),
    headStartRequests: Math.floor(capacity / cost),
    throttled,
    bucket: { capacity, cost, rate },
  };
  writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `import of ${rows} users against mock serve --throttle (capacity ${capacity}, cost ${cost}, drains ${rate}/s → ` +
      `${sustainable} requests/s sustainable)`,
  );
  console.log(
    `  ${seconds.toFixed(1)} s, ${rowsPerSecond.toFixed(1)} rows/s = ${(rowsPerSecond / sustainable).toFixed(2)} of ` +
      `the sustainable rate (goal ≥ 0.9) ${rowsPerSecond / sustainable >= 0.9 ? 'PASS' : 'UNDER'}`,
  );
  console.log(
    `  ${throttled} throttled answers taken (goal: a handful) ${throttled <= 5 ? 'PASS' : 'OVER'}; ` +
      `${requestLines.length} requests in all; head start ${Math.floor(capacity / cost)} free requests`,
  );
  console.log(`  ${summary.created} created, ${summary.failed} failed`);
} finally {
  server.stop();
  rmSync(scratch, { recursive: true, force: true });
}

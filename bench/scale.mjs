// Lists at scale (DESIGN.md "Performance budgets"): a full listing of generated schools of 1,000,
// 10,000 and 100,000 users, in process and over loopback HTTP from `lms mock serve`, with the
// budgets as ratios measured in the same run:
//   - time per record at 100,000 within 1.5x of the time per record at 1,000 (linear);
//   - at least 20,000 records a second in process (ndjson), 10,000 over HTTP;
//   - peak RSS listing 100,000 within 1.2x of listing 1,000, for ndjson, json, csv and table;
//   - `users list --search` and `users get` on 100,000 users within 1.5x of the same on 1,000.
//
//   node bench/scale.mjs                  after `npm run build`
//   node bench/scale.mjs --sizes 1000,10000 --runs 3
//
// Peak RSS is read from GNU time (`/usr/bin/time -f %M`), so this runs where that is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockServer } from './mock-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: join(root, 'bench', 'scale-results.json') },
  },
});
const sizes = flags.sizes.split(',').map(Number);
const runs = Number(flags.runs);
const scratch = mkdtempSync(join(tmpdir(), 'lms-bench-scale-'));
const baseEnv = {
  ...process.env,
  LMS_CONFIG_DIR: join(scratch, 'config'),
  LMS_CACHE_DIR: join(scratch, 'cache'),
  NO_COLOR: '1',
};
for (const name of [
  'LMS_PROFILE',
  'LMS_BASE_URL',
  'LMS_TOKEN',
  'LMS_MOCK',
  'LMS_OUTPUT',
  'LMS_MOCK_FAULTS',
  'LMS_MOCK_DB',
])
  delete baseEnv[name];

/** Seconds and peak RSS (KB) of one run of the CLI, its output thrown away. */
function measure(args, env) {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, lms, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`lms ${args.join(' ')} failed: ${run.stderr}`);
  const stderr = run.stderr.toString();
  const seconds = (performance.now() - started) / 1000;
  const kb = Number(stderr.trim().split('\n').at(-1));
  return { seconds, kb };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function best(args, env) {
  const all = Array.from({ length: runs }, () => measure(args, env));
  return { seconds: median(all.map((r) => r.seconds)), kb: median(all.map((r) => r.kb)) };
}

const results = {};
for (const size of sizes) {
  const db = join(scratch, `school-${size}.db`);
  const env = { ...baseEnv, LMS_MOCK: '1', LMS_MOCK_DB: db };
  // The seeded school has 13 users; the rest are generated.
  execFileSync(process.execPath, [lms, 'mock', 'seed', '--yes', '--users', String(size - 13)], {
    env,
    stdio: 'ignore',
  });
  const list = ['users', 'list', '--account', '1', '--all'];
  const row = { records: size, inProcess: {}, http: undefined, search: undefined, get: undefined };
  for (const format of ['ndjson', 'json', 'csv', 'table']) row.inProcess[format] = best([...list, '-o', format], env);
  const server = startMockServer(lms, { ...baseEnv, LMS_MOCK_DB: db });
  try {
    row.http = best([...list, '-o', 'ndjson'], {
      ...baseEnv,
      LMS_BASE_URL: await server.url,
      LMS_TOKEN: '1~mock-admin',
    });
  } finally {
    server.stop();
  }
  row.search = best(['users', 'list', '--account', '1', '--search', 'Okafor 4', '-o', 'json'], env);
  row.get = best(['users', 'get', '5', '-o', 'json'], env);
  results[size] = row;
  console.log(
    `${String(size).padStart(7)} users: ndjson ${row.inProcess.ndjson.seconds.toFixed(2)} s ` +
      `(${Math.round(size / row.inProcess.ndjson.seconds)}/s), ` +
      `http ${row.http.seconds.toFixed(2)} s (${Math.round(size / row.http.seconds)}/s), ` +
      `RSS ndjson ${Math.round(row.inProcess.ndjson.kb / 1024)} MB, table ` +
      `${Math.round(row.inProcess.table.kb / 1024)} MB, ` +
      `search ${row.search.seconds.toFixed(2)} s, get ${row.get.seconds.toFixed(2)} s`,
  );
}

const small = results[sizes[0]];
const large = results[sizes.at(-1)];
const verdict = (ok) => (ok ? 'PASS' : 'OVER');
const perRecord = (r) => r.inProcess.ndjson.seconds / r.records;
const checks = [
  ['time per record, largest vs smallest (in process)', perRecord(large) / perRecord(small), 1.5],
  [
    'records a second in process (ndjson), at least 20,000',
    large.records / large.inProcess.ndjson.seconds,
    20_000,
    'min',
  ],
  ['records a second over HTTP, at least 10,000', large.records / large.http.seconds, 10_000, 'min'],
  ...['ndjson', 'json', 'csv', 'table'].map((f) => [
    `peak RSS ${f}, largest vs smallest`,
    large.inProcess[f].kb / small.inProcess[f].kb,
    1.2,
  ]),
  ['users list --search, largest vs smallest', large.search.seconds / small.search.seconds, 1.5],
  ['users get, largest vs smallest', large.get.seconds / small.get.seconds, 1.5],
];
console.log('');
for (const [name, value, budget, kind] of checks) {
  const ok = kind === 'min' ? value >= budget : value <= budget;
  console.log(
    `${verdict(ok)} ${name}: ${kind === 'min' ? Math.round(value) : `${value.toFixed(2)}x`} (budget ` +
      `${kind === 'min' ? budget : `${budget}x`})`,
  );
}
writeFileSync(flags.out, `${JSON.stringify({ when: new Date().toISOString(), results, checks }, null, 2)}\n`);
console.log(`\nwrote ${flags.out}`);
rmSync(scratch, { recursive: true, force: true });

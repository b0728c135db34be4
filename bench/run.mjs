// Startup benchmarks against the budgets in DESIGN.md ("Performance budgets").
//
//   npm run bench                    build, then 30 timed runs of every case
//   node bench/run.mjs --runs 50     more runs (after `npm run build`)
//   node bench/run.mjs --strict      exit 1 when a case is over its budget
//   node bench/run.mjs --machine-ca  keep NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, CURL_CA_BUNDLE (unset by default)
//   node bench/run.mjs --only help   only the cases whose name contains "help" (the floor, and each one's twin, always run)
//   node bench/run.mjs --only uploads   only the server's memory under uploads (and the floor)
//   node bench/run.mjs --against REF    each lms case also run on a build of the git ref REF, and this
//                                    build's median over REF's reported (budget 1.10x): a regression guard
//
// Every case is a spawned process timed from spawn to exit (wall clock). The floor is bare
// `node -e 0`. A budget is a ratio of a case's median, measured in the same run, to the median of
// the same work written by hand in plain Node (its twin: the same GET with node:http or node:https,
// the same query on the same SQLite driver, each printing the answer), or to the floor for
// `--version` and `--help`, whose work is nothing. Runs are interleaved round-robin (the order rotating each round) so
// drift on a shared, noisy machine hits every case alike, after a few untimed warm-up rounds.
// Figures go to stdout as a table and to bench/results.json. Without --strict, being over
// budget does not fail the run: this is a measurement, not a test. A case whose command fails
// (non-zero exit, or output that its check rejects) always does.
//
// Then the memory of `lms mock serve` under 4 concurrent 50 MiB uploads, unauthorized and
// authorized (bench/uploads.mjs), against 1.5 × (its idle RSS + the body budget it is configured with).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockServer } from './mock-server.mjs';
import { describeUploadMemory, uploadMemory } from './uploads.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const lms = join(root, 'bin', 'lms');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    only: { type: 'string' },
    strict: { type: 'boolean', default: false },
    // Keep the machine's CA variables: a desktop sets none, so they are unset by default.
    'machine-ca': { type: 'boolean', default: false },
    against: { type: 'string' },
    out: { type: 'string', default: join(root, 'bench', 'results.json') },
  },
});
const runs = wholeNumber('--runs', flags.runs, 1);
const warmup = wholeNumber('--warmup', flags.warmup, 0);

// Everything the cases share is made once, before any timing: a scratch directory (profiles and
// the mock database live there, never in the user's own config) and a seeded mock.
const scratch = mkdtempSync(join(tmpdir(), 'lms-bench-'));
// The compile cache lives there too: the warm-up rounds write it, as a user's first run would.
const baseEnv = {
  ...process.env,
  LMS_CONFIG_DIR: join(scratch, 'config'),
  LMS_CACHE_DIR: join(scratch, 'cache'),
  NO_COLOR: '1',
};
for (const name of ['LMS_PROFILE', 'LMS_BASE_URL', 'LMS_TOKEN', 'LMS_MOCK', 'LMS_MOCK_DB', 'LMS_OUTPUT'])
  delete baseEnv[name];
// A CA bundle named here costs both a case and its twin every start (Node 20 parses it at start):
// measured as a desktop runs, without them, unless --machine-ca.
if (!flags['machine-ca'])
  for (const name of ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'CURL_CA_BUNDLE']) delete baseEnv[name];
const mockDb = join(scratch, 'mock.db');

/**
 * The cases. A case is { name, cmd, args, env?, budget?, twin?, setup?, check? }:
 * - budget: the most its median may be, as a multiple of its twin's median, else of the floor's
 *   (none: reported only);
 * - twin: the name of the case doing the same work by hand, measured in the same run;
 * - memoryMb: the most its peak RSS may be (read once, untimed, from GNU time where installed);
 * - setup(): run once before any timing (seed data, write files);
 * - check(stdout): run once on an untimed run's output; return a string to reject the case.
 * The first case is the floor every ratio is taken against.
 */
const cases = [
  { name: 'node -e 0 (floor)', cmd: node, args: ['-e', '0'] },
  {
    name: 'lms --version',
    cmd: node,
    args: [lms, '--version'],
    budget: 1.25,
    check: (stdout) =>
      stdout.trim() === pkg.version ? undefined : `printed "${stdout.trim()}", not the package version ${pkg.version}`,
  },
  {
    name: 'lms --help',
    cmd: node,
    args: [lms, '--help'],
    budget: 1.25,
    check: (stdout) => (/Usage: lms/.test(stdout) && /users/.test(stdout) ? undefined : 'no usage text'),
  },
  {
    name: 'lms --mock users list',
    cmd: node,
    args: [lms, '--mock', 'users', 'list', '--account', '1', '-o', 'json'],
    env: { LMS_MOCK_DB: mockDb },
    budget: 1.5,
    twin: 'users list by hand (same SQLite driver, no lms)',
    memoryMb: 60,
    setup: () => exec('seed the mock', node, [lms, '--mock', 'mock', 'seed', '--yes'], { LMS_MOCK_DB: mockDb }),
    check: (stdout) => {
      const users = JSON.parse(stdout);
      listed = stdout;
      return Array.isArray(users) && users.length > 0 ? undefined : 'listed no users';
    },
  },
  {
    // The same query on the same SQLite driver, the same rows printed as JSON (bench/twins/users-list.cjs).
    name: 'users list by hand (same SQLite driver, no lms)',
    cmd: node,
    args: [join(root, 'bench', 'twins', 'users-list.cjs')],
    env: { LMS_MOCK_DB: mockDb },
    check: (stdout) => (stdout === listed ? undefined : 'printed other rows than `lms --mock users list`'),
  },
  {
    // The same, as the first run after an install or upgrade: no compile cache to read (and none can be written).
    name: 'lms --mock users list, no compile cache',
    cmd: node,
    args: [lms, '--mock', 'users', 'list', '--account', '1', '-o', 'json'],
    env: { LMS_MOCK_DB: mockDb, LMS_CACHE_DIR: join(scratch, 'mock.db', 'cache') },
  },
  {
    // A command against a real instance, the server's time included: `lms mock serve` stands in.
    name: 'lms -p local users get self',
    cmd: node,
    args: [lms, '-p', 'local', 'users', 'get', 'self', '-o', 'json'],
    budget: 1.5,
    twin: 'users get self by hand (node:http, no lms)',
    memoryMb: 60,
    setup: () => startServer(),
    check: (stdout) => (JSON.parse(stdout).id === 1 ? undefined : 'not the admin'),
  },
  {
    // What any Node program pays for that one request: the GET with node:http, the answer printed
    // as JSON, nothing else. The floor under the case above, on each line.
    name: 'users get self by hand (node:http, no lms)',
    cmd: node,
    args: [
      '-e',
      "require('node:http').get(process.env.BENCH_URL + '/api/v1/users/self', { headers: { authorization: 'Bearer " +
        "1~mock-admin', accept: 'application/json', 'user-agent': 'bench/1.0' } }, (r) => { let b = ''; " +
        "r.setEncoding('utf8'); r.on('data', (d) => (b += d)); r.on('end', () => " +
        "process.stdout.write(JSON.stringify(JSON.parse(b), null, 2) + '\\n')); });",
    ],
    get env() {
      return { BENCH_URL: serverUrl };
    },
    setup: () => startServer(),
    check: (stdout) => (JSON.parse(stdout).id === 1 ? undefined : 'not the admin'),
  },
  {
    // The same over HTTPS, as real instances are: `lms mock serve --tls-self-signed`, the profile
    // trusting its certificate as a school's CA (--ca-file), added to Node's roots.
    name: 'lms -p local-tls users get self (HTTPS)',
    cmd: node,
    args: [lms, '-p', 'local-tls', 'users', 'get', 'self', '-o', 'json'],
    budget: 1.5,
    twin: 'users get self by hand (node:https, no lms)',
    memoryMb: 60,
    setup: () => startTlsServer(),
    check: (stdout) => (JSON.parse(stdout).id === 1 ? undefined : 'not the admin'),
  },
  {
    // Its twin by hand: node:https with the certificate as its CA, the answer printed as JSON.
    name: 'users get self by hand (node:https, no lms)',
    cmd: node,
    args: [
      '-e',
      "require('node:https').get(process.env.BENCH_TLS_URL + '/api/v1/users/self', { ca: " +
        "require('node:fs').readFileSync(process.env.BENCH_CA), headers: { authorization: 'Bearer 1~mock-admin', " +
        "accept: 'application/json', 'user-agent': 'bench' } }, (r) => { let b = ''; r.setEncoding('utf8'); " +
        "r.on('data', (d) => (b += d)); r.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(b), null, " +
        "2) + '\\n')); });",
    ],
    get env() {
      return { BENCH_TLS_URL: tlsServerUrl, BENCH_CA: tlsCa };
    },
    setup: () => startTlsServer(),
    check: (stdout) => (JSON.parse(stdout).id === 1 ? undefined : 'not the admin'),
  },
];

const refMockDb = join(scratch, 'ref-mock.db');

/** Against a ref: the most this build's median may be over the ref's, for each case with a budget. */
const AGAINST_BUDGET = 1.1;
const refLms = flags.against ? buildRef(flags.against) : undefined;
if (refLms) {
  for (const c of cases.filter((c) => c.budget !== undefined && c.args[0] === lms)) {
    const ref = {
      ...c,
      name: `${c.name} @ ${flags.against}`,
      args: [refLms, ...c.args.slice(1)],
      budget: undefined,
      twin: undefined,
      memoryMb: undefined,
      check: undefined,
    };
    // Its own compile cache: two builds sharing one would each find the other's entries stale. And its
    // own mock database, seeded by the ref: one whose schema is older rebuilds the file it opens, under
    // the server this build serves from it.
    Object.defineProperty(ref, 'env', {
      get: () => ({
        ...c.env,
        LMS_CACHE_DIR: join(scratch, 'ref-cache'),
        ...(c.env?.LMS_MOCK_DB ? { LMS_MOCK_DB: refMockDb } : {}),
      }),
    });
    if (c.env?.LMS_MOCK_DB)
      ref.setup = () =>
        exec(`seed the mock @ ${flags.against}`, node, [refLms, '--mock', 'mock', 'seed', '--yes'], {
          LMS_MOCK_DB: refMockDb,
        });
    cases.push(ref);
    c.ref = ref.name;
  }
}

/**
 * A build of `ref` in a worktree of its own under the scratch directory, with this checkout's
 * node_modules (a ref whose lockfile differs is measured on today's packages); its launcher's path.
 */
function buildRef(ref) {
  const dir = join(scratch, 'ref');
  exec(`check out ${ref}`, 'git', ['-C', root, 'worktree', 'add', '--detach', dir, ref]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  exec(`build ${ref}`, node, [join(dir, 'scripts', 'build.mjs')], {}, dir);
  return join(dir, 'bin', 'lms');
}

/** What `lms --mock users list` printed, which its twin must print too. */
let listed;

/**
 * `lms mock serve --tls-self-signed` on the same seeded mock, with the profile `local-tls` naming it and trusting its
 * certificate.
 */
async function startTlsServer() {
  if (tlsServer) return;
  await startServer();
  tlsServer = startMockServer(lms, { ...baseEnv, LMS_MOCK_DB: mockDb }, { flags: ['--tls-self-signed', tlsCa] });
  tlsServerUrl = await tlsServer.url;
  const added = spawnSync(
    node,
    [lms, 'profile', 'add', 'local-tls', '--url', tlsServerUrl, '--token-stdin', '--ca-file', tlsCa],
    { env: baseEnv, input: '1~mock-admin', encoding: 'utf8' },
  );
  if (added.status !== 0) throw new Error(`adding the profile failed: ${added.stderr}`);
}

let tlsServer;
let tlsServerUrl;
const tlsCa = join(scratch, 'mock-ca.pem');

/** `lms mock serve` on a seeded mock, with the profile `local` naming it; once for every case that asks. */
async function startServer() {
  if (server) return;
  exec('seed the mock', node, [lms, '--mock', 'mock', 'seed', '--yes'], { LMS_MOCK_DB: mockDb });
  server = startMockServer(lms, { ...baseEnv, LMS_MOCK_DB: mockDb });
  serverUrl = await server.url;
  const added = spawnSync(node, [lms, 'profile', 'add', 'local', '--url', serverUrl, '--token-stdin'], {
    env: baseEnv,
    input: '1~mock-admin',
    encoding: 'utf8',
  });
  if (added.status !== 0) throw new Error(`adding the profile failed: ${added.stderr}`);
}

/** The address of `lms mock serve`, once started. */
let serverUrl;

/** `lms mock serve`, stopped when the run ends. */
let server;

try {
  const named = (c) => !flags.only || c.name.includes(flags.only);
  // A case's twin runs with it, so --only still gives its verdict.
  const selected = cases.filter((c, i) => i === 0 || named(c) || cases.some((d) => d.twin === c.name && named(d)));
  for (const c of selected) {
    await c.setup?.();
    const { stdout } = exec(c.name, c.cmd, c.args, c.env);
    const problem = c.check?.(stdout);
    if (problem) throw new Error(`${c.name}: ${problem}`);
  }

  const samples = selected.map(() => []);
  const load = loadavg()[0];
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < selected.length; k++) {
      const i = (round + k) % selected.length;
      const ms = time(selected[i]);
      if (round >= warmup) samples[i].push(ms);
    }
  }

  const results = selected.map((c, i) => ({ ...summarise(c, samples[i]), peakMb: peakMb(c) }));
  const floor = results[0];
  for (const r of results) {
    r.floorRatio = r.median / floor.median;
    const twin = r.twin === undefined ? undefined : results.find((t) => t.name === r.twin);
    r.ratio = twin ? r.median / twin.median : r.floorRatio;
    r.against = twin ? 'twin' : 'floor';
    const overMemory = r.memoryMb !== undefined && r.peakMb !== undefined && r.peakMb > r.memoryMb;
    if (r.budget !== undefined) r.status = r.ratio <= r.budget && !overMemory ? 'PASS' : 'OVER';
    const ref = r.ref === undefined ? undefined : results.find((t) => t.name === r.ref);
    if (ref) r.againstRef = round2(r.median / ref.median);
  }

  printTable(results);
  const over = results.filter((r) => r.status === 'OVER');
  for (const r of results.filter((r) => r.status)) {
    const memory = r.memoryMb === undefined ? '' : `, ${r.peakMb ?? '?'} MB peak (budget ${r.memoryMb} MB)`;
    const of = r.against === 'twin' ? `its twin (${r.twin})` : 'the floor';
    console.log(`${r.status} ${r.name}: ${r.ratio.toFixed(2)}x of ${of} (budget ${r.budget}x)${memory}`);
  }
  for (const r of results.filter((r) => r.againstRef !== undefined)) {
    const status = r.againstRef <= AGAINST_BUDGET ? 'PASS' : 'OVER';
    if (status === 'OVER') over.push(r);
    console.log(`${status} ${r.name}: ${r.againstRef.toFixed(2)}x of ${flags.against} (budget ${AGAINST_BUDGET}x)`);
  }

  const uploads = !flags.only || 'uploads'.includes(flags.only) ? await uploadMemory({ lms, env: baseEnv }) : undefined;
  if (uploads) {
    console.log(`\n${describeUploadMemory(uploads)}`);
    if (!uploads.unauthorized.within || !uploads.authorized.within) over.push({ name: 'server memory under uploads' });
  }

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    loadavg1mAtStart: Number(load.toFixed(2)),
    runs,
    warmup,
    floorMedianMs: round2(floor.median),
    cases: results.map(({ samplesMs, ...r }) => ({
      ...r,
      ratio: round2(r.ratio),
      floorRatio: round2(r.floorRatio),
      samplesMs,
    })),
    uploads,
  };
  writeFileSync(flags.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${flags.out}`);
  process.exitCode = flags.strict && over.length > 0 ? 1 : 0;
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
  await tlsServer?.stop();
  if (refLms) spawnSync('git', ['-C', root, 'worktree', 'remove', '--force', join(scratch, 'ref')]);
  rmSync(scratch, { recursive: true, force: true });
}

/** One timed run: wall clock from spawn to exit, in milliseconds. */
function time(c) {
  const start = process.hrtime.bigint();
  const result = spawnSync(c.cmd, c.args, {
    env: { ...baseEnv, ...c.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${c.name} exited ${result.status ?? result.signal}: ${result.stderr}`);
  return ms;
}

/** Peak RSS in MB of one untimed run, from GNU time; undefined where it is not installed. */
function peakMb(c) {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', c.cmd, ...c.args], {
    env: { ...baseEnv, ...c.env },
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (result.error || result.status !== 0) return undefined;
  return Math.round(Number(result.stderr.trim().split('\n').pop()) / 1024);
}

/** An untimed run that must succeed; returns its output. */
function exec(label, cmd, args, env, cwd) {
  const result = spawnSync(cmd, args, {
    cwd,
    env: { ...baseEnv, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(
      `${label}: \`${[cmd, ...args].join(' ')}\` exited ${result.status ?? result.signal}\n${result.stderr}`,
    );
  return result;
}

function summarise(c, ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    name: c.name,
    command: [c.cmd === node ? 'node' : c.cmd, ...c.args.map((a) => (a === lms ? 'bin/lms' : a))].join(' '),
    budget: c.budget,
    twin: c.twin,
    ref: c.ref,
    memoryMb: c.memoryMb,
    median: round2(quantile(sorted, 0.5)),
    p90: round2(quantile(sorted, 0.9)),
    min: round2(sorted[0]),
    max: round2(sorted[sorted.length - 1]),
    samplesMs: ms.map(round2),
  };
}

/**
 * Linear interpolation between closest ranks (the usual definition; the median of an even count is the mean of the
 * middle two).
 */
function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function printTable(results) {
  const head = ['case', 'median ms', 'p90 ms', 'min ms', 'x floor', 'x twin', 'budget', 'peak MB', ''];
  const rows = results.map((r) => [
    r.name,
    r.median.toFixed(1),
    r.p90.toFixed(1),
    r.min.toFixed(1),
    `${r.floorRatio.toFixed(2)}x`,
    r.against === 'twin' ? `${r.ratio.toFixed(2)}x` : '-',
    r.budget === undefined ? '-' : `${r.budget.toFixed(2)}x${r.against === 'twin' ? ' twin' : ' floor'}`,
    r.peakMb === undefined ? '-' : `${r.peakMb}${r.memoryMb === undefined ? '' : ` (≤ ${r.memoryMb})`}`,
    r.status ?? '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(
    `lms startup: ${runs} runs each, interleaved, after ${warmup} warm-up rounds (node ${process.version}, ` +
      `${cpus().length} cpus)\n`,
  );
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  console.log('');
}

function wholeNumber(flag, value, min) {
  if (!/^\d+$/.test(value) || Number(value) < min) {
    console.error(`bench: ${flag} must be a whole number of at least ${min}, got "${value}"`);
    process.exit(2);
  }
  return Number(value);
}

function round2(n) {
  return Math.round(n * 100) / 100;
}

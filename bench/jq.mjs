// --jq's output as jq writes it, against the same run of jq collected and printed when the run
// ends (as --jq printed before it streamed), for large outputs:
//   - jq-wasm alone in plain Node, collected (raw() returns stdout) and streamed (onStdout, each
//     chunk written as it comes): the ratio of their medians is what streaming costs or saves;
//   - `lms --mock users get self --jq FILTER` end to end, streaming through its thread and window.
// Each with its peak RSS. Output goes to /dev/null, so writing costs the same everywhere.
//
//   node bench/jq.mjs              after `npm run build`
//   node bench/jq.mjs --runs 7
//
// Peak RSS is read from GNU time (`/usr/bin/time -f %M`), so this runs where that is installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const jqWasm = join(root, 'dist', 'jq-wasm.cjs');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    out: { type: 'string', default: join(root, 'bench', 'jq-results.json') },
  },
});
const runs = Number(flags.runs);
const scratch = mkdtempSync(join(tmpdir(), 'lms-bench-jq-'));
const env = {
  ...process.env,
  LMS_CONFIG_DIR: join(scratch, 'config'),
  LMS_CACHE_DIR: join(scratch, 'cache'),
  LMS_MOCK_DB: join(scratch, 'mock.db'),
  NO_COLOR: '1',
};
for (const name of [
  'LMS_PROFILE',
  'LMS_BASE_URL',
  'LMS_TOKEN',
  'LMS_MOCK',
  'LMS_OUTPUT',
  'LMS_MOCK_FAULTS',
  'LMS_JQ_TIMEOUT',
  'LMS_JQ_MEMORY',
])
  delete env[name];

const filters = [
  ['range(200000)', 'range(200000)'],
  ['.[] over 200,000 records', '[range(200000) | {id: ., name: "user \\(.)", login_id: "u\\(.)"}] | .[]'],
];

/** jq-wasm run in plain Node over one input, its stdout collected or handed out in chunks. */
const twin = (mode) => `
const { writeSync } = require('node:fs');
const streamed = ${JSON.stringify(mode)} === 'streamed';
require(${JSON.stringify(jqWasm)})
  .loadJq(streamed ? { onStdout: (chunk) => writeSync(1, chunk) } : {})
  .then((jq) => {
    const { stdout } = jq.raw('\\x1enull\\n', process.argv[1], ['--seq']);
    if (!streamed) writeSync(1, stdout + '\\n');
  });
`;

/** Seconds and peak RSS (KB) of one run, its output thrown away. */
function measure(args) {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  return {
    seconds: (performance.now() - started) / 1000,
    rssKb: Number(run.stderr.toString().trim().split('\n').pop()),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  spawnSync(process.execPath, [lms, '--mock', 'users', 'get', 'self'], { env, stdio: 'ignore' });
  const results = [];
  for (const [name, filter] of filters) {
    const ways = {
      collected: ['-e', twin('collected'), filter],
      streamed: ['-e', twin('streamed'), filter],
      lms: [lms, '--mock', 'users', 'get', 'self', '--jq', filter],
    };
    const samples = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
    // Round-robin, so drift on a shared machine hits every way alike.
    for (let i = 0; i < runs; i++) for (const [way, args] of Object.entries(ways)) samples[way].push(measure(args));
    const figures = Object.fromEntries(
      Object.entries(samples).map(([way, list]) => [
        way,
        {
          seconds: Number(median(list.map((s) => s.seconds)).toFixed(3)),
          rssMb: Number((median(list.map((s) => s.rssKb)) / 1024).toFixed(1)),
        },
      ]),
    );
    const ratio = figures.streamed.seconds / figures.collected.seconds;
    results.push({ name, filter, ...figures, streamedOverCollected: Number(ratio.toFixed(2)) });
    console.log(`${name}: median of ${runs}`);
    console.log(`  jq-wasm collected  ${figures.collected.seconds.toFixed(2)} s  ${figures.collected.rssMb} MB`);
    console.log(
      `  jq-wasm streamed   ${figures.streamed.seconds.toFixed(2)} s  ${figures.streamed.rssMb} MB   ` +
        `(${ratio.toFixed(2)}x the time, ${(figures.streamed.rssMb / figures.collected.rssMb).toFixed(2)}x the ` +
        'memory)',
    );
    console.log(`  lms --jq           ${figures.lms.seconds.toFixed(2)} s  ${figures.lms.rssMb} MB`);
  }
  writeFileSync(
    flags.out,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, results }, null, 2)}\n`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

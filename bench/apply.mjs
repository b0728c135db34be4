// `lms apply` throughput against a throttling `lms mock serve` (issue 22).
//
//   node bench/apply.mjs                          2,000 enrollments, 50 topics, 20 quizzes
//   node bench/apply.mjs --enrollments 500 --topics 10 --quizzes 5
//
// One new course described in a file: a roster CSV of `enrollments` generated students, `topics`
// topics and `quizzes` quizzes. Three timed runs, each from spawn to exit, each starting on a
// drained bucket:
//   - the apply: its plan's reads and every write, through the bulk engine;
//   - the bulk engine alone making the same number of writes (`lms users import` of as many rows,
//     one POST a row): the reference the apply is held to, ≤ 1.15× its time;
//   - the apply again, which finds nothing to do: ≤ 5 s, and no write.
// Requests are counted at the server (its request log), so a write the client did not report
// still counts.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchEnv, startThrottledServer, throttledAmong, throttledFlags } from './throttled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const { flags, rate, cost, capacity, sustainable } = throttledFlags({
  enrollments: { type: 'string', default: '2000' },
  topics: { type: 'string', default: '50' },
  quizzes: { type: 'string', default: '20' },
  out: { type: 'string', default: join(root, 'bench', 'apply-results.json') },
});
const size = { enrollments: Number(flags.enrollments), topics: Number(flags.topics), quizzes: Number(flags.quizzes) };
const RATIO_BUDGET = 1.15;
const NOOP_BUDGET_S = 5;
const { scratch, env } = scratchEnv('apply');

function lmsSync(args, extraEnv = {}) {
  const r = spawnSync(process.execPath, [lms, ...args], {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`lms ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r;
}

// The school: the seeded one, plus generated students (gen1…genN, SIS ids GEN-1…GEN-N) to enroll.
lmsSync(['--mock', 'mock', 'seed', '--yes', '--users', String(size.enrollments), '--courses', '1']);

const roster = ['user,type,section,state'];
for (let n = 1; n <= size.enrollments; n++)
  roster.push(`${n % 2 ? `gen${n}` : `sis_user_id:GEN-${n}`},student,,active`);
writeFileSync(join(scratch, 'roster.csv'), `${roster.join('\n')}\n`);
const topics = Array.from(
  { length: size.topics },
  (_, i) => `      - { key: t${i + 1}, title: Topic ${i + 1}, message: "<p>Week ${i + 1}</p>", published: true }`,
);
const quizzes = Array.from(
  { length: size.quizzes },
  (_, i) =>
    `      - { key: q${i + 1}, title: Quiz ${i + 1}, quiz_type: assignment, time_limit: ${10 + i}, ` +
    'allowed_attempts: 2 }',
);
const course = join(scratch, 'course.yaml');
writeFileSync(
  course,
  `courses:
  - sis_course_id: BENCH-1
    name: Bench Course
    course_code: BENCH-1
    account: sis_account_id:MSU
    enrollments:
      - { csv: roster.csv }
    topics:
${topics.join('\n')}
    quizzes:
${quizzes.join('\n')}
`,
);

const server = startThrottledServer(lms, env, { rate, cost, capacity });
const url = await server.url;
const http = { LMS_BASE_URL: url, LMS_TOKEN: '1~mock-admin' };
const drained = () => new Promise((r) => setTimeout(r, Math.ceil((capacity / rate) * 1000) + 300));

/** One timed run; its requests (writes apart) and throttled answers from the server's log. */
async function timed(label, args) {
  await drained();
  const before = server.requestLines().length;
  const started = performance.now();
  const run = spawnSync(process.execPath, [lms, ...args], {
    env: { ...env, ...http },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${label} exited ${run.status}:\n${run.stderr}`);
  await new Promise((r) => setTimeout(r, 300));
  const lines = server.requestLines().slice(before);
  const writes = lines.filter((l) => /^(POST|PUT|DELETE) /.test(l) && !/ 403 \d+ms$/.test(l)).length;
  return {
    seconds: round2(seconds),
    requests: lines.length,
    writes,
    reads: lines.length - writes,
    throttled: throttledAmong(lines),
    stdout: run.stdout,
    stderr: run.stderr,
  };
}

try {
  const apply = await timed('the apply', ['apply', '-f', course, '--yes', '-o', 'json']);
  const summary = JSON.parse(apply.stdout).summary;

  // The reference: the bulk engine making as many writes, one a row.
  const users = join(scratch, 'users.csv');
  const lines = ['name,login_id,email'];
  for (let i = 1; i <= apply.writes; i++) lines.push(`Reference Person ${i},ref-${i},ref-${i}@example.edu`);
  writeFileSync(users, `${lines.join('\n')}\n`);
  const bulk = await timed('the bulk reference', [
    'users',
    'import',
    users,
    '--account',
    '1',
    '--concurrency',
    flags.concurrency,
    '-o',
    'json',
  ]);

  const noop = await timed('the re-apply', ['apply', '-f', course, '--yes', '-o', 'json']);
  const ratio = apply.seconds / bulk.seconds;
  const strip = ({ stdout, stderr, ...r }) => r;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    size,
    bucket: { capacity, cost, rate, sustainablePerSecond: sustainable },
    apply: { ...strip(apply), created: summary.create, updated: summary.update },
    bulk: strip(bulk),
    noop: strip(noop),
    ratio: round2(ratio),
    budgets: { ratio: RATIO_BUDGET, noopSeconds: NOOP_BUDGET_S },
    pass: ratio <= RATIO_BUDGET && noop.seconds <= NOOP_BUDGET_S && noop.writes === 0,
  };
  writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
  const line = (r) =>
    `${r.seconds} s, ${r.requests} requests (${r.writes} writes, ${r.reads} reads), ${r.throttled} throttled`;
  console.log(
    `lms apply of ${size.enrollments} enrollments, ${size.topics} topics, ${size.quizzes} quizzes against mock ` +
      `serve --throttle (capacity ${capacity}, cost ${cost}, drains ${rate}/s → ${sustainable} requests/s ` +
      `sustainable; node ${process.version})`,
  );
  console.log(`  apply:            ${line(apply)}; ${summary.create} created, ${summary.update} updated`);
  console.log(`  bulk, as many writes (users import): ${line(bulk)}`);
  console.log(
    `  apply ÷ bulk: ${ratio.toFixed(2)}× (budget ≤ ${RATIO_BUDGET}) ${ratio <= RATIO_BUDGET ? 'PASS' : 'OVER'}`,
  );
  console.log(
    `  no-op re-apply:   ${line(noop)} (budget ≤ ${NOOP_BUDGET_S} s, no write) ` +
      `${noop.seconds <= NOOP_BUDGET_S && noop.writes === 0 ? 'PASS' : 'OVER'}`,
  );
  process.exitCode = 0;
} finally {
  server.stop();
  rmSync(scratch, { recursive: true, force: true });
}

function round2(n) {
  return Math.round(n * 100) / 100;
}

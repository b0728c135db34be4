// Two `lms apply` of one file at once, at the size they were once seen to duplicate everything at:
// a soak check, too slow for the test suite (test/e2e/apply-concurrent.test.ts runs the small case).
//
//   node bench/apply-twice.mjs                              500 assignments, 100 announcements
//   node bench/apply-twice.mjs --assignments 100 --announcements 20
//
// Three rounds, each a new course: on one --mock database with one state directory, with one state
// directory each, and over `lms mock serve` with one each. Each round must end with exactly one of
// every object, both runs exiting 0, and `lms diff --exit-code` exiting 0; it exits 1 otherwise.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startMockServer } from './mock-server.mjs';
import { scratchEnv } from './throttled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lms = join(root, 'bin', 'lms');
const { values: flags } = parseArgs({
  options: { assignments: { type: 'string', default: '500' }, announcements: { type: 'string', default: '100' } },
});
const size = { assignments: Number(flags.assignments), announcements: Number(flags.announcements) };
const { scratch, env } = scratchEnv('apply-twice');

function run(args, extra) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lms, ...args], {
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function courseFile(sis) {
  const path = join(scratch, `${sis}.yaml`);
  const lines = [
    'courses:',
    `  - sis_course_id: ${sis}`,
    `    name: Twice ${sis}`,
    '    account: sis_account_id:MSU',
    '    assignments:',
  ];
  for (let i = 0; i < size.assignments; i++)
    lines.push(`      - { ${i % 2 ? `key: a${i}, ` : ''}name: Assignment ${i}, points_possible: ${(i % 10) + 1} }`);
  lines.push('    announcements:');
  for (let i = 0; i < size.announcements; i++) lines.push(`      - { title: News ${i}, message: "<p>${i}</p>" }`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function round(name, sis, envs, global) {
  const file = courseFile(sis);
  const started = performance.now();
  const runs = await Promise.all(envs.map((e) => run([...global, 'apply', '-f', file, '--yes', '-o', 'json'], e)));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const problems = runs.filter((r) => r.code !== 0).map((r) => `a run exited ${r.code}: ${r.stderr.slice(0, 500)}`);
  for (const [noun, want] of [
    ['assignments', size.assignments],
    ['announcements', size.announcements],
  ]) {
    const r = await run([...global, noun, 'list', '--course', `sis_course_id:${sis}`, '--all', '-o', 'json'], envs[0]);
    const count = r.code === 0 ? JSON.parse(r.stdout).length : NaN;
    if (count !== want) problems.push(`${count} ${noun}, not ${want}`);
  }
  const diff = await run([...global, 'diff', '-f', file, '--exit-code'], envs[0]);
  if (diff.code !== 0) problems.push(`lms diff --exit-code exited ${diff.code}`);
  console.log(
    `${name}: both runs ${seconds} s — ${problems.length ? problems.join('; ') : 'one of each, no changes left'}`,
  );
  return problems.length === 0;
}

if (spawnSync(process.execPath, [lms, '--mock', 'mock', 'seed', '--yes'], { env }).status !== 0)
  throw new Error('mock seed failed');
const state = (n) => ({ LMS_STATE_DIR: join(scratch, n) });
let ok = await round('--mock, one state directory', 'TWICE-1', [state('one'), state('one')], ['--mock']);
ok = (await round('--mock, a state directory each', 'TWICE-2', [state('a'), state('b')], ['--mock'])) && ok;
const server = startMockServer(lms, env);
const url = await server.url;
const http = (n) => ({ ...state(n), LMS_BASE_URL: url, LMS_TOKEN: '1~mock-admin' });
ok = (await round('mock serve, a state directory each', 'TWICE-3', [http('http-a'), http('http-b')], [])) && ok;
await server.stop();
process.exit(ok ? 0 : 1);

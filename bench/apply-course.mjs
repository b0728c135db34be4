// A course as a CI job builds it, through `lms apply` against `lms mock serve`: 20 modules of 10 items
// each (200 items naming 40 pages, 100 assignments, 40 topics, 20 quizzes of the same file by key),
// 5 weighted assignment groups and 10 rubrics. The apply, then the re-apply (which must write
// nothing), then `lms diff --exit-code` (which must find nothing): each timed, with its requests.
//
//   node bench/apply-course.mjs                 the size above
//   node bench/apply-course.mjs --modules 5     5 modules (50 items, 10 pages, …)
//   node bench/apply-course.mjs --out FILE      the figures as JSON too
//
// Exits 1 if a run fails, the re-apply writes or the diff finds a difference.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { lms, scratchSpace } from './kit.mjs';
import { startMockServer } from './mock-server.mjs';

const { values: flags } = parseArgs({
  options: { modules: { type: 'string', default: '20' }, out: { type: 'string' } },
});
const modules = Number(flags.modules);
const size = {
  modules,
  items: modules * 10,
  pages: modules * 2,
  assignments: modules * 5,
  topics: modules * 2,
  quizzes: modules,
  groups: 5,
  rubrics: Math.min(10, modules * 5),
};
const { scratch, env } = scratchSpace('apply-course');

function courseFile() {
  const l = [
    'courses:',
    '  - sis_course_id: BUILT-1',
    '    name: Built Course',
    '    account: sis_account_id:MSU',
    '    apply_assignment_group_weights: true',
    '    assignment_groups:',
  ];
  for (let g = 0; g < size.groups; g++)
    l.push(`      - { key: g${g}, name: Group ${g}, group_weight: 20, rules.drop_lowest: ${g % 2} }`);
  l.push('    assignments:');
  for (let a = 0; a < size.assignments; a++)
    l.push(`      - { key: a${a}, name: Assignment ${a}, points_possible: 10, group: g${a % size.groups} }`);
  l.push('    topics:');
  for (let t = 0; t < size.topics; t++) l.push(`      - { key: t${t}, title: Topic ${t}, message: "<p>${t}</p>" }`);
  l.push('    quizzes:');
  for (let q = 0; q < size.quizzes; q++) l.push(`      - { key: q${q}, title: Quiz ${q} }`);
  l.push('    rubrics:');
  for (let r = 0; r < size.rubrics; r++)
    l.push(
      `      - { key: r${r}, title: Rubric ${r}, assignment: a${r}, use_for_grading: true, ` +
        'criteria: [{ description: Method, points: 5 }, { description: Analysis, points: 5 }] }',
    );
  l.push('    pages:');
  for (let p = 0; p < size.pages; p++)
    l.push(`      - { key: p${p}, title: Page ${p}, body: "<p>Notes ${p}</p>", published: true }`);
  l.push('    modules:');
  for (let m = 0; m < size.modules; m++) {
    l.push(`      - key: m${m}`, `        name: Week ${m + 1}`, '        published: true', '        items:');
    l.push(`          - { type: SubHeader, title: Week ${m + 1} }`);
    for (let p = 0; p < 2; p++) l.push(`          - { page: p${m * 2 + p}, completion_requirement: must_view }`);
    for (let a = 0; a < 5; a++)
      l.push(`          - { assignment: a${m * 5 + a}, completion_requirement: must_submit }`);
    l.push(`          - { topic: t${m * 2}, completion_requirement: must_contribute }`);
    l.push(`          - { quiz: q${m} }`);
  }
  const path = join(scratch, 'course.yaml');
  writeFileSync(path, `${l.join('\n')}\n`);
  return path;
}

const server = startMockServer(lms, env, { quiet: false });
const http = { LMS_BASE_URL: await server.url, LMS_TOKEN: '1~mock-admin' };

/** Runs lms to its end; asynchronously, so that the server's log keeps being read (a full pipe stops it). */
function runLms(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lms, ...args], { env: { ...env, ...http } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function timed(label, args, { allowed = [0] } = {}) {
  const before = server.requestLines().length;
  const started = performance.now();
  const run = await runLms(args);
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  if (!allowed.includes(run.status)) throw new Error(`${label} exited ${run.status}:\n${run.stderr}`);
  // The server logs a request as it answers: the last lines may come just after the run ends.
  await new Promise((r) => setTimeout(r, 300));
  const lines = server.requestLines().slice(before);
  const writes = lines.filter((line) => /^(POST|PUT|DELETE) /.test(line)).length;
  return { seconds, requests: lines.length, writes, status: run.status, stdout: run.stdout, stderr: run.stderr };
}

let failed = false;
try {
  const file = courseFile();
  const apply = await timed('the apply', ['apply', '-f', file, '--yes', '-o', 'json']);
  const again = await timed('the re-apply', ['apply', '-f', file, '--yes', '-o', 'json']);
  const diff = await timed('the diff', ['diff', '-f', file, '--exit-code'], { allowed: [0, 1] });
  const line = (r) => `${r.seconds} s, ${r.requests} requests (${r.writes} writes)`;
  console.log(
    `lms apply of a course of ${size.modules} modules (${size.items} items), ${size.pages} pages, ` +
      `${size.assignments} assignments, ${size.topics} topics, ${size.quizzes} quizzes, ${size.groups} groups, ` +
      `${size.rubrics} rubrics against lms mock serve (node ${process.version})`,
  );
  console.log(`  apply:    ${line(apply)}`);
  console.log(`  re-apply: ${line(again)} ${again.writes === 0 ? 'PASS (no write)' : 'FAIL: it wrote'}`);
  console.log(`  diff:     ${line(diff)} ${diff.status === 0 ? 'PASS (no difference)' : 'FAIL: a difference'}`);
  failed = again.writes !== 0 || diff.status !== 0;
  const strip = ({ stdout, stderr, ...r }) => r;
  if (flags.out) {
    const figures = { apply: strip(apply), reapply: strip(again), diff: strip(diff) };
    const result = { date: new Date().toISOString(), node: process.version, size, ...figures, pass: !failed };
    writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
  }
  if (failed) console.log(diff.stdout, diff.stderr, again.stdout.slice(0, 2000));
} finally {
  await server.stop();
}
process.exitCode = failed ? 1 : 0;

// `npm run bench`: every benchmark on the machine's Node and on Node 24 (fetched through npm, as CI
// does), one line after the other, so the two columns of the README come from one run.
//   node bench/lines.mjs                 every benchmark on both lines
//   node bench/lines.mjs --only run      the start-up benchmark only (or import, grade, apply-course, …)
//   node bench/lines.mjs --lines 20,22,24
//   node bench/lines.mjs --against REF   the start-up benchmark paired with a build of a git ref (see run.mjs)
// Figures go to stdout as each benchmark prints them, and to bench/results/<benchmark>-node<N>.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: { only: { type: 'string' }, lines: { type: 'string' }, against: { type: 'string' } },
});
const benchmarks = (
  flags.against
    ? ['run']
    : ['run', 'import', 'grade', 'scale', 'apply', 'apply-course', 'mcp', 'mcp-tokens', 'jq', 'pseudonyms', 'sis']
).filter((name) => !flags.only || flags.only.split(',').includes(name));
const current = Number(process.versions.node.split('.')[0]);
const majors = flags.lines ? flags.lines.split(',').map(Number) : [...new Set([current, 24])];
const out = join(root, 'bench', 'results');
mkdirSync(out, { recursive: true });

let failed = false;
for (const major of majors) {
  const node = major === current ? process.execPath : fetchNode(major);
  if (!node) {
    console.log(`\n## Node ${major}: npm could not fetch it here; skipped`);
    failed = true;
    continue;
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  for (const name of benchmarks) {
    console.log(`\n## ${name} on Node ${version}\n`);
    const run = spawnSync(
      node,
      [
        join(root, 'bench', `${name}.mjs`),
        '--out',
        join(out, `${name}-node${major}.json`),
        ...(flags.against && name === 'run' ? ['--against', flags.against] : []),
      ],
      { stdio: 'inherit', cwd: root },
    );
    if (run.status !== 0) failed = true;
  }
}
process.exitCode = failed ? 1 : 0;

function fetchNode(major) {
  const r = spawnSync('npx', ['-y', `node@${major}`, '-p', 'process.execPath'], { encoding: 'utf8' });
  const path = r.stdout.trim();
  return r.status === 0 && path.startsWith('/') ? path : undefined;
}

// `lms mcp` start-up: how long a client waits for the answer to `initialize` (from spawn, over
// stdio), as a ratio of the same wait on a minimal server written by hand on the same SDK
// (bench/twins/mcp-server.mjs), measured in the same run, and then how long `tools/list` takes.
// The twin runs twice: on the SDK as lms ships it (dist/mcp-sdk.cjs, one file), which the budget
// is against, and on the SDK as installed (node_modules, ESM, ajv and all), for reference, as is
// bare `node -e 0`. Budgets (DESIGN.md "Performance budgets"):
// initialize within 1.3x of the hand-written server; tools/list under 50 ms.
//   node bench/mcp.mjs [--runs 20] [--out file.json]
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { lms, onJsonLines, root, scratchSpace } from './kit.mjs';

const INIT_RATIO_BUDGET = 1.3;
const LIST_MS_BUDGET = 50;

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '20' }, out: { type: 'string' } } });
const runs = Number(flags.runs);
const { scratch, env } = scratchSpace('mcp');
spawnSync(process.execPath, [lms, '--mock', 'mock', 'seed', '--yes'], { env, stdio: 'ignore' });

const message = (id, method, params = {}) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

const lmsMcp = [lms, '--mock', 'mcp', '--allow-writes'];
const twin = [join(root, 'bench', 'twins', 'mcp-server.mjs')];
const shipped = { BENCH_MCP_SDK: join(root, 'dist', 'mcp-sdk.cjs') };

/** Spawn to the answer of initialize, then initialized + tools/list to its answer. */
async function session(args = lmsMcp, extraEnv = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...env, ...extraEnv },
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: root,
  });
  const answers = new Map();
  const waiting = new Map();
  onJsonLines(child.stdout, (line) => {
    answers.set(line.id, performance.now());
    waiting.get(line.id)?.(line);
  });
  const ask = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(message(id, method, params));
    });
  await ask(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  const initialized = performance.now() - started;
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const listStart = performance.now();
  const list = await ask(2, 'tools/list');
  const listed = performance.now() - listStart;
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  if (args === lmsMcp && !list.result?.tools?.length) throw new Error('tools/list answered no tools');
  if (!list.result?.tools) throw new Error(`${args.join(' ')}: tools/list answered ${JSON.stringify(list)}`);
  return { initialized, listed, tools: list.result.tools.length };
}

function bare() {
  return new Promise((resolve) => {
    const started = performance.now();
    spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).on('exit', () => resolve(performance.now() - started));
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// Warm-up: the first run writes the code caches, as a user's first run does.
for (let i = 0; i < 3; i++) {
  await session();
  await session(twin, shipped);
  await session(twin);
  await bare();
}
const init = [];
const list = [];
const twinInit = [];
const installedInit = [];
const floor = [];
let tools = 0;
// Interleaved, the order turning each round, so the machine's drift hits them all alike.
for (let i = 0; i < runs; i++) {
  const turns = [
    async () => {
      const s = await session();
      init.push(s.initialized);
      list.push(s.listed);
      tools = s.tools;
    },
    async () => twinInit.push((await session(twin, shipped)).initialized),
    async () => installedInit.push((await session(twin)).initialized),
    async () => floor.push(await bare()),
  ];
  for (let k = 0; k < turns.length; k++) await turns[(i + k) % turns.length]();
}
rmSync(scratch, { recursive: true, force: true });

const ratio = median(init) / median(twinInit);
const result = {
  node: process.version,
  runs,
  tools,
  floorMs: Math.round(median(floor) * 10) / 10,
  twinInitializeMs: Math.round(median(twinInit) * 10) / 10,
  twinInstalledSdkInitializeMs: Math.round(median(installedInit) * 10) / 10,
  initializeMs: Math.round(median(init) * 10) / 10,
  initializeRatio: Math.round(ratio * 100) / 100,
  initializeFloorRatio: Math.round((median(init) / median(floor)) * 100) / 100,
  toolsListMs: Math.round(median(list) * 10) / 10,
  budgets: { initializeRatio: INIT_RATIO_BUDGET, toolsListMs: LIST_MS_BUDGET },
  pass: ratio <= INIT_RATIO_BUDGET && median(list) < LIST_MS_BUDGET,
};
if (flags.out) writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`  bare node -e 0:       ${result.floorMs} ms (median of ${runs}, interleaved)`);
console.log(
  `  by hand on the SDK:   ${result.twinInitializeMs} ms to the answer of initialize (bench/twins/mcp-server.mjs on ` +
    'dist/mcp-sdk.cjs)',
);
console.log(`  the same, SDK from node_modules: ${result.twinInstalledSdkInitializeMs} ms`);
console.log(
  `  initialize answered:  ${result.initializeMs} ms = ${result.initializeRatio.toFixed(2)}x of the hand-written ` +
    `server (budget <= ${INIT_RATIO_BUDGET}x) ${ratio <= INIT_RATIO_BUDGET ? 'PASS' : 'OVER'}; ` +
    `${result.initializeFloorRatio.toFixed(2)}x of bare node`,
);
console.log(
  `  tools/list (${tools} tools): ${result.toolsListMs} ms (budget < ${LIST_MS_BUDGET} ms) ` +
    `${median(list) < LIST_MS_BUDGET ? 'PASS' : 'OVER'}`,
);

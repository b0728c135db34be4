// What `tools/list` of `lms mcp` costs an assistant, in tokens counted as bytes ÷ 4 of the JSON of
// its answer's tools: the default, each toolset alone, the dynamic mode alone, and all, read-only
// and with --allow-writes. Budget (DESIGN.md "Performance budgets"): the default within 10,000
// tokens; test/mcp/budget.test.ts holds it too. Nothing is timed, so one run is the figure.
//   node bench/mcp-tokens.mjs [--out file.json]
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { lms, onJsonLines, root, scratchSpace } from './kit.mjs';

const DEFAULT_BUDGET = 10_000;
const TOOLSETS = [
  'courses',
  'course-content',
  'roster',
  'school',
  'grading',
  'discussions',
  'conversations',
  'quizzes',
  'outcomes',
  'planner',
];

const { values: flags } = parseArgs({ options: { out: { type: 'string' } } });
const { env } = scratchSpace('mcp-tokens');
spawnSync(process.execPath, [lms, '--mock', 'mock', 'seed', '--yes'], { env, stdio: 'ignore' });

const message = (id, method, params = {}) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

/** The tools of `lms --mock mcp ...args`, as tools/list answers them. */
async function listed(args) {
  const child = spawn(process.execPath, [lms, '--mock', 'mcp', ...args], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: root,
  });
  const waiting = new Map();
  onJsonLines(child.stdout, (line) => waiting.get(line.id)?.(line));
  const ask = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(message(id, method, params));
    });
  await ask(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'b', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const list = await ask(2, 'tools/list');
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  return list.result.tools;
}

const tokens = (tools) => Math.round(Buffer.byteLength(JSON.stringify(tools)) / 4);

const rows = [];
const measure = async (label, args) => {
  const tools = await listed(args);
  const row = { label, args: args.join(' '), tools: tools.length, tokens: tokens(tools) };
  rows.push(row);
  console.log(`${label.padEnd(40)} ${String(row.tools).padStart(4)} tools ${String(row.tokens).padStart(7)} tokens`);
};

await measure('default (read-only)', []);
await measure('default --allow-writes', ['--allow-writes']);
await measure('--dynamic-toolsets alone', ['--dynamic-toolsets']);
for (const set of TOOLSETS) await measure(`--toolsets ${set}`, ['--toolsets', set]);
for (const set of TOOLSETS) await measure(`--toolsets ${set} --allow-writes`, ['--toolsets', set, '--allow-writes']);
await measure('--toolsets all', ['--toolsets', 'all']);
await measure('--toolsets all --allow-writes', ['--toolsets', 'all', '--allow-writes']);
await measure('--toolsets all --allow-destructive', ['--toolsets', 'all', '--allow-destructive']);

const byDefault = rows[0].tokens;
console.log(
  `\ndefault tools/list: ${byDefault} tokens, budget ${DEFAULT_BUDGET}: ` +
    `${byDefault <= DEFAULT_BUDGET ? 'within' : 'OVER'}`,
);
if (flags.out) writeFileSync(flags.out, `${JSON.stringify({ budget: DEFAULT_BUDGET, rows }, null, 2)}\n`);
if (byDefault > DEFAULT_BUDGET) process.exitCode = 1;

// `lms mcp --pseudonymize` on a 1,000-user list: the users listed a page of 100 at a time over stdio
// through `users_list`, pseudonymised and plain, each on its own server, alternating, in the same
// run. Budget (DESIGN.md "Performance budgets"): pseudonymised within 1.2x of plain, once who is
// staff is known (the server lists each course's staff and each account's admins once, then keeps
// them for the process); the first listing, which asks, is reported beside it.
//   node bench/pseudonyms.mjs [--runs 15] [--out file.json]
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { lms, onJsonLines, root, scratchSpace } from './kit.mjs';

const RATIO_BUDGET = 1.2;
const USERS = 1000;

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '15' }, out: { type: 'string' } } });
const runs = Number(flags.runs);
const { scratch, env } = scratchSpace('pseudonyms');
// The seeded school has 13 users; the rest are generated.
spawnSync(process.execPath, [lms, '--mock', 'mock', 'seed', '--yes', '--users', String(USERS - 13)], {
  env,
  stdio: 'ignore',
});

/** A server on stdio, and a way to ask it. */
async function server(extra) {
  const child = spawn(process.execPath, [lms, '--mock', 'mcp', ...extra], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: root,
  });
  let id = 0;
  const waiting = new Map();
  onJsonLines(child.stdout, (line) => waiting.get(line.id)?.(line));
  const ask = (method, params = {}) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await ask('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    /** The whole list, page by page: ms, and the users listed. */
    async list() {
      const started = performance.now();
      let cursor;
      let count = 0;
      do {
        const answer = await ask('tools/call', {
          name: 'users_list',
          arguments: { limit: 100, ...(cursor ? { cursor } : {}) },
        });
        const page = answer.result?.structuredContent;
        if (!page?.items) throw new Error(`users_list answered ${JSON.stringify(answer).slice(0, 300)}`);
        count += page.items.length;
        cursor = page.next_cursor;
      } while (cursor);
      return { ms: performance.now() - started, count };
    },
    close: () => new Promise((resolve) => child.on('exit', resolve).stdin.end()),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const plain = await server([]);
const hidden = await server(['--pseudonymize']);
const firstPlain = await plain.list();
const first = await hidden.list();
if (first.count !== USERS || firstPlain.count !== USERS)
  throw new Error(`listed ${first.count} and ${firstPlain.count} users, not ${USERS}`);
const times = { plain: [], pseudonymized: [] };
for (let i = 0; i < runs; i++) {
  times.plain.push((await plain.list()).ms);
  times.pseudonymized.push((await hidden.list()).ms);
}
await plain.close();
await hidden.close();
rmSync(scratch, { recursive: true, force: true });

const result = {
  node: process.version,
  users: USERS,
  plain_ms: median(times.plain),
  pseudonymized_ms: median(times.pseudonymized),
  ratio: median(times.pseudonymized) / median(times.plain),
  first_listing: { plain_ms: firstPlain.ms, pseudonymized_ms: first.ms },
  budget: RATIO_BUDGET,
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;
console.log(`users_list, ${USERS} users a page of 100 at a time (median of ${runs}):`);
console.log(`  plain           ${fmt(result.plain_ms)}`);
console.log(
  `  --pseudonymize  ${fmt(result.pseudonymized_ms)}  ${result.ratio.toFixed(2)}x (budget ${RATIO_BUDGET}x) ` +
    `${result.ratio <= RATIO_BUDGET ? 'ok' : 'OVER'}`,
);
console.log(
  `  first listing, which asks the instance who is staff: plain ${fmt(firstPlain.ms)}, pseudonymised ${fmt(first.ms)}`,
);
if (flags.out) writeFileSync(flags.out, `${JSON.stringify(result, null, 2)}\n`);
process.exitCode = result.ratio <= RATIO_BUDGET ? 0 : 1;

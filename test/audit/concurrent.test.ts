// Eight real processes writing the audit log at once while its stale part is dropped (and, in the
// second case, while it rotates over and over): every entry written is there afterwards, once,
// and no stale one. The old log lost some in every run: a prune read the file and wrote it back
// over the lines other processes appended in between.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/log.js';
import { readEntries } from '../../src/audit/read.js';

const DAY = 86_400_000;
const PROCESSES = 8;
const EACH = 50;
const STALE = 60_000;

let work: string;
let child: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'lms-audit-race-'));
  // The log's module as the CLI runs it, bundled for plain node: each child is a process of its own.
  buildSync({
    entryPoints: [resolve('src/audit/log.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(work, 'log.mjs'),
    logLevel: 'error',
  });
  child = join(work, 'child.mjs');
  writeFileSync(
    child,
    `import { existsSync, writeFileSync } from 'node:fs';
import { AuditLog } from './log.mjs';
const [path, id, each, maxBytes, keepFiles, dir] = process.argv.slice(2);
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
writeFileSync(dir + '/ready-' + id, '');
const until = Date.now() + 30000;
while (!existsSync(dir + '/go') && Date.now() < until) pause(1);
let log;
for (let n = 0; n < Number(each); n++) {
  // A new log every ten lines, as a new lms process would open it: each looks at the oldest line.
  if (n % 10 === 0) {
    log = new AuditLog(path, { maxBytes: Number(maxBytes), keepFiles: Number(keepFiles), keepDays: 30 });
  }
  log.append({ time: new Date().toISOString(), instance: 'https://lms.example.edu', user: { via: 'race' },
    surface: 'cli', verb: 'lms users create', method: 'POST', path: '/api/v1/accounts/1/users?p=' + id + '&n=' + n,
    status: 200 });
  if (n % 5 === 0) pause(1);
}
`,
  );
});

const line = (time: number, tag: string) => {
  const entry = { time: new Date(time).toISOString(), instance: 'https://lms.example.edu', user: { via: 'seed' } };
  return `${JSON.stringify({ ...entry, surface: 'cli', method: 'POST', path: `/api/v1/seed?${tag}`, status: 200 })}\n`;
};

function run(args: string[]): Promise<number | null> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    p.on('error', fail);
    p.on('exit', (code) => done(code));
  });
}

async function round(name: string, maxBytes: number, keepFiles: number) {
  const dir = join(work, name);
  mkdirSync(dir);
  const path = join(dir, 'audit.log');
  const now = Date.now();
  // The current file starts with many lines past the retention, then some within it; a rotated
  // file holds both kinds too.
  const stale = Array.from({ length: STALE }, (_, i) => line(now - 200 * DAY + i, `stale=${i}`)).join('');
  const fresh = Array.from({ length: 20 }, (_, i) => line(now - 5 * DAY + i, `fresh=${i}`)).join('');
  const rotated = line(now - 300 * DAY, 'stale=old') + line(now - 250 * DAY, 'fresh=rotated');
  writeFileSync(`${path}.1`, rotated, { mode: 0o600 });
  writeFileSync(path, stale + fresh, { mode: 0o600 });
  const settings = [String(EACH), String(maxBytes), String(keepFiles), dir];
  const runs = Array.from({ length: PROCESSES }, (_, id) => run([path, String(id), ...settings]));
  const deadline = Date.now() + 30_000;
  const ready = () => readdirSync(dir).filter((f) => f.startsWith('ready-')).length;
  while (ready() < PROCESSES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  writeFileSync(join(dir, 'go'), '');
  expect(await Promise.all(runs)).toEqual(Array(PROCESSES).fill(0));

  const seen = [...readEntries(path)].map((e: AuditEntry) => e.path!.split('?')[1]);
  const expected = [
    ...Array.from({ length: 20 }, (_, i) => `fresh=${i}`),
    ...Array.from({ length: PROCESSES * EACH }, (_, k) => `p=${Math.floor(k / EACH)}&n=${k % EACH}`),
  ];
  const missing = expected.filter((tag) => !seen.includes(tag));
  expect(missing, `${missing.length} of ${expected.length} entries lost`).toEqual([]);
  // Each once, and nothing past the retention kept (the rotated seed's 250-day line goes too).
  expect(seen.length).toBe(new Set(seen).size);
  expect(seen.filter((tag) => tag.startsWith('stale') || tag === 'fresh=rotated')).toEqual([]);
  expect(readdirSync(dir).filter((f) => f.includes('.lock') || f.endsWith('.next'))).toEqual([]);
  return { seen, files: readdirSync(dir).filter((f) => f.startsWith('audit.log')) };
}

describe('the audit log written by eight processes at once', () => {
  it('keeps every entry while the stale part is dropped, round after round', async () => {
    for (let r = 0; r < 3; r++) await round(`prune-${r}`, 64 * 1024 * 1024, 3);
  }, 120_000);

  it('keeps every entry while it also rotates many times over', async () => {
    for (let r = 0; r < 3; r++) {
      // A few kilobytes a file: the 400 lines make dozens of rotations among the eight writers.
      const { files } = await round(`rotate-${r}`, 8 * 1024, 200);
      expect(files.length).toBeGreaterThan(5);
    }
  }, 120_000);
});

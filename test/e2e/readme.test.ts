// The README's shell blocks run as a reader would run them: each block in one bash, in a fresh
// directory with a fresh HOME, profile directory and mock database, with the built `bin/lms` on
// PATH as `lms` (and `npx lms` meaning the same). A block that cannot run here says why in an
// HTML comment just before it — `<!-- needs: a real instance -->` — and is skipped and counted; a
// block marked `<!-- runs: on the mock (LMS_MOCK=1) -->` runs with LMS_MOCK=1, as the README tells
// the reader to set it. The first block is the README's first command: its `npx lms …` runs, the
// install and the test suite it names do not. Also here: the README's length, and that every
// link between the README and docs/ leads to a page and a heading that exist.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root } from '../helpers/e2e.js';

export interface ShellBlock {
  /** The README line of the opening fence (1-based). */
  line: number;
  code: string;
  /** What the block needs that the test cannot give it (a real instance, a browser): skipped. */
  needs?: string;
  /** The block runs with LMS_MOCK=1. */
  mock: boolean;
}

const MARKER = /^<!--\s*(needs|runs):\s*(.*?)\s*-->$/;
const ON_THE_MOCK = 'on the mock (LMS_MOCK=1)';

/** Every ```sh block of a Markdown text, with the marker comment on the line before it (blank lines between allowed). */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    if (['sh', 'bash', 'shell', 'console'].includes(open[2])) {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      const marker = before >= 0 ? MARKER.exec(lines[before].trim()) : null;
      if (marker?.[1] === 'runs' && marker[2] !== ON_THE_MOCK) throw new Error(`README.md:${before + 1}: unknown marker "${lines[before].trim()}" (runs: ${ON_THE_MOCK})`);
      blocks.push({
        line: i + 1,
        code: lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n'),
        needs: marker?.[1] === 'needs' ? marker[2] : undefined,
        mock: marker?.[1] === 'runs',
      });
    }
    i = end;
  }
  return blocks;
}

/** GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces as hyphens. */
export function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const README = join(root, 'README.md');
const readme = readFileSync(README, 'utf8');
const blocks = shellBlocks(readme);
const BLOCK_TIMEOUT_MS = 30_000;

const FIRST_COMMAND = 'npm install && npx lms --mock users list --account 1';

/** The first block installs and tests the checkout: of it, only the `npx lms …` after the install runs here. */
function runnable(block: ShellBlock, index: number): string {
  if (index !== 0) return block.code;
  return block.code
    .split('\n')
    .filter((l) => l.trim() !== 'npm test')
    .map((l) => l.replace(/^npm install && /, ''))
    .join('\n');
}

let work: string;
let shims: string;
let cache: string;

beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'lms-readme-'));
  shims = join(work, 'bin');
  cache = join(work, 'cache');
  mkdirSync(shims);
  symlinkSync(bin, join(shims, 'lms'));
  // `npx lms …` in a checkout runs the checkout's lms; here it is the built one, and nothing else.
  writeFileSync(join(shims, 'npx'), '#!/bin/sh\n[ "$1" = lms ] || { echo "npx: only npx lms here" >&2; exit 127; }\nshift\nexec lms "$@"\n');
  chmodSync(join(shims, 'npx'), 0o755);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** One bash for the block, in a process group of its own, which is ended with it: a server the block left running (or a block that failed before stopping it) goes too. */
function runBlock(script: string, env: Record<string, string>, cwd: string): Promise<Ran> {
  return new Promise((done) => {
    // The trap names the line that failed, in the block's own numbering (the preamble is line 1).
    const preamble = `set -eo pipefail; trap 'echo "README block line $((LINENO - 1)) failed (exit $?): $BASH_COMMAND" >&2' ERR\n`;
    const child = spawn('bash', ['-c', preamble + script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGKILL');
    }, BLOCK_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      killGroup('SIGTERM');
      // Pipes held by a leftover child close once it is gone; do not wait on them for ever.
      const late = setTimeout(() => killGroup('SIGKILL'), 2_000);
      const finish = () => {
        clearTimeout(late);
        done({ code, signal, stdout, stderr, timedOut });
      };
      if (child.stdout.readableEnded && child.stderr.readableEnded) finish();
      else child.on('close', finish);
    });
  });
}

/** The environment of a reader's fresh machine: none of the caller's lms settings, no keychain, no XDG directories elsewhere. */
function freshEnv(dir: string, mock: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('LMS_') || k.startsWith('XDG_') || k.startsWith('npm_') || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  return {
    ...env,
    PATH: `${shims}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: join(dir, 'home'),
    LMS_CONFIG_DIR: join(dir, 'config'),
    LMS_MOCK_DB: join(dir, 'mock.db'),
    // Compiled code, not state: shared, so each block does not pay for a first run.
    LMS_CACHE_DIR: cache,
    NO_COLOR: '1',
    // No Secret Service: a profile a block adds is kept in its own profile file, never in the
    // keychain of whoever runs the tests.
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    ...(mock ? { LMS_MOCK: '1' } : {}),
  };
}

describe('README.md', () => {
  it('opens with the two commands that set everything up, and stays under 600 lines', () => {
    const lines = readme.split('\n');
    expect(lines.slice(0, 4)).toEqual(['```sh', FIRST_COMMAND, 'npm test', '```']);
    expect(lines.length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(600);
  });

  it('marks every block it does not run, and runs the rest', () => {
    const skipped = blocks.filter((b) => b.needs);
    const ran = blocks.filter((b) => !b.needs);
    // So that a README whose blocks were all marked cannot pass this file unnoticed.
    expect(ran.length).toBeGreaterThanOrEqual(10);
    for (const b of skipped) expect(b.needs, `README.md:${b.line}`).not.toBe('');
    console.log(`README.md: ${blocks.length} shell blocks, ${ran.length} run against the mock, ${skipped.length} marked: ${skipped.map((b) => `line ${b.line} (${b.needs})`).join(', ')}`);
  });

  describe.each(blocks.map((b, i) => ({ ...b, index: i })))('block at line $line', (block) => {
    it.skipIf(block.needs !== undefined)(`runs as written${block.mock ? ' with LMS_MOCK=1' : ''}`, { timeout: BLOCK_TIMEOUT_MS + 10_000 }, async () => {
      const dir = mkdtempSync(join(work, 'block-'));
      const cwd = join(dir, 'cwd');
      mkdirSync(cwd);
      mkdirSync(join(dir, 'home'));
      const r = await runBlock(runnable(block, block.index), freshEnv(dir, block.mock), cwd);
      const why = `README.md:${block.line}${r.timedOut ? ` did not end within ${BLOCK_TIMEOUT_MS / 1000} s` : ''}\n--- stderr\n${r.stderr}\n--- stdout\n${r.stdout.slice(0, 4000)}`;
      expect(r.timedOut, why).toBe(false);
      expect(r.code, why).toBe(0);
      // The README's own first command prints the mock school's users.
      if (block.index === 0) expect(r.stdout).toContain('Ada Admin');
      rmSync(dir, { recursive: true, force: true });
    });
  });
});

describe('links between the README and docs/', () => {
  const pages = [README, ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
  const anchors = (file: string) => {
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) => anchor(m[1])));
  };
  it.each(pages.map((p) => ({ page: relative(root, p), path: p })))('$page links only to pages and headings that exist', ({ path }) => {
    const text = readFileSync(path, 'utf8');
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [file, hash] = target.split('#');
      const to = file ? resolve(dirname(path), file) : path;
      if (!existsSync(to)) broken.push(`${target}: no such file`);
      else if (hash !== undefined && to.endsWith('.md') && !anchors(to).has(hash)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});

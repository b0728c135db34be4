// The README's shell blocks run as a reader would run them: with the built `bin/lms` on PATH as
// `lms` (and `npx lms` meaning the same), in a fresh directory with an empty HOME, all of them in one
// bash from top to bottom, and each alone in a bash of its own. After every block the shell must be
// as the block found it: the same exported LMS_ variables and profiles, no job or process left
// running, no port left listening. A block that cannot run here says why in an HTML comment just
// before it — `<!-- needs: a real instance -->` — and is skipped and counted; a block marked
// `<!-- runs: on the mock (LMS_MOCK=1) -->` runs with LMS_MOCK=1, as the README tells the reader to
// set it. The first block is the README's first command: its `npx lms …` runs, the install and the
// test suite it names do not. What a block's comments say it prints is checked where the block is
// named in PROMISES. Also here: the README's length, and that every link between the README and
// docs/ leads to a page and a heading that exist.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root } from '../helpers/e2e.js';

interface ShellBlock {
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

/**
 * Every ```sh block of a Markdown text, with the marker comment on the line before it (blank lines between allowed).
 */
function shellBlocks(markdown: string): ShellBlock[] {
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
      if (marker?.[1] === 'runs' && marker[2] !== ON_THE_MOCK)
        throw new Error(`README.md:${before + 1}: unknown marker "${lines[before].trim()}" (runs: ${ON_THE_MOCK})`);
      blocks.push({
        line: i + 1,
        code: lines
          .slice(i + 1, end)
          .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
          .join('\n'),
        needs: marker?.[1] === 'needs' ? marker[2] : undefined,
        mock: marker?.[1] === 'runs',
      });
    }
    i = end;
  }
  return blocks;
}

/** GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces as hyphens. */
function anchor(heading: string): string {
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
const ONE_SHELL_TIMEOUT_MS = 120_000;

const FIRST_COMMAND = 'npm install && npx lms --mock users list --account 1';

/** The first block installs and tests the checkout: of it, only the `npx lms …` after the install runs here. */
function runnable(block: ShellBlock, index: number): string {
  if (index !== 0) return block.code;
  return block.code
    .split('\n')
    .map((l) => (l.trim() === 'npm test' ? '' : l.replace(/^npm install && /, '')))
    .join('\n');
}

/** What a block's comments say it prints, checked: found by a piece of the block's code, which only that block has. */
const PROMISES: { block: string; stdout?: RegExp[]; stderr?: RegExp[] }[] = [
  { block: 'npx lms --mock users list', stdout: [/Ada Admin/] },
  {
    block: '--fault-seed',
    // curl's answer: a page of users, with its next page and the throttle's headroom.
    stdout: [/^HTTP\/1\.1 200 OK\r?$/m, /^link: .*rel="next"/im, /^x-rate-limit-remaining: \d/im],
    // `lms -v`: the request met an injected fault and was tried again.
    stderr: [/↻ retry 2\/5 of GET \S+\/api\/v1\/users\/self in \d+ ms: 50[0234]/],
  },
];

/**
 * The processes of a shell's process group other than the shell and this script, each with the TCP
 * ports it listens on: what a block left running. Read from /proc; where there is none, it says so
 * (the comparison then rests on the jobs and profiles alone).
 */
const GROUP_PROCESSES = `
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
const shell = Number(process.argv[2]);
if (!existsSync('/proc/self/stat')) { console.log('processes: not visible (no /proc)'); process.exit(0); }
const listening = new Map();
for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
  if (!existsSync(table)) continue;
  for (const line of readFileSync(table, 'utf8').split('\\n').slice(1)) {
    const cols = line.trim().split(/\\s+/);
    if (cols[3] === '0A') listening.set(cols[9], parseInt(cols[1].split(':').pop(), 16));
  }
}
for (const entry of readdirSync('/proc')) {
  const pid = Number(entry);
  if (!Number.isInteger(pid) || pid === shell || pid === process.pid) continue;
  try {
    const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie is a job that ended and is not yet reaped: nothing of it runs.
    if (Number(group) !== shell || state === 'Z') continue;
    const ports = [];
    for (const fd of readdirSync('/proc/' + pid + '/fd')) {
      const socket = /^socket:\\[(\\d+)\\]$/.exec(readlinkSync('/proc/' + pid + '/fd/' + fd));
      if (socket && listening.has(socket[1])) ports.push(listening.get(socket[1]));
    }
    const command = readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').filter(Boolean).join(' ');
    console.log('process ' + pid + ': ' + command + (ports.length ? ' (listening on ' + ports.join(', ') + ')' : ''));
  } catch {
    // Gone while it was read.
  }
}
`;

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

interface Step {
  block: ShellBlock;
  index: number;
}

/**
 * One bash script that runs the blocks in order, as a reader types them into one shell: LMS_MOCK=1
 * exported for a block marked to run on the mock and unset for one that is not, each block's output in
 * files of its own, and what a block must leave as it found it written to files: its exported LMS_
 * variables and the shell's running jobs before and after it (the shell's own builtins, so taken
 * twice), the profiles and the processes it started, with their listening ports, after it (programs
 * to run, so taken once a block and compared with the block before; `writeStart` takes them before the
 * first block too, where the caller does not know them). Any command that fails ends the shell,
 * naming its README line.
 */
function shellScript(steps: Step[], dir: string, writeStart: boolean): string {
  const lines: string[] = [];
  const add = (text: string) => lines.push(...text.split('\n'));
  const file = (name: string) => quote(join(dir, name));
  add('set -eo pipefail');
  add(
    `trap '__lms_rc=$?; if [ -n "$__lms_at" ]; then echo "README.md:$((LINENO + __lms_at)): exit $__lms_rc: ` +
      `$BASH_COMMAND"; else echo "a line of the test failed (exit $__lms_rc): $BASH_COMMAND"; fi >&2' ERR`,
  );
  add(`__lms_shell() {
  echo "exported:"; export -p | grep -E '^declare -x LMS_' || true
  echo "jobs:"; jobs -rp
}
__lms_machine() {
  echo "profiles:"; lms profile list -o json
  ${quote(process.execPath)} ${quote(join(work, 'group-processes.mjs'))} $$
}`);
  if (writeStart) add(`__lms_machine > ${file('start.machine')}`);
  for (const [n, step] of steps.entries()) {
    add(step.block.mock ? 'export LMS_MOCK=1' : 'unset LMS_MOCK');
    add(`__lms_shell > ${file(`${n}.shell-before`)}`);
    // The block's first line is README line block.line + 1, and script line lines.length + 3.
    add(`__lms_at=${step.block.line + 1 - (lines.length + 3)}`);
    add('{');
    add(runnable(step.block, step.index));
    add(`} > ${file(`${n}.out`)} 2> ${file(`${n}.err`)}`);
    add('__lms_at=');
    add(`__lms_shell > ${file(`${n}.shell-after`)}`);
    add(`__lms_machine > ${file(`${n}.machine`)}`);
  }
  return `${lines.join('\n')}\n`;
}

let work: string;
let shims: string;
let cache: string;
/** The profiles and processes of a fresh machine: where each block run alone starts. */
let freshStart: string;

beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'lms-readme-'));
  shims = join(work, 'bin');
  cache = join(work, 'cache');
  mkdirSync(shims);
  symlinkSync(bin, join(shims, 'lms'));
  // `npx lms …` in a checkout runs the checkout's lms; here it is the built one, and nothing else.
  writeFileSync(
    join(shims, 'npx'),
    '#!/bin/sh\n[ "$1" = lms ] || { echo "npx: only npx lms here" >&2; exit 127; }\nshift\nexec lms "$@"\n',
  );
  chmodSync(join(shims, 'npx'), 0o755);
  writeFileSync(join(work, 'group-processes.mjs'), GROUP_PROCESSES);
  freshStart = await freshMachine();
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

/**
 * One bash, in a process group of its own, which is ended with it: a server a block left running (or a block that
 * failed before stopping it) goes too.
 */
function runShell(script: string, env: Record<string, string>, cwd: string, timeoutMs: number): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
    }, timeoutMs);
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

/**
 * A reader's fresh machine: an empty HOME, none of the caller's lms settings, no keychain, no XDG directories
 * elsewhere.
 */
function freshEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('LMS_') || k.startsWith('XDG_') || k.startsWith('npm_') || k === 'NODE_OPTIONS')
      continue;
    env[k] = v;
  }
  return {
    ...env,
    PATH: `${shims}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: home,
    // Compiled code, not state: shared, so each run does not pay for a first start.
    LMS_CACHE_DIR: cache,
    NO_COLOR: '1',
    // No Secret Service: a profile a block adds is kept in its own profile file, never in the
    // keychain of whoever runs the tests.
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
  };
}

interface Workspace {
  files: string;
  read(name: string): string | undefined;
  run(script: (files: string) => string, timeoutMs: number): Promise<Ran>;
  remove(): void;
}

/** A fresh directory to run in, an empty HOME, and a folder for what the script writes about each block. */
function workspace(): Workspace {
  const dir = mkdtempSync(join(work, 'run-'));
  const [cwd, home, files] = ['cwd', 'home', 'blocks'].map((d) => join(dir, d));
  for (const d of [cwd, home, files]) mkdirSync(d);
  return {
    files,
    read: (name) => (existsSync(join(files, name)) ? readFileSync(join(files, name), 'utf8') : undefined),
    run: (script, timeoutMs) => runShell(script(files), freshEnv(home), cwd, timeoutMs),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The profiles and processes of a fresh machine, as the script writes them. */
async function freshMachine(): Promise<string> {
  const ws = workspace();
  const r = await ws.run((files) => shellScript([], files, true), BLOCK_TIMEOUT_MS);
  const start = ws.read('start.machine');
  if (r.code !== 0 || start === undefined)
    throw new Error(`the state of a fresh machine could not be read\n${r.stderr}`);
  ws.remove();
  return start;
}

/**
 * Runs the blocks in one shell, in a fresh directory and HOME; every way a block broke the reader's
 * shell, with its README line and output. `start`: the profiles and processes before the first block,
 * when known.
 */
async function runInOneShell(steps: Step[], timeoutMs: number, start?: string): Promise<string[]> {
  const ws = workspace();
  const r = await ws.run((files) => shellScript(steps, files, start === undefined), timeoutMs);
  const problems: string[] = [];
  let machine = start ?? ws.read('start.machine');
  for (const [n, { block }] of steps.entries()) {
    const before = ws.read(`${n}.shell-before`);
    if (before === undefined || machine === undefined) break;
    const [after, machineAfter, out = '', err = ''] = [`${n}.shell-after`, `${n}.machine`, `${n}.out`, `${n}.err`].map(
      ws.read,
    );
    const output = `\n--- stderr\n${err.slice(0, 4000)}\n--- stdout\n${out.slice(0, 2000)}`;
    if (after === undefined || machineAfter === undefined) {
      problems.push(
        `README.md:${block.line}: ${r.timedOut ? `did not end within ${timeoutMs / 1000} s` : 'failed'}${output}`,
      );
      break;
    }
    if (after + machineAfter !== before + machine) {
      problems.push(
        `README.md:${block.line}: left the shell otherwise than it found it\n--- before\n${before}${machine}\n--- ` +
          `after\n${after}${machineAfter}${output}`,
      );
    }
    for (const promise of PROMISES.filter((p) => block.code.includes(p.block))) {
      for (const [stream, text, patterns] of [
        ['stdout', out, promise.stdout],
        ['stderr', err, promise.stderr],
      ] as const) {
        for (const pattern of patterns ?? [])
          if (!pattern.test(text))
            problems.push(`README.md:${block.line}: its ${stream} does not show ${pattern}${output}`);
      }
    }
    machine = machineAfter;
  }
  if (!problems.length && (r.code !== 0 || r.timedOut))
    problems.push(`the shell ended with ${r.timedOut ? 'a timeout' : `exit ${r.code}`}\n--- stderr\n${r.stderr}`);
  ws.remove();
  return problems;
}

const steps: Step[] = blocks.map((block, index) => ({ block, index })).filter(({ block }) => block.needs === undefined);

describe('README.md', () => {
  it('opens with the two commands that set everything up, and stays under 600 lines', () => {
    const lines = readme.split('\n');
    expect(lines.slice(0, 4)).toEqual(['```sh', FIRST_COMMAND, 'npm test', '```']);
    expect(lines.length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(600);
  });

  it('marks every block it does not run, and runs the rest', () => {
    const skipped = blocks.filter((b) => b.needs);
    // So that a README whose blocks were all marked cannot pass this file unnoticed.
    expect(steps.length).toBeGreaterThanOrEqual(10);
    for (const b of skipped) expect(b.needs, `README.md:${b.line}`).not.toBe('');
    console.log(
      `README.md: ${blocks.length} shell blocks, ${steps.length} run against the mock, ${skipped.length} marked: ` +
        `${skipped.map((b) => `line ${b.line} (${b.needs})`).join(', ')}`,
    );
  });

  it('keeps each promise about a block’s output in exactly one block that runs', () => {
    for (const promise of PROMISES)
      expect(
        steps.filter((s) => s.block.code.includes(promise.block)).map((s) => s.block.line),
        promise.block,
      ).toHaveLength(1);
  });

  it('runs top to bottom in one shell, each block leaving it as it found it', {
    timeout: ONE_SHELL_TIMEOUT_MS + 10_000,
  }, async () => {
    expect(await runInOneShell(steps, ONE_SHELL_TIMEOUT_MS)).toEqual([]);
  });

  describe.each(steps)('block at line $block.line', (step) => {
    it(`runs alone as written${step.block.mock ? ' with LMS_MOCK=1' : ''}, leaving the shell as it found it`, {
      timeout: BLOCK_TIMEOUT_MS + 10_000,
    }, async () => {
      expect(await runInOneShell([step], BLOCK_TIMEOUT_MS, freshStart)).toEqual([]);
    });
  });
});

describe('links between the README and docs/', () => {
  const pages = [
    README,
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(root, 'docs', f)),
  ];
  const anchors = (file: string) => {
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) => anchor(m[1])));
  };
  it.each(pages.map((p) => ({ page: relative(root, p), path: p })))(
    '$page links only to pages and headings that exist',
    ({ path }) => {
      const text = readFileSync(path, 'utf8');
      const broken: string[] = [];
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue;
        const [file, hash] = target.split('#');
        const to = file ? resolve(dirname(path), file) : path;
        if (!existsSync(to)) broken.push(`${target}: no such file`);
        else if (hash !== undefined && to.endsWith('.md') && !anchors(to).has(hash))
          broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    },
  );
});

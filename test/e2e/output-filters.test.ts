// --jq and -o yaml from the built binary: jq and the yaml package (each a file of its own beside the
// bundle) are loaded only by the runs that ask for them. V8's coverage of a run (NODE_V8_COVERAGE)
// says which functions ran: a module of the bundle ran when its initialiser did.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, peakRss, serveMock, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('output-filters');
const base = { ...env, LMS_CACHE_DIR: join(dir, 'cache') };

beforeAll(async () => {
  await ensureBuilt();
});

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

/** What a run of lms loaded: the bundle modules whose initialisers ran, and the other scripts it compiled. */
async function loaded(args: string[], extra: Record<string, string> = {}) {
  const coverage = mkdtempSync(join(dir, 'coverage-'));
  const r = await spawnLms(args, { ...base, ...extra, NODE_V8_COVERAGE: coverage });
  expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  const scripts = readdirSync(coverage).flatMap(
    (f) => (JSON.parse(readFileSync(join(coverage, f), 'utf8')) as { result: ScriptCoverage[] }).result,
  );
  const bundle = scripts.find((s) => s.url.endsWith('/dist/lms.cjs'));
  expect(bundle, 'the coverage names the bundle').toBeDefined();
  // esbuild names each module's initialiser after the module's path (node_modules as resolved, links
  // followed), in whichever of the CLI's files holds it.
  const modules = scripts
    .filter((s) => s.url.includes('/dist/'))
    .flatMap((s) => s.functions)
    .filter((f) => /^(src\/|.*node_modules\/)/.test(f.functionName) && f.ranges[0].count > 0)
    .map((f) => f.functionName);
  return { modules, scripts: scripts.map((s) => s.url).filter((url) => url.includes('/dist/')) };
}

const JQ = (m: string) => m === 'src/output/jq.ts' || m.includes('node_modules/jq-wasm/');
const YAML = (m: string) => m === 'src/output/yaml.ts' || m.includes('node_modules/yaml/');

describe('lms --jq and -o yaml, spawned', () => {
  it('filters a list with jq and prints string results raw', async () => {
    const r = await spawnLms(
      ['--mock', 'users', 'list', '--account', '1', '--jq', '.[] | select(.id > 5) | .name'],
      base,
    );
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([
      'Dev Designer',
      'Lucas Moreau',
      'Olive Observer',
      'Mina Okafor',
      'Ravi Patel',
      'Hana Sato',
      'Sam Student',
      'Sofia Student',
    ]);
  });

  it("exits 2 with jq's message for an expression jq cannot compile", async () => {
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', '.[] | select(.id >'], base);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --jq: syntax error/);
  });

  // Each limit set small, so a filter that never ends is ended within seconds, and the other set
  // high enough not to be the one that ends it. Output streams, so what jq wrote before stays printed.
  it.each([
    [
      'recursion without end',
      'def f: f; f',
      { LMS_JQ_TIMEOUT: '2' },
      /^error: --jq: the filter ran past its time limit of 2 s\nhint: LMS_JQ_TIMEOUT=/,
      [''],
    ],
    [
      'a huge array being built',
      '[limit(1e8; repeat(1))]',
      { LMS_JQ_TIMEOUT: '2' },
      /^error: --jq: the filter ran past its time limit of 2 s\n/,
      [''],
    ],
    [
      'values held without end',
      '[repeat(.)]',
      { LMS_JQ_TIMEOUT: '60', LMS_JQ_MEMORY: '64' },
      /^error: --jq: the filter ran past its memory limit of 64 MB\nhint: LMS_JQ_MEMORY=/,
      [''],
    ],
    [
      'output without end',
      '.[0].id | repeat(.)',
      { LMS_JQ_TIMEOUT: '2' },
      /^error: --jq: the filter ran past its time limit of 2 s\n/,
      ['1'],
    ],
    [
      "recursion that grows jq's stack",
      'def f: 1 + f; f',
      { LMS_JQ_TIMEOUT: '60' },
      /^error: --jq: the filter ran out of the memory jq can hold\n/,
      [''],
    ],
  ])('ends a runaway filter with exit 2 naming the limit: %s', async (_name, filter, limits, message, lines) => {
    const started = Date.now();
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', filter], { ...base, ...limits });
    expect(r.exitCode).toBe(2);
    expect([...new Set(r.stdout.split('\n'))]).toEqual(lines);
    expect(r.stderr).toMatch(message);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  /** lms --jq FILTER as a child whose stdout is read as it arrives. */
  function streaming(filter: string, limits: Record<string, string>) {
    const child = spawn(process.execPath, [bin, '--mock', 'users', 'get', 'self', '--jq', filter], {
      env: { ...process.env, ...base, ...limits },
    });
    onTestFinished(() => void child.kill());
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.on('exit', (code) => resolve({ code, at: Date.now() })),
    );
    /** The first line of output, when it came, and whether lms was still running then. */
    const firstLine = new Promise<{ line: string; at: number; running: boolean }>((resolve, reject) => {
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\n'))
          resolve({ line: text.slice(0, text.indexOf('\n')), at: Date.now(), running: child.exitCode === null });
      });
      child.on('exit', () => reject(new Error(`lms ended before printing a line: ${stderr}`)));
    });
    return { child, firstLine, exited, stderr: () => stderr };
  }

  it('prints what jq writes while jq still runs, then ends it at the time limit', async () => {
    const run = streaming('range(1e9)', { LMS_JQ_TIMEOUT: '4' });
    let lines = 0;
    let running = 0;
    run.child.stdout.on('data', (chunk: string) => {
      lines += chunk.split('\n').length - 1;
      if (run.child.exitCode === null) running = lines;
    });
    const first = await run.firstLine;
    expect(first).toMatchObject({ line: '0', running: true });
    const exit = await run.exited;
    expect(exit.code).toBe(2);
    expect(run.stderr()).toMatch(/^error: --jq: the filter ran past its time limit of 4 s\n/);
    // Printed well before the limit, and plenty while it ran.
    expect(exit.at - first.at).toBeGreaterThan(1_000);
    expect(running).toBeGreaterThan(10_000);
  });

  it('holds jq back while the reader pauses, with memory flat', async () => {
    // 100 KB results as fast as jq makes them (tens of MB a second), into a pipe nobody reads.
    const run = streaming('"x" * 100000 | repeat(.)', { LMS_JQ_TIMEOUT: '60' });
    await run.firstLine;
    run.child.stdout.pause();
    const before = peakRss(run.child.pid!)!;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(peakRss(run.child.pid!)! - before).toBeLessThan(48 * 1024 * 1024);
    run.child.stdout.destroy();
    expect((await run.exited).code).toBe(0);
  });

  it('ends promptly when the reader goes away after one line (| head -1)', async () => {
    const run = streaming('repeat(1)', { LMS_JQ_TIMEOUT: '60' });
    const first = await run.firstLine;
    expect(first.line).toMatch(/^[{1]/);
    run.child.stdout.destroy();
    const exit = await run.exited;
    // A reader that went away ends the output as it ends a listing's: exit 0, as `| head` expects.
    expect(exit.code).toBe(0);
    expect(exit.at - first.at).toBeLessThan(5_000);
  });

  it('refuses a limit that is no positive number', async () => {
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', '.'], {
      ...base,
      LMS_JQ_TIMEOUT: 'soon',
    });
    expect({ code: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: LMS_JQ_TIMEOUT must be a positive number of seconds, not "soon"',
    });
  });

  it('prints one record as YAML', async () => {
    const yaml = await spawnLms(['--mock', 'users', 'get', 'self', '-o', 'yaml'], base);
    const json = await spawnLms(['--mock', 'users', 'get', 'self', '-o', 'json'], base);
    expect(yaml.exitCode).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });

  // The mock's SQLite on a Node without its own (20) is a package beside the bundle; on 22.13+ nothing loads.
  const SQLITE_DRIVER = /\/node_modules\/@photostructure\/sqlite\//;
  // The CLI's own files a mock listing of users loads: the command line, its errors, the mock.
  const LISTING = /\/dist\/(lms|errors|mock)\.cjs$/;

  it('loads neither jq nor yaml for a listing that asks for neither', async () => {
    const run = await loaded(['--mock', 'users', 'list', '--account', '1']);
    expect(run.modules).toContain('src/output/render.ts');
    expect(run.modules.filter((m) => JQ(m) || YAML(m))).toEqual([]);
    expect(run.scripts.filter((url) => !LISTING.test(url) && !SQLITE_DRIVER.test(url))).toEqual([]);
  });

  it('reads none of the mock for a command against an instance', async () => {
    const served = await serveMock({ ...base, LMS_MOCK_DB: join(dir, 'served.db') });
    onTestFinished(() => served.stop());
    const run = await loaded(['users', 'get', 'self', '-o', 'json'], {
      LMS_BASE_URL: served.url,
      LMS_TOKEN: '1~mock-admin',
    });
    expect(run.modules).toContain('src/output/render.ts');
    expect(run.scripts.map((url) => url.replace(/.*\/dist\//, ''))).toEqual(['lms.cjs', 'errors.cjs']);
  });

  it('loads jq, from its own file, only for --jq', async () => {
    const run = await loaded(['--mock', 'users', 'list', '--account', '1', '--jq', 'length']);
    expect(run.modules).toContain('src/output/jq.ts');
    expect(run.modules.filter(YAML)).toEqual([]);
    expect(run.scripts.some((url) => url.endsWith('/dist/jq-wasm.cjs'))).toBe(true);
  });

  it('loads yaml, from its own file, only for -o yaml', async () => {
    const run = await loaded(['--mock', 'users', 'list', '--account', '1', '-o', 'yaml']);
    expect(run.modules).toContain('src/output/yaml.ts');
    expect(run.modules.filter(JQ)).toEqual([]);
    expect(run.scripts.filter((url) => !LISTING.test(url) && !SQLITE_DRIVER.test(url))).toEqual([
      expect.stringMatching(/\/dist\/yaml\.cjs$/),
    ]);
  });
});

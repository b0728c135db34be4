// --jq and -o yaml from the built binary: jq and the yaml package (each a file of its own beside the
// bundle) are loaded only by the runs that ask for them. V8's coverage of a run (NODE_V8_COVERAGE)
// says which functions ran: a module of the bundle ran when its initialiser did.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

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
async function loaded(args: string[]) {
  const coverage = mkdtempSync(join(dir, 'coverage-'));
  const r = await spawnLms(args, { ...base, NODE_V8_COVERAGE: coverage });
  expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  const scripts = readdirSync(coverage).flatMap((f) => (JSON.parse(readFileSync(join(coverage, f), 'utf8')) as { result: ScriptCoverage[] }).result);
  const bundle = scripts.find((s) => s.url.endsWith('/dist/lms.cjs'));
  expect(bundle, 'the coverage names the bundle').toBeDefined();
  // esbuild names each module's initialiser after the module's path (node_modules as resolved, links followed).
  const modules = bundle!.functions.filter((f) => /^(src\/|.*node_modules\/)/.test(f.functionName) && f.ranges[0].count > 0).map((f) => f.functionName);
  return { modules, scripts: scripts.map((s) => s.url).filter((url) => url.includes('/dist/')) };
}

const JQ = (m: string) => m === 'src/output/jq.ts' || m.includes('node_modules/jq-wasm/');
const YAML = (m: string) => m === 'src/output/yaml.ts' || m.includes('node_modules/yaml/');

describe('lms --jq and -o yaml, spawned', () => {
  it('filters a list with jq and prints string results raw', async () => {
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', '.[] | select(.id > 5) | .name'], base);
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual(['Dev Designer', 'Lucas Moreau', 'Olive Observer', 'Mina Okafor', 'Ravi Patel', 'Hana Sato', 'Sam Student', 'Sofia Student']);
  });

  it('exits 2 with jq\'s message for an expression jq cannot compile', async () => {
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', '.[] | select(.id >'], base);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --jq: syntax error/);
  });

  // Each limit set small, so a filter that never ends is ended within seconds, and the other set
  // high enough not to be the one that ends it.
  it.each([
    ['recursion without end', 'def f: f; f', { LMS_JQ_TIMEOUT: '2' }, /^error: --jq: the filter ran past its time limit of 2 s\nhint: LMS_JQ_TIMEOUT=/],
    ['a huge array being built', '[limit(1e8; repeat(1))]', { LMS_JQ_TIMEOUT: '2' }, /^error: --jq: the filter ran past its time limit of 2 s\n/],
    ['output without end', 'repeat(.)', { LMS_JQ_TIMEOUT: '60', LMS_JQ_MEMORY: '64' }, /^error: --jq: the filter ran past its memory limit of 64 MB\nhint: LMS_JQ_MEMORY=/],
    ['recursion that grows jq\'s stack', 'def f: 1 + f; f', { LMS_JQ_TIMEOUT: '60' }, /^error: --jq: the filter ran out of the memory jq can hold\n/],
  ])('ends a runaway filter with exit 2 naming the limit: %s', async (_name, filter, limits, message) => {
    const started = Date.now();
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', filter], { ...base, ...limits });
    expect({ code: r.exitCode, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(message);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses a limit that is no positive number', async () => {
    const r = await spawnLms(['--mock', 'users', 'list', '--account', '1', '--jq', '.'], { ...base, LMS_JQ_TIMEOUT: 'soon' });
    expect({ code: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 2, stdout: '', stderr: 'error: LMS_JQ_TIMEOUT must be a positive number of seconds, not "soon"' });
  });

  it('prints one record as YAML', async () => {
    const yaml = await spawnLms(['--mock', 'users', 'get', 'self', '-o', 'yaml'], base);
    const json = await spawnLms(['--mock', 'users', 'get', 'self', '-o', 'json'], base);
    expect(yaml.exitCode).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });

  // The mock's SQLite on a Node without its own (20) is a package beside the bundle; on 22.13+ nothing loads.
  const SQLITE_DRIVER = /\/node_modules\/@photostructure\/sqlite\//;
  // The CLI's own files a mock listing of users loads: the command line, the users verbs, the mock.
  const LISTING = /\/dist\/(lms|verbs-users|mock)\.cjs$/;

  it('loads neither jq nor yaml for a listing that asks for neither', async () => {
    const run = await loaded(['--mock', 'users', 'list', '--account', '1']);
    expect(run.modules).toContain('src/output/render.ts');
    expect(run.modules.filter((m) => JQ(m) || YAML(m))).toEqual([]);
    expect(run.scripts.filter((url) => !LISTING.test(url) && !SQLITE_DRIVER.test(url))).toEqual([]);
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
    expect(run.scripts.filter((url) => !LISTING.test(url) && !SQLITE_DRIVER.test(url))).toEqual([expect.stringMatching(/\/dist\/yaml\.cjs$/)]);
  });
});

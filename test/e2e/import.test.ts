// The proof for bulk import, over HTTP with real child processes: a faulty, throttling server;
// an import killed with SIGKILL and run again; and bad files that must not send a single request.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-import');
const servers: Served[] = [];

function roster(prefix: string, n: number): string {
  const file = join(dir, `${prefix}.csv`);
  const lines = ['name,login_id,email,sis_user_id'];
  for (let i = 1; i <= n; i++)
    lines.push(`Bulk Person ${i},${prefix}-${i},${prefix}-${i}@example.edu,${prefix.toUpperCase()}-${i}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function server(name: string, flags: string[]) {
  const s = await serveMock({ ...env, LMS_MOCK_DB: join(dir, `${name}.db`) }, flags);
  servers.push(s);
  return { ...s, db: join(dir, `${name}.db`) };
}

/** Logins with this prefix in the server's database, read through the CLI's own mock mode. */
async function loginsIn(db: string, prefix: string): Promise<string[]> {
  const r = await spawnLms(
    ['--mock', 'users', 'list', '--search', `${prefix}-`, '--all', '-o', 'ndjson', '--fields', 'login_id'],
    { ...env, LMS_MOCK_DB: db },
  );
  expect(r.exitCode).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { login_id: string }).login_id);
}

beforeAll(ensureBuilt);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('import against a throttling, failing, dropping server', () => {
  it('ends with exactly 500 users, none twice, once a re-run completes', async () => {
    const s = await server('faulty', [
      '--quiet',
      '--throttle',
      '--throttle-capacity',
      '300',
      '--throttle-rate',
      '3000',
      '--fail-rate',
      '0.1',
      '--drop-rate',
      '0.02',
      '--fault-seed',
      '11',
    ]);
    const file = roster('bulk', 500);
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN };
    const exits: number[] = [];
    for (let run = 0; run < 5; run++) {
      const r = await spawnLms(['users', 'import', file, '-o', 'json'], http);
      exits.push(r.exitCode ?? -1);
      if (r.exitCode === 0) break;
      expect(r.exitCode, r.stderr).toBe(1);
    }
    expect(exits.at(-1)).toBe(0);
    const logins = await loginsIn(s.db, 'bulk');
    expect(logins).toHaveLength(500);
    expect(new Set(logins).size).toBe(500);
  }, 120_000);
});

describe('an import killed with SIGKILL', () => {
  it('completes on the re-run, with no duplicates', async () => {
    const s = await server('slow', ['--quiet', '--latency', '15']);
    const file = roster('killed', 200);
    const state = join(dir, 'state-killed');
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: state };
    const child = spawnLms(['users', 'import', file, '--concurrency', '2'], http);
    const journals = join(state, 'journals');
    const journalLines = () =>
      existsSync(journals)
        ? readdirSync(journals).reduce(
            (n, f) => n + readFileSync(join(journals, f), 'utf8').split('\n').filter(Boolean).length,
            0,
          )
        : 0;
    const deadline = Date.now() + 30_000;
    while (journalLines() < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    const partial = await loginsIn(s.db, 'killed');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(200);

    const rerun = await spawnLms(['users', 'import', file, '-o', 'json'], http);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout) as { created: number; skipped_done: number; existed: number };
    expect(summary.created + summary.skipped_done + summary.existed).toBe(200);
    const logins = await loginsIn(s.db, 'killed');
    expect(logins).toHaveLength(200);
    expect(new Set(logins).size).toBe(200);
  }, 60_000);
});

describe('an import interrupted with Ctrl-C', () => {
  it('exits 130, and the re-run finishes without duplicates', async () => {
    const s = await server('interrupted', ['--quiet', '--latency', '15']);
    const file = roster('sigint', 120);
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: join(dir, 'state-sigint') };
    const child = spawnLms(['users', 'import', file, '--concurrency', '2'], http);
    while ((await loginsIn(s.db, 'sigint')).length < 20) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    const rerun = await spawnLms(['users', 'import', file, '-o', 'json'], http);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const logins = await loginsIn(s.db, 'sigint');
    expect(logins).toHaveLength(120);
    expect(new Set(logins).size).toBe(120);
  }, 60_000);
});

describe('a journal against a reseeded server', () => {
  it('does not claim rows done on data a seed replaced: the dry run and the run create them again', async () => {
    const s = await server('reseeded', ['--quiet']);
    const file = roster('reseed', 20);
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: join(dir, 'state-reseed') };
    const first = await spawnLms(['users', 'import', file, '-o', 'json'], http);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 20 });

    const seeded = await spawnLms(['mock', 'seed', '--yes'], { ...env, LMS_MOCK_DB: s.db });
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    expect(await loginsIn(s.db, 'reseed')).toHaveLength(0);

    const plan = await spawnLms(['users', 'import', file, '--dry-run', '-o', 'json'], http);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('Dry run: 20 would be created, 0 already exist, 0 would fail. Nothing was written.');
    const again = await spawnLms(['users', 'import', file, '-o', 'json'], http);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 20, skipped_done: 0 });
    expect(again.stderr).toContain('20 created, 0 already existed, 0 failed.');
    expect(await loginsIn(s.db, 'reseed')).toHaveLength(20);
  }, 30_000);
});

describe('bad CSVs over HTTP', () => {
  it.each([
    ['missing header', 'Ana,ana\n'],
    ['unknown column', 'name,login_id,shoe\nAna,ana,9\n'],
    ['empty required field', 'name,login_id\n,ana\n'],
    ['duplicate login id', 'name,login_id\nAna,ana\nAnn,Ana\n'],
    [
      'bad encoding',
      Buffer.from([
        0x6e, 0x61, 0x6d, 0x65, 0x2c, 0x6c, 0x6f, 0x67, 0x69, 0x6e, 0x5f, 0x69, 0x64, 0x0a, 0xff, 0xfe, 0x2c, 0x78,
        0x0a,
      ]),
    ],
    ['quote left open', 'name,login_id\n"Ana,ana\n'],
    ['10 MB field', `name,login_id\n${'y'.repeat(10 * 1024 * 1024)},big\n`],
  ] as const)('%s: exit 2, a line number, no request reaches the server', async (name, content) => {
    const s = servers.find((x) => x.url) ?? (await server('strict', []));
    const file = join(dir, `bad-${name.replace(/\W+/g, '-')}.csv`);
    writeFileSync(file, content);
    const before = s
      .log()
      .split('\n')
      .filter((l) => / \d{3} \d+ms$/.test(l)).length;
    const r = await spawnLms(['users', 'import', file], { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/bad-[\w-]+\.csv:\d+: /);
    expect(r.stderr).toContain('nothing was sent');
    await new Promise((res) => setTimeout(res, 50));
    expect(
      s
        .log()
        .split('\n')
        .filter((l) => / \d{3} \d+ms$/.test(l)).length,
    ).toBe(before);
  });
});

// End to end: the built binary in real child processes, against a real `lms mock serve` on loopback.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, root, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e');

function lms(args: string[], extra: Record<string, string> = {}, input?: string) {
  return spawnLms(args, { ...env, ...extra }, input);
}

let server: Served | undefined;
let baseUrl = '';

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock(env);
  baseUrl = server.url;
});

afterAll(async () => {
  await server?.stop();
});

const overHttp = (token = ADMIN) => ({ LMS_BASE_URL: baseUrl, LMS_TOKEN: token });

describe('the launcher', () => {
  it('prints the package version, on the fast path and through the CLI', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect((await lms(['--version'])).stdout).toBe(version);
    expect((await lms(['--no-color', '--version'])).stdout).toBe(version);
    // As gh, kubectl and commander's own convention have it.
    for (const args of [['-V'], ['--no-color', '-V'], ['version'], ['version', '-o', 'json']])
      expect(await lms(args)).toMatchObject({ exitCode: 0, stdout: version });
  });

  it('prints the same top-level help from the build as the CLI does', async () => {
    const throughCli = await lms(['--no-color', '--help']);
    expect(throughCli.stdout).toContain('Usage: lms [options] [command]');
    expect(readFileSync(join(root, 'dist', 'help.txt'), 'utf8').trim()).toBe(throughCli.stdout);
    for (const flag of ['--help', '-h']) {
      const fast = await lms([flag]);
      expect(fast.exitCode).toBe(0);
      expect(fast.stdout).toBe(throughCli.stdout);
    }
  });
});

describe('stdout and stderr as files and pipes', () => {
  it('writes the whole answer to a file, and errors to another', async () => {
    const out = join(dir, 'listing.json');
    const errors = join(dir, 'listing.err');
    const shell = (args: string) =>
      execa('sh', ['-c', `"$0" "$1" ${args} > "$2" 2> "$3"`, process.execPath, join(root, 'bin/lms'), out, errors], {
        env: { ...process.env, ...env },
        reject: false,
      });
    expect((await shell('--mock users list --account 1 -o json')).exitCode).toBe(0);
    const piped = await lms(['--mock', 'users', 'list', '--account', '1', '-o', 'json']);
    expect(readFileSync(out, 'utf8')).toBe(`${piped.stdout}\n`);
    expect(readFileSync(errors, 'utf8')).toBe('');
    expect((await shell('--mock users get 999999')).exitCode).toBe(4);
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(readFileSync(errors, 'utf8')).toMatch(/not found/);
  });

  it('where the two meet (2>&1), reads in the order lms wrote them', async () => {
    // Records on stdout, then jq's error for each later record on stderr.
    const both = join(dir, 'both.txt');
    const jq = 'if .id > 4 then error("past four") else .id end';
    const r = await execa(
      'sh',
      [
        '-c',
        `"$0" "$1" --mock users list --account 1 -o ndjson --jq '${jq}' > "$2" 2>&1`,
        process.execPath,
        join(root, 'bin/lms'),
        both,
      ],
      { env: { ...process.env, ...env }, reject: false },
    );
    expect(r.exitCode).toBe(2);
    const lines = readFileSync(both, 'utf8').trim().split('\n');
    expect(lines.slice(0, 4)).toEqual(['1', '2', '3', '4']);
    expect(lines.length).toBeGreaterThan(6);
    expect(new Set(lines.slice(4, -1))).toEqual(new Set(['--jq: past four']));
    expect(lines.at(-1)).toBe(`error: --jq failed on ${lines.length - 5} records`);
  });

  it('stops quietly with exit 0 when the reader goes away early (| head)', async () => {
    // 400 KB, more than a pipe holds: the reader is gone while lms still has text to write.
    const child = execa(process.execPath, [join(root, 'bin/lms'), 'completion', 'zsh'], {
      env: { ...process.env, ...env },
      reject: false,
      buffer: { stdout: false },
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const result = await child;
    expect({ exitCode: result.exitCode, signal: result.signal, stderr: result.stderr }).toEqual({
      exitCode: 0,
      signal: undefined,
      stderr: '',
    });
  });
});

describe('errors from the binary', () => {
  it.each([
    ['a parse error', ['usres', '-o', 'json'], {}, 2],
    ['a bad flag value', ['users', 'list', '--per-page', '500'], { LMS_OUTPUT: 'json' }, 2],
    ['an unknown field', ['--mock', 'users', 'get', '7', '--fields', 'nope', '-o', 'json'], {}, 2],
  ])('%s with JSON errors: exactly one JSON object on stderr', async (_what, args, extra, code) => {
    const r = await lms(args, extra as Record<string, string>);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: 'UsageError', exit_code: code });
  });
});

describe('the binary in mock mode', () => {
  it('runs the README command', async () => {
    const r = await lms(['--mock', 'users', 'list', '--account', '1']);
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThanOrEqual(13);
  });

  it('keeps state between processes: a user created in one is listed by the next', async () => {
    const created = await lms(['--mock', 'users', 'create', '--login-id', 'e2e-one', '--name', 'Eve Two-Process']);
    expect(created.exitCode).toBe(0);
    const listed = await lms(['--mock', 'users', 'list', '--search', 'e2e-one', '--fields', 'login_id,name']);
    expect(JSON.parse(listed.stdout)).toEqual([{ login_id: 'e2e-one', name: 'Eve Two-Process' }]);
  });

  it('lets parallel processes write to one database without losing anything', async () => {
    const runs = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        lms(['--mock', 'users', 'create', '--login-id', `parallel-${n}`, '--name', `Parallel ${n}`]),
      ),
    );
    expect(runs.map((r) => [r.exitCode, r.stderr])).toEqual(runs.map(() => [0, '']));
    const listed = await lms(['--mock', 'users', 'list', '--search', 'parallel-', '--fields', 'login_id']);
    expect((JSON.parse(listed.stdout) as { login_id: string }[]).map((u) => u.login_id).sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `parallel-${n}`),
    );
  });

  it('exits 4 naming a missing user', async () => {
    const r = await lms(['--mock', 'users', 'get', '987654321']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('user 987654321 not found');
  });

  it('exits 2 on an unknown flag, with a suggestion', async () => {
    const r = await lms(['--mock', 'users', 'list', '--acount', '1']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--account');
  });
});

describe('over HTTP against lms mock serve', () => {
  it('answers the same commands, sharing the mock database', async () => {
    const created = await lms(['users', 'create', '--login-id', 'via-http', '--name', 'Hugo Http'], overHttp());
    expect(created.exitCode).toBe(0);
    const seenByMock = await lms(['--mock', 'users', 'list', '--search', 'via-http', '--fields', 'name']);
    expect(JSON.parse(seenByMock.stdout)).toEqual([{ name: 'Hugo Http' }]);
    expect(server!.log()).toMatch(/POST \/api\/v1\/accounts\/self\/users 200 \d+ms/);
  });

  it('shows a student the coming week of a school seeded by the real clock, and an event added over HTTP', async () => {
    const before = await lms(['upcoming', '--fields', 'title'], overHttp('7~mock-sam'));
    expect(JSON.parse(before.stdout)).toEqual([
      { title: 'Cell biology review session' },
      { title: 'Lab Group 1 write-up' },
      { title: 'Stereochemistry Worksheet' },
      { title: 'Field trip: botanical garden' },
    ]);
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const made = await lms(
      ['calendar', 'create', '--user', 'self', '--title', 'Library hour', '--start', soon],
      overHttp('7~mock-sam'),
    );
    expect(made.exitCode).toBe(0);
    const after = await lms(['upcoming', '--fields', 'title'], overHttp('7~mock-sam'));
    expect((JSON.parse(after.stdout) as { title: string }[])[0]).toEqual({ title: 'Library hour' });
  });

  it('pages with Link headers built from the request host', async () => {
    const r = await lms(['users', 'list', '--all', '--per-page', '4', '-o', 'ndjson', '--fields', 'id'], overHttp());
    expect(r.exitCode).toBe(0);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(13);
  });

  it('uploads a file in three steps and the file comes back byte for byte', async () => {
    const file = join(dir, 'report.txt');
    writeFileSync(file, 'quarterly numbers\n');
    const up = await lms(['users', 'upload', file, '--folder', 'reports'], overHttp('7~mock-sam'));
    expect(up.exitCode).toBe(0);
    const attachment = JSON.parse(up.stdout) as { id: number; url: string; size: number };
    expect(attachment.size).toBe(18);
    const body = await fetch(attachment.url).then((res) => res.text());
    expect(body).toBe('quarterly numbers\n');
  });

  it('exits 3 for a bad token, and never prints the token, even with --verbose', async () => {
    const secret = 'not-a-real-token-5f2c';
    const r = await lms(['-v', 'users', 'get', 'self'], overHttp(secret));
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('→ GET');
    expect(r.stdout + r.stderr).not.toContain(secret);
    const ok = await lms(['-v', 'users', 'get', 'self'], overHttp());
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain(ADMIN);
  });

  it('answers an unknown route with 404 in the API error shape', async () => {
    const res = await fetch(`${baseUrl}/api/v1/no/such/route`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errors: [{ message: 'The specified resource does not exist.' }] });
  });

  it('works through a saved profile, whose file only its owner can read', async () => {
    const refused = await lms(['profile', 'add', 'local', '--url', baseUrl, '--token-stdin'], {}, '1~not-a-token');
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain(
      `${new URL(baseUrl).host} did not accept the token (401); the profile was not saved`,
    );
    expect((await lms(['profile', 'list', '-o', 'json'])).stdout).toBe('[]');
    const add = await lms(['profile', 'add', 'local', '--url', baseUrl, '--token-stdin'], {}, ADMIN);
    expect(add.exitCode).toBe(0);
    expect(add.stderr).toContain(`Logged in to ${new URL(baseUrl).host} as Ada Admin (id 1)\n`);
    expect(add.stdout + add.stderr).not.toContain(ADMIN);
    const r = await lms(['users', 'get', 'self', '--fields', 'id'], {});
    expect(JSON.parse(r.stdout)).toEqual({ id: 1 });
    expect(statSync(join(dir, 'config', 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config')).mode & 0o777).toBe(0o700);
  });
});

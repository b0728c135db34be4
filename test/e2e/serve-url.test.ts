// End to end: `lms mock serve` tells a script where it listens — the base URL as the first line on
// stdout, the notice for people on stderr — and, with --ready-file, writes that URL to a file once
// it is listening, so a script that runs the server in the background can wait for the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bin, e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('serve-url');
const children: ResultPromise[] = [];

beforeAll(async () => {
  await ensureBuilt();
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGTERM');
    await child.catch(() => undefined);
  }
});

/** Starts the server; resolves with its first stdout line, and stderr so far. */
async function serve(flags: string[], db: string, quiet = true) {
  const child = execa(
    process.execPath,
    [bin, 'mock', 'serve', '--port', '0', ...(quiet ? ['--quiet'] : []), ...flags],
    { env: { ...env, LMS_MOCK_DB: join(dir, db) }, reject: false },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stdout: ${stderr}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve(stdout.slice(0, stdout.indexOf('\n')));
      }
    });
    void child.then((r) => reject(new Error(`mock serve exited ${r.exitCode}: ${stderr}`)));
  });
  return { child, first, stdout: () => stdout, stderr: () => stderr };
}

async function whoAmI(base: string): Promise<unknown> {
  const res = await fetch(`${base}/api/v1/users/self`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return res.json();
}

describe('lms mock serve --port 0', () => {
  it('prints only the base URL on stdout, first, and the notice on stderr; the URL works', async () => {
    const s = await serve([], 'plain.db');
    expect(s.first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.first).not.toContain(':0');
    expect(await whoAmI(s.first)).toMatchObject({ id: 1 });
    expect(s.stdout()).toBe(`${s.first}\n`);
    expect(s.stderr()).toContain(`lms mock serving ${join(dir, 'plain.db')} at ${s.first}`);
    // Other clients reach it through the URL as printed.
    const r = await spawnLms(['users', 'get', 'self', '-o', 'json'], {
      ...env,
      LMS_BASE_URL: s.first,
      LMS_TOKEN: ADMIN,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 1 });
  });

  it('prints a loopback URL when bound to every interface, and the public origin when one is named', async () => {
    const wildcard = await serve(['--host', '0.0.0.0'], 'wildcard.db');
    expect(wildcard.first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await whoAmI(wildcard.first)).toMatchObject({ id: 1 });
    const named = await serve(['--public-url', 'https://mock.example.org'], 'public.db');
    expect(named.first).toBe('https://mock.example.org');
  });
});

describe('lms mock serve --ready-file', () => {
  it('writes the URL once listening (replacing a stale file), and removes it on exit', async () => {
    const file = join(dir, 'ready-url');
    writeFileSync(file, 'http://127.0.0.1:1\n');
    const s = await serve(['--ready-file', file], 'ready.db');
    // The file is written after the stdout line; wait for it as a script would.
    const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    const deadline = Date.now() + 10_000;
    while (read() !== `${s.first}\n` && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(file, 'utf8')).toBe(`${s.first}\n`);
    expect(await whoAmI(readFileSync(file, 'utf8').trim())).toMatchObject({ id: 1 });
    s.child.kill('SIGTERM');
    expect((await s.child).exitCode).toBe(0);
    expect(existsSync(file)).toBe(false);
    // Ctrl-C, the notice's way to stop it, ends it as well (exit 0): the file goes.
    const again = await serve(['--ready-file', file], 'ready.db');
    while (read() !== `${again.first}\n` && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(read()).toBe(`${again.first}\n`);
    again.child.kill('SIGINT');
    expect((await again.child).exitCode).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a file it cannot write before it starts listening (exit 2)', async () => {
    const r = await spawnLms(['mock', 'serve', '--port', '0', '--ready-file', join(dir, 'no-such-dir', 'url')], {
      ...env,
      LMS_MOCK_DB: join(dir, 'refused.db'),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: --ready-file ${join(dir, 'no-such-dir', 'url')}: cannot write there (ENOENT)`);
  });
});

describe('lms mock serve and Ctrl-C', () => {
  it(
    'stops on Ctrl-C as its notice says: exit 0, ' + '"stopped", no error, even with a client still connected',
    async () => {
      const s = await serve([], 'ctrl-c.db', false);
      // A kept-alive connection must not hold the server open.
      const { Agent, get } = await import('node:http');
      const agent = new Agent({ keepAlive: true });
      await new Promise<void>((resolve) =>
        get(
          `${s.first}/api/v1/users/self`,
          { agent, headers: { authorization: `Bearer ${ADMIN}`, 'user-agent': 'test' } },
          (res) => res.resume().on('end', resolve),
        ),
      );
      s.child.kill('SIGINT');
      const r = await s.child;
      agent.destroy();
      expect(r.exitCode).toBe(0);
      expect(s.stderr()).toContain('lms mock serve: stopped');
      expect(s.stderr()).not.toContain('error');
    },
  );

  it('with --quiet says only where it serves: no notes, no log lines, no "stopped"', async () => {
    const s = await serve([], 'quiet.db');
    expect(await whoAmI(s.first)).toMatchObject({ id: 1 });
    s.child.kill('SIGINT');
    expect((await s.child).exitCode).toBe(0);
    expect(s.stderr().split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^lms mock serving .* at http:\/\/127\.0\.0\.1:\d+ \(Ctrl-C stops\)$/),
    ]);
  });
});

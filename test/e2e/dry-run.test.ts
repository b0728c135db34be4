// End to end: the built binary's --dry-run against `lms mock serve`, with the writes counted where
// they would land, in the server's request log; and `lms doctor` asking the same server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('dry-run');
let server: Served;

/** The request lines of the server's log that changed something. */
const writesLogged = () => server.log().match(/^(POST|PUT|DELETE) \/\S* \d{3} \d+ms$/gm) ?? [];
const readsLogged = () => server.log().match(/^GET \/\S* \d{3} \d+ms$/gm) ?? [];

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'served.db') });
});

afterAll(async () => {
  await server?.stop();
});

const remote = () => ({ ...env, LMS_BASE_URL: server.url, LMS_TOKEN: ADMIN });

describe('--dry-run against lms mock serve', () => {
  it('sends the reads a verb needs and not one write, and prints each write it stopped at', async () => {
    const notes = join(mkdtempSync(join(dir, 'files-')), 'notes.txt');
    writeFileSync(notes, 'Lab notes\n');
    const lines = [
      ['users', 'create', '--login-id', 'jdoe', '--name', 'Jane Doe', '--password', 'hunter22'],
      ['enrollments', 'add', '--course', '1', '--user', '5', '--type', 'student'],
      ['sections', 'create', '--course', '1', '--name', 'Lab C'],
      ['topics', 'create', '--course', '1', '--title', 'Week 10', '--message', '<p>Read</p>'],
      ['conv', 'send', '--to', '3', '--subject', 'Hi', '--body', 'Friday?'],
      ['conv', 'remove-messages', '5', '--message', '9'],
      ['sections', 'delete', '2'],
      ['users', 'upload', notes],
    ];
    for (const line of lines) {
      const r = await spawnLms([...line, '--dry-run'], remote());
      expect(r.exitCode, `${line.join(' ')}: ${r.stderr}`).toBe(0);
      const out = JSON.parse(r.stdout) as { dry_run: boolean; requests: { method: string; url: string }[] };
      expect(out.dry_run).toBe(true);
      expect(out.requests).toHaveLength(1);
      expect(out.requests[0].method).toMatch(/^(POST|PUT|DELETE)$/);
      expect(out.requests[0].url.startsWith(`${server.url}/api/v1/`)).toBe(true);
      expect(r.stdout + r.stderr).not.toContain(ADMIN);
      expect(r.stdout + r.stderr).not.toContain('hunter22');
    }
    expect(writesLogged()).toEqual([]);
    // conv remove-messages looked the conversation up first: the reads did go out.
    expect(readsLogged(), server.log()).toContainEqual(expect.stringMatching(/^GET \/api\/v1\/conversations\/5[?\s]/));
  });

  it('counts a write that is sent, so the count above means something', async () => {
    const before = writesLogged().length;
    const r = await spawnLms(['sections', 'create', '--course', '1', '--name', 'Lab D'], remote());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writesLogged().slice(before)).toEqual([
      expect.stringMatching(/^POST \/api\/v1\/courses\/1\/sections 200 \d+ms$/),
    ]);
  });
});

describe('lms doctor against lms mock serve', () => {
  it('passes with a good token: the user, and the clock against the server Date', async () => {
    const r = await spawnLms(['doctor', '-o', 'json'], {
      ...remote(),
      LMS_STATE_DIR: join(dir, 'state'),
      LMS_CACHE_DIR: join(dir, 'cache'),
    });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const checks = JSON.parse(r.stdout) as { check: string; status: string; detail: string }[];
    const by = Object.fromEntries(checks.map((c) => [c.check, c]));
    expect(by.instance.detail).toBe(`${server.url}, from LMS_BASE_URL in the environment`);
    expect(by.auth).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^accepted by 127\.0\.0\.1:\d+: Ada Admin \(user 1/),
    });
    expect(by.clock).toMatchObject({ status: 'ok', detail: "this machine's clock is in step with the instance's" });
    expect(r.stdout + r.stderr).not.toContain(ADMIN);
  });

  it('fails, exit 1, with a token the server refuses, never showing it', async () => {
    const r = await spawnLms(['doctor', '-o', 'table'], { ...remote(), LMS_TOKEN: 'not-a-token' });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^fail  auth +127\.0\.0\.1:\d+ did not accept the token \(401\); fix: /m);
    expect(r.stdout + r.stderr).not.toContain('not-a-token');
  });
});

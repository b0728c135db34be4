// End to end: the built binary against `lms mock serve` with injected faults — the client's
// retries must cope with 5xx answers, and a dropped connection must end as a network error (exit 7).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, serveMock, type Served } from '../helpers/e2e.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/lms');
const dir = mkdtempSync(join(tmpdir(), 'lms-e2e-faults-'));
const env = {
  LMS_CONFIG_DIR: join(dir, 'config'),
  NO_COLOR: '1',
  LMS_MOCK: '',
  LMS_TOKEN: '',
  LMS_BASE_URL: '',
  LMS_PROFILE: '',
  LMS_MOCK_FAULTS: '',
};
const ADMIN = '1~mock-admin';

function lms(args: string[], extra: Record<string, string> = {}) {
  return execa(process.execPath, [bin, ...args], {
    env: { ...env, LMS_MOCK_DB: join(dir, 'cli.db'), ...extra },
    reject: false,
    extendEnv: true,
  });
}

const servers: Served[] = [];

/** `lms mock serve --port 0 …` on its own database. */
async function serve(name: string, flags: string[]): Promise<Served> {
  const served = await serveMock({ ...env, LMS_MOCK_DB: join(dir, `${name}.db`) }, flags);
  servers.push(served);
  return served;
}

beforeAll(ensureBuilt);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('lms mock serve with a fail rate', () => {
  let server: Served;
  beforeAll(async () => {
    // 500 is left out: by design the client retries only 502/503/504 (a 500 is surfaced, not retried).
    server = await serve('flaky', [
      '--throttle',
      '--throttle-capacity',
      '200',
      '--throttle-rate',
      '1000',
      '--fail-rate',
      '0.3',
      '--fault-seed',
      '7',
    ]);
  });

  it('still lists every user exactly once, retrying the failures (-v shows the retries)', async () => {
    expect(server.log()).toContain(
      'with faults: throttle 403 (capacity 200, penalty 50, cost 10, leak 1000/s), fail 30% (500/502/503), seed 7',
    );
    const r = await lms(['-v', 'users', 'list', '--all', '--per-page', '2', '-o', 'ndjson', '--fields', 'id'], {
      LMS_BASE_URL: server.url,
      LMS_TOKEN: ADMIN,
    });
    expect(r.exitCode).toBe(0);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(r.stderr).toMatch(
      /↻ retry 2\/5 of GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/accounts\/self\/users\?\S*per_page=2\S* in \d+ ms: 50[23]/,
    );
    expect(server.log()).toMatch(/GET \/api\/v1\/accounts\/self\/users\?\S*per_page=2\S* 50[23] \d+ms/);
    expect(r.stdout + r.stderr).not.toContain(ADMIN);
  });

  it('answers with the rate-limit headers of a real instance', async () => {
    const res = await fetch(`${server.url}/api/v1/users/self`, { headers: { authorization: `Bearer ${ADMIN}` } });
    await res.arrayBuffer();
    expect(res.headers.get('x-request-cost')).toMatch(/^\d+$/);
    expect(Number(res.headers.get('x-rate-limit-remaining'))).toBeGreaterThan(0);
  });
});

describe('lms mock serve with a drop rate of 1', () => {
  let server: Served;
  beforeAll(async () => {
    server = await serve('dropping', ['--drop-rate', '1', '--fault-seed', '3']);
  });

  // The client retries a GET four times with jittered backoff (expected ~4 s in all) before giving up.
  it('makes `users get self` exit 7 after its retries', { timeout: 15_000 }, async () => {
    const r = await lms(['-v', 'users', 'get', 'self'], { LMS_BASE_URL: server.url, LMS_TOKEN: ADMIN });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('↻ retry 5/5 of GET');
    expect(server.log()).toMatch(/GET \/api\/v1\/users\/self drop \d+ms/);
  });

  it('does not resend a POST whose outcome is unknown (exit 7 at once)', async () => {
    const r = await lms(['users', 'create', '--login-id', 'maybe-there', '--name', 'May Be'], {
      LMS_BASE_URL: server.url,
      LMS_TOKEN: ADMIN,
    });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('may or may not have been applied');
    expect(server.log().match(/POST \/api\/v1\/accounts\/self\/users drop/g)).toHaveLength(1);
  });
});

describe('fault options', () => {
  it.each([
    [['--fail-rate', '1.5'], '--fail-rate must be a number from 0 to 1, not "1.5"'],
    [['--drop-rate', 'lots'], '--drop-rate must be a number from 0 to 1, not "lots"'],
    [['--latency', '-5'], '--latency must be a number of milliseconds (0 or more), not "-5"'],
    [['--throttle-capacity', '10'], 'every request would be throttled'],
    [['--fault-seed', '1.5'], '--fault-seed must be a whole number of at least 0, not "1.5"'],
    [['--fail-status', '404'], '--fail-status must be comma-separated 5xx statuses'],
  ])('mock serve %j is a usage error', async (flags, message) => {
    const r = await lms(['mock', 'serve', '--port', '0', ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('LMS_MOCK_FAULTS faults --mock commands, and bad JSON in it is a usage error', async () => {
    const dropped = await lms(['--mock', 'users', 'create', '--login-id', 'env-drop', '--name', 'Env Drop'], {
      LMS_MOCK_FAULTS: '{"dropRate":1,"seed":1}',
    });
    expect(dropped.exitCode).toBe(7);
    expect(dropped.stderr).toContain('connection reset by the mock');
    const bad = await lms(['--mock', 'users', 'get', 'self'], { LMS_MOCK_FAULTS: '{dropRate:1}' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('LMS_MOCK_FAULTS is not valid JSON');
  });
});

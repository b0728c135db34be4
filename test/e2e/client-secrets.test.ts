// End to end: the built binary against a real `lms mock serve`, and against two loopback servers of
// the test's own where one points at the other. The token never reaches the second one, and no
// secret appears on stdout or stderr, traces (-v) and JSON errors included.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { env } = e2eWorkspace('secrets');
const SECRET = 'S3cr3tV4lue';

let mock: Served | undefined;
const servers: Server[] = [];

beforeAll(async () => {
  await ensureBuilt();
  mock = await serveMock(env);
});

afterAll(async () => {
  await mock?.stop();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('against lms mock serve', () => {
  it.each([`access_token=${SECRET}`, `access%5Ftoken=${SECRET}`, `access_token[]=${SECRET}`, `api_key=${SECRET}`])(
    '-v shows neither the token nor %s',
    async (param) => {
      const run = (args: string[]) =>
        spawnLms(['-v', ...args, '-o', 'json'], { ...env, LMS_BASE_URL: mock!.url, LMS_TOKEN: ADMIN });
      const results = await Promise.all([
        run(['api', 'GET', `/api/v1/users/self?${param}`]),
        run(['api', 'GET', `/api/v1/accounts/1/users?${param}`, '--paginate', '--per-page', '5']),
        run(['api', 'GET', `/api/v1/users/987654?${param}`]),
        run(['users', 'get', 'self', '--as-user', 'nobody']),
      ]);
      expect(results.map((r) => r.exitCode)).toEqual([0, 0, 4, 4]);
      expect(results[3].stderr).toContain('--as-user nobody: user nobody not found');
      for (const r of results) {
        expect(r.stderr).toContain('→ GET');
        expect(`${r.stdout}\n${r.stderr}`).not.toContain(SECRET);
        expect(`${r.stdout}\n${r.stderr}`).not.toContain(ADMIN);
      }
    },
  );
});

describe('a Link to a second server', () => {
  it('is refused (exit 1): the second server receives nothing', async () => {
    const seen: { url?: string; authorization?: string }[] = [];
    const other = await listen((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    const base = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', link: `<${other}/api/v1/courses?page=2>; rel="next"` });
      res.end('[{"id":1}]');
    });
    const r = await spawnLms(['-v', 'api', 'GET', '/api/v1/courses', '--paginate', '-o', 'json'], {
      ...env,
      LMS_BASE_URL: base,
      LMS_TOKEN: `tok-${SECRET}`,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `points to ${other}, not ${base}: refusing to follow it, so the token was not sent there`,
    );
    expect(seen).toEqual([]);
    expect(`${r.stdout}\n${r.stderr}`).not.toContain(SECRET);
  });
});

describe('LMS_BASE_URL', () => {
  it('that is not a URL is a usage error naming it (exit 2)', async () => {
    const r = await spawnLms(['users', 'get', 'self'], { ...env, LMS_BASE_URL: 'notaurl', LMS_TOKEN: 'tok' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: LMS_BASE_URL needs http:// or https://: "notaurl"');
  });
});

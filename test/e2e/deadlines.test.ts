// End to end: --timeout is one deadline for each request of a one-shot command, its retries and the
// waits between them included, measured by this test's own clock against the built binary: an
// instance that takes the connection and never answers, a port that refuses, one that answers 503
// to everything. A bulk job's requests keep a timeout a try, and their retries.
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('deadlines');
const held: Socket[] = [];
let connections = 0;
/** Accepts, and never answers. */
const silent = createServer((socket) => {
  connections++;
  held.push(socket);
});
let unavailableRequests = 0;
/** Answers 503 to everything. */
const unavailable: Server = createHttpServer((_req, res) => {
  unavailableRequests++;
  res.writeHead(503, { 'content-type': 'application/json' }).end('{"errors":[{"message":"unavailable"}]}');
});
let silentUrl = '';
let unavailableUrl = '';
let refusingUrl = '';

const port = (server: { address(): unknown }) => (server.address() as AddressInfo).port;
const listen = (server: { listen(port: number, host: string, done: () => void): unknown }) =>
  new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

beforeAll(async () => {
  await ensureBuilt();
  await Promise.all([listen(silent), listen(unavailable)]);
  silentUrl = `http://127.0.0.1:${port(silent)}`;
  unavailableUrl = `http://127.0.0.1:${port(unavailable)}`;
  // A port that was just listened on and closed: it refuses.
  const gone = createServer();
  await listen(gone);
  refusingUrl = `http://127.0.0.1:${port(gone)}`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  silent.close();
  unavailable.closeAllConnections();
  await new Promise<void>((resolve) => unavailable.close(() => resolve()));
});

const errorOf = (stderr: string) => JSON.parse(stderr) as { message: string; hint?: string };
/** A one-shot read against `url`, timed by this test's clock. */
async function self(url: string, flags: string[] = []) {
  const started = Date.now();
  const r = await spawnLms([...flags, 'users', 'get', 'self', '-o', 'json'], {
    ...env,
    LMS_BASE_URL: url,
    LMS_TOKEN: 'tok',
  });
  return { ...r, elapsed: Date.now() - started };
}

describe('a one-shot command: --timeout for each request, its retries included', () => {
  it(
    '--timeout 2 against an instance that never answers: one try, ended at the deadline, exit 7 saying what was ' +
      'tried',
    async () => {
      const before = connections;
      const r = await self(silentUrl, ['--timeout', '2']);
      expect(r.elapsed).toBeLessThan(5000);
      expect(r.exitCode).toBe(7);
      const host = new URL(silentUrl).host;
      // The try's own time is measured, and a loaded machine may add a tenth of a second to it.
      const error = errorOf(r.stderr);
      expect(error.message.replace(/ over 2\.\d s /, ' over 2 s ')).toBe(
        `GET ${host}: no answer within 2 s (one try over 2 s within --timeout 2)`,
      );
      expect(error.hint).toBe(
        '--timeout is the most one request may take, its retries included: raise it, or check the instance',
      );
      expect(connections - before).toBe(1);
    },
  );

  it('the default against an instance that never answers ends within its 30 s, not two tries of them', {
    timeout: 70_000,
  }, async () => {
    const r = await self(silentUrl);
    expect(r.elapsed).toBeLessThan(65_000);
    expect(r.exitCode).toBe(7);
    expect(errorOf(r.stderr).message).toMatch(
      /^GET 127\.0\.0\.1:\d+: no answer within 30 s \(one try over 30(\.\d)? s within --timeout 30\)$/,
    );
  });

  it.each([[['--timeout', '2']], [[]]])(
    'a port that refuses, with %j: tried twice at once, exit 7 naming the host and the tries',
    async (flags) => {
      const r = await self(refusingUrl, flags);
      expect(r.elapsed).toBeLessThan(5000);
      expect(r.exitCode).toBe(7);
      expect(errorOf(r.stderr).message).toMatch(
        new RegExp(
          `^${new URL(refusingUrl).host.replace(/\./g, '\\.')} refused the connection \\(2 tries over \\d+(\\.\\d)? ` +
            `s within --timeout (2|30)\\)$`,
        ),
      );
    },
  );

  it(
    'an instance that answers 503: retried with its ' + 'pacing, and no retry begun past the deadline (exit 6)',
    async () => {
      const before = unavailableRequests;
      const r = await self(unavailableUrl, ['--timeout', '3']);
      expect(r.elapsed).toBeLessThan(5000);
      expect(r.exitCode).toBe(6);
      expect(unavailableRequests - before).toBeGreaterThanOrEqual(2);
    },
  );
});

describe('a bulk job: a timeout a try, and the retries', () => {
  it('users import against an instance that never answers tries its first request twice, --timeout each', async () => {
    const file = join(dir, 'users.csv');
    writeFileSync(file, 'login_id,name\nada,Ada\n');
    const before = connections;
    const started = Date.now();
    const r = await spawnLms(['--timeout', '1', 'users', 'import', '--account', '1', file, '-o', 'json'], {
      ...env,
      LMS_BASE_URL: silentUrl,
      LMS_TOKEN: 'tok',
    });
    const elapsed = Date.now() - started;
    expect(r.exitCode).toBe(7);
    expect(connections - before).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(6000);
    expect(r.stderr).toContain('no answer within 1 s (2 tries over');
  });
});

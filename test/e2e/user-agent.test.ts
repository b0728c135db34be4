// The User-Agent rule of real instances (since 2026-01-17): a request without the header is refused
// with 403, before anything else. `lms mock serve` applies it unless started with
// --no-require-user-agent; lms itself sends one on every request it makes (the API, uploads and
// their confirmation, the OAuth token endpoint, doctor's probes), so all of them pass the rule.
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const SAM = '7~mock-sam';

/** One request as a bare node:http client sends it: no User-Agent unless one is given. */
function send(
  base: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const servers: Served[] = [];
beforeAll(ensureBuilt);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('lms mock serve and the User-Agent rule', () => {
  const { dir, env } = e2eWorkspace('user-agent');
  let strict: Served;
  let lenient: Served;
  beforeAll(async () => {
    strict = await serveMock(env);
    // The same database, served a second time without the rule.
    lenient = await serveMock(env, ['--no-require-user-agent']);
    servers.push(strict, lenient);
  });

  it.each([
    ['an API request', 'GET', '/api/v1/users/self', undefined],
    ['an unknown path', 'GET', '/api/v1/nothing/here', undefined],
    ['the token endpoint', 'POST', '/login/oauth2/token', 'grant_type=refresh_token&client_id=1&refresh_token=x'],
  ])(
    'refuses %s without a User-Agent: 403, the usual error shape, not taken for a throttle',
    async (_what, method, path, body) => {
      const headers = {
        authorization: `Bearer ${ADMIN}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      };
      for (const ua of [undefined, '', '   ']) {
        const a = await send(
          strict.url,
          path,
          ua === undefined ? headers : { ...headers, 'user-agent': ua },
          method,
          body,
        );
        expect(a.status).toBe(403);
        const parsed = JSON.parse(a.body) as { errors: { message: string }[] };
        expect(parsed.errors[0].message).toMatch(/User-Agent header is required/);
        expect(a.body).not.toMatch(/rate limit/i);
      }
      // A User-Agent of any kind is let through to the API's own answer.
      const through = await send(strict.url, path, { ...headers, 'user-agent': 'canvas-api-java/2.0.1' }, method, body);
      expect(through.status).not.toBe(403);
    },
  );

  it('answers a request without one when started with --no-require-user-agent', async () => {
    const a = await send(lenient.url, '/api/v1/users/self', { authorization: `Bearer ${ADMIN}` });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toMatchObject({ id: 1 });
    expect(lenient.log()).toContain('requests without a User-Agent are answered');
    expect(strict.log()).toContain('requests without a User-Agent are refused (403)');
  });

  // Each would fail with exit 3 (the 403) if lms stopped sending the header on that path.
  it('lets every kind of request lms makes through: a listing, an upload and its confirmation, doctor', async () => {
    const remote = { ...env, LMS_BASE_URL: strict.url, LMS_TOKEN: ADMIN };
    const listed = await spawnLms(
      ['users', 'list', '--account', '1', '-o', 'json', '--fields', 'id', '--limit', '2'],
      remote,
    );
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(2);
    const file = join(dir, 'cells.txt');
    writeFileSync(file, 'onion skin');
    const submitted = await spawnLms(
      [
        'submissions',
        'submit',
        '--course',
        '1',
        '--assignment',
        '1',
        '--file',
        file,
        '-o',
        'json',
        '--fields',
        'submission_type',
      ],
      { ...remote, LMS_TOKEN: SAM },
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    expect(JSON.parse(submitted.stdout)).toEqual({ submission_type: 'online_upload' });
    const doctor = await spawnLms(['doctor', '-o', 'json'], { ...remote, LMS_CACHE_DIR: join(dir, 'cache') });
    const checks = JSON.parse(doctor.stdout) as { check: string; status: string }[];
    expect(checks.find((c) => c.check === 'auth')).toMatchObject({ status: 'ok' });
    expect(checks.find((c) => c.check === 'reachable')).toMatchObject({ status: 'ok' });
  });

  it('applies in process too: `--mock` commands pass it, since lms sends the header', async () => {
    const r = await spawnLms(['--mock', 'users', 'get', 'self', '-o', 'json', '--fields', 'id'], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: 1 });
  });
});

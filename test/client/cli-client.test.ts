// How the CLI builds its client: a base URL that is no http(s) URL is a usage error naming where it
// came from; --as-user names a missing user as such; -v traces and errors never show a secret.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfiles } from '../../src/config/profiles.js';
import { session } from '../helpers/run-lms.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe('the base URL', () => {
  it.each([
    [
      'notaurl',
      'LMS_BASE_URL needs http:// or https://: "notaurl"',
      'hint: did you mean LMS_BASE_URL https://notaurl?',
    ],
    [
      'lms.example.edu',
      'LMS_BASE_URL needs http:// or https://: "lms.example.edu"',
      'hint: did you mean LMS_BASE_URL https://lms.example.edu?',
    ],
    [
      'localhost:4010',
      'LMS_BASE_URL needs http:// or https://: "localhost:4010"',
      'hint: did you mean LMS_BASE_URL http://localhost:4010?',
    ],
    [
      'ftp://lms.example.edu',
      'LMS_BASE_URL is not an http(s) URL: "ftp://lms.example.edu"',
      'hint: set LMS_BASE_URL to the instance address, e.g. https://lms.example.edu',
    ],
    [
      'ftp://user:pw@lms.example.edu',
      'LMS_BASE_URL is not an http(s) URL: "ftp://[REDACTED]@lms.example.edu"',
      'hint: set LMS_BASE_URL to the instance address',
    ],
  ])('LMS_BASE_URL=%s is a usage error naming the variable', async (value, message, hint) => {
    const r = await session().run('users get self', { env: { LMS_MOCK: '', LMS_BASE_URL: value, LMS_TOKEN: 'tok-1' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${message}\n`);
    expect(r.stderr).toContain(hint);
  });

  it('a profile URL that is not http(s) is a usage error naming the profile', async () => {
    const lms = session();
    await openProfiles(lms.configDir).set('odd', { url: 'ftp://lms.example.edu', token: 'tok-1' });
    const r = await lms.run('users get self -p odd', { env: { LMS_MOCK: '' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: the URL of profile "odd" is not an http(s) URL: "ftp://lms.example.edu"');
    expect(r.stderr).toContain('hint: fix it with `lms profile add odd --url https://lms.example.edu`');
  });
});

describe('--as-user', () => {
  it('names a user that does not exist (exit 4)', async () => {
    const r = await session().run('users get self --as-user nobody -o json');
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stderr)).toMatchObject({
      exit_code: 4,
      message: '--as-user nobody: user nobody not found (GET /api/v1/users/nobody → 404)',
    });
    expect(r.stderr).not.toContain('user self');
  });

  it('costs one request, once, and only when given', async () => {
    const lms = session();
    const as = await lms.run('-v users get self --as-user 7 -o json');
    expect(as.exitCode).toBe(0);
    expect(JSON.parse(as.stdout)).toMatchObject({ id: 7 });
    expect(as.stderr.split('\n').filter((l) => l.startsWith('→ '))).toEqual([
      '→ GET http://lms.mock/api/v1/users/7',
      '→ GET http://lms.mock/api/v1/users/self?as_user_id=7',
    ]);
    const plain = await lms.run('-v users get self -o json');
    expect(plain.stderr.split('\n').filter((l) => l.startsWith('→ '))).toEqual([
      '→ GET http://lms.mock/api/v1/users/self',
    ]);
  });

  it('says when the caller may not act as someone else (exit 3), and leaves a bad token a bad token', async () => {
    const lms = session();
    const student = await lms.run('users get self --as-user 1', { env: { LMS_TOKEN: '7~mock-sam' } });
    expect(student.exitCode).toBe(3);
    expect(student.stderr).toContain('error: --as-user 1: the caller may not act as user 1');
    const bad = await lms.run('users get self --as-user 1', { env: { LMS_TOKEN: 'nope' } });
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toContain('Invalid access token.');
  });

  it('checks against a real server without as_user_id, path-encoded, and stops at its 404', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"errors":[{"message":"The specified resource does not exist."}]}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await session().run(['users', 'get', 'self', '--as-user', 'sis_user_id:A/B'], {
      env: { LMS_MOCK: '', LMS_BASE_URL: base, LMS_TOKEN: 'tok-1' },
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('error: --as-user sis_user_id:A/B: user sis_user_id:A/B not found');
    expect(seen).toEqual(['/api/v1/users/sis_user_id:A%2FB']);
  });
});

describe('lms api -v', () => {
  const SECRET = 'S3cr3tV4lue';
  it.each([`access_token=${SECRET}`, `access%5Ftoken=${SECRET}`, `access_token[]=${SECRET}`, `api_key=${SECRET}`])(
    'never shows %s, answer or error',
    async (param) => {
      const lms = session();
      const ok = await lms.run(['-v', 'api', 'GET', `/api/v1/users/self?${param}`, '-o', 'json']);
      const missing = await lms.run(['-v', 'api', 'GET', `/api/v1/nothing/here?${param}`, '-o', 'json']);
      const paged = await lms.run([
        '-v',
        'api',
        'GET',
        `/api/v1/accounts/1/users?${param}`,
        '--paginate',
        '--per-page',
        '5',
        '-o',
        'json',
      ]);
      expect([ok.exitCode, missing.exitCode, paged.exitCode]).toEqual([0, 4, 0]);
      expect(paged.stderr.split('\n').filter((l) => l.startsWith('→ ')).length).toBeGreaterThan(1);
      for (const r of [ok, missing, paged]) expect(r.stdout + r.stderr).not.toContain(SECRET);
    },
  );
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldsToParams } from '../../src/commands/api/index.js';
import { allRoutes } from '../../src/spec/routes.js';
import { session } from '../helpers/run-lms.js';

const routes = allRoutes();

const json = (s: string) => JSON.parse(s) as unknown;

describe('lms api routes', () => {
  it('prints every API route as {id, method, path, paginated}', async () => {
    const lms = session();
    const r = await lms.run('api routes -o json');
    expect(r.exitCode).toBe(0);
    const rows = json(r.stdout) as { id: string; method: string; path: string; paginated: boolean }[];
    expect(rows).toContainEqual({
      id: 'users.list',
      method: 'GET',
      path: '/api/v1/accounts/:account_id/users',
      paginated: true,
    });
    expect(rows).toContainEqual({
      id: 'discussions.createTopic@groups',
      method: 'POST',
      path: '/api/v1/groups/:group_id/discussion_topics',
      paginated: false,
    });
    for (const row of rows) expect(Object.keys(row)).toEqual(['id', 'method', 'path', 'paginated']);
    expect(rows).toHaveLength(routes.filter((x) => x.path.startsWith('/api/')).length);
    // Upload targets are not API routes.
    expect(rows.find((x) => x.id === 'files.upload')).toBeUndefined();
  });

  it('filters by --area', async () => {
    const lms = session();
    const rows = json((await lms.run('api routes --area accounts -o json')).stdout);
    expect(rows).toEqual([
      { id: 'accounts.list', method: 'GET', path: '/api/v1/accounts', paginated: true },
      { id: 'accounts.get', method: 'GET', path: '/api/v1/accounts/:id', paginated: false },
    ]);
  });
});

describe('lms api <method> <path>', () => {
  it('GETs a path', async () => {
    const lms = session();
    const r = await lms.run('api GET /api/v1/users/self');
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject({ id: 1, name: 'Ada Admin' });
  });

  it('takes the method in any case, and GET parameters as a query', async () => {
    const lms = session();
    const r = await lms.run('api get /api/v1/accounts/1/users -f search_term=okafor');
    expect(r.exitCode).toBe(0);
    expect((json(r.stdout) as { id: number }[]).map((u) => u.id)).toEqual([10]);
  });

  it('PUTs bracket fields as a form body', async () => {
    const lms = session();
    const r = await lms.run('api PUT /api/v1/users/self -f "user[short_name]=Z"');
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject({ id: 1, short_name: 'Z' });
    expect(json((await lms.run('api GET /api/v1/users/self')).stdout)).toMatchObject({ short_name: 'Z' });
  });

  it('sends a JSON body from --input, fields on top', async () => {
    const lms = session();
    const dir = mkdtempSync(join(tmpdir(), 'lms-api-'));
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ user: { short_name: 'FromFile', name: 'Ada A.' } }));
    const r = await lms.run(['api', 'PUT', '/api/v1/users/self', '--input', file]);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject({ short_name: 'FromFile', name: 'Ada A.' });
    const fromStdin = await lms.run('api PUT /api/v1/users/self --input -', {
      stdin: '{"user":{"short_name":"Piped"}}',
    });
    expect(json(fromStdin.stdout)).toMatchObject({ short_name: 'Piped' });
  });

  it('follows every page with --paginate', async () => {
    const lms = session();
    const r = await lms.run('api GET /api/v1/accounts/1/users --paginate --per-page 5 -o ndjson');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    const ids = lines.map((l) => (json(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(13);
  });

  it.each<[string, string, number, string]>([
    ['a bad method', 'api PATCH /api/v1/users/self', 2, 'method must be one of GET, POST, PUT, DELETE, got "PATCH"'],
    ['a path without a slash', 'api GET api/v1/users/self', 2, 'path must start with /'],
    ['--paginate on a POST', 'api POST /api/v1/accounts/1/users --paginate', 2, '--paginate works with GET'],
    ['a field without =', 'api GET /api/v1/users/self -f oops', 2, '-f takes key=value, got "oops"'],
    [
      'an unreadable --input',
      'api PUT /api/v1/users/self --input /nonexistent/body.json',
      2,
      'cannot read --input file /nonexistent/body.json',
    ],
    [
      'a path that does not exist',
      'api GET /api/v1/nothing/here',
      4,
      'GET /api/v1/nothing/here failed with 404: The specified resource does not exist.',
    ],
    ['a user that does not exist', 'api GET /api/v1/users/987654', 4, 'failed with 404'],
    [
      'a rejected body',
      'api POST /api/v1/accounts/1/users -f "pseudonym[unique_id]=sam"',
      5,
      'pseudonym.unique_id: ID already in use',
    ],
  ])('fails on %s', async (_what, line, code, message) => {
    const lms = session();
    const r = await lms.run(line);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('rejects --input that is not a JSON object', async () => {
    const lms = session();
    const r = await lms.run('api PUT /api/v1/users/self --input -', { stdin: '[1,2]' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--input must hold a JSON object (-)');
  });
});

describe('fieldsToParams', () => {
  it.each<[string[], Record<string, unknown>]>([
    [['a=1', 'b=x=y'], { a: '1', b: 'x=y' }],
    [['ids[]=1', 'ids[]=2'], { ids: ['1', '2'] }],
    [['user[name]=Jo'], { 'user[name]': 'Jo' }],
    [['empty='], { empty: '' }],
  ])('reads %j', (fields, params) => {
    expect(fieldsToParams(fields)).toEqual(params);
  });
});

describe('lms api and secrets', () => {
  it('never echoes a token given in a malformed path, in text or JSON', async () => {
    const { session } = await import('../helpers/run-lms.js');
    for (const output of ['', ' -o json']) {
      const r = await session().run(`api GET api/v1/x?access_token=S3CRET-TOKEN${output}`);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('path must start with /');
      expect(r.stdout + r.stderr).not.toContain('S3CRET-TOKEN');
    }
  });
});

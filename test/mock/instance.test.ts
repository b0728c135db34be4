// The mock names the instance that answered, and a seed or reset makes a new one; page views never
// keep a credential that came in the query.
import { describe, expect, it } from 'vitest';
import { INSTANCE_HEADER } from '../../src/mock/handler.js';
import { reseed } from '../../src/mock/runtime.js';
import { freshMock, TOKENS } from '../helpers/mock-client.js';
import { values } from '../helpers/sql.js';

const get = (mock: ReturnType<typeof freshMock>, url: string, token?: string) =>
  mock.handler({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('instance identity', () => {
  it('is on every answer, errors included, and changes with seed and reset only', async () => {
    const mock = freshMock();
    const first = (await get(mock, 'http://lms.mock/api/v1/users/self', TOKENS.admin)).headers[INSTANCE_HEADER];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(mock, 'http://lms.mock/api/v1/users/self')).headers[INSTANCE_HEADER]).toBe(first);
    expect((await get(mock, 'http://lms.mock/api/v1/nope', TOKENS.admin)).headers[INSTANCE_HEADER]).toBe(first);
    await reseed(mock.db);
    const second = (await get(mock, 'http://lms.mock/api/v1/users/self', TOKENS.admin)).headers[INSTANCE_HEADER];
    expect(second).not.toBe(first);
    await reseed(mock.db, { minimal: true });
    expect((await get(mock, 'http://lms.mock/api/v1/users/self', TOKENS.admin)).headers[INSTANCE_HEADER]).not.toBe(
      second,
    );
  });
});

describe('page views', () => {
  it('never store a token sent in the query, whatever its encoding', async () => {
    const mock = freshMock();
    // The query alone authenticates, as on real instances; other spellings ride along a header.
    expect((await get(mock, `http://lms.mock/api/v1/users/self?access_token=${TOKENS.admin}&per_page=3`)).status).toBe(
      200,
    );
    for (const key of ['access%5Ftoken', 'access_token[]', 'API_KEY', 'verifier']) {
      const res = await get(mock, `http://lms.mock/api/v1/users/self?${key}=${TOKENS.admin}&per_page=3`, TOKENS.admin);
      expect(res.status).toBe(200);
    }
    const stored = values(mock.db, `SELECT url FROM page_views`) as string[];
    expect(stored).toHaveLength(5);
    for (const url of stored) {
      expect(url).not.toContain(TOKENS.admin);
      expect(url).not.toMatch(/access|api_key|verifier/i);
      expect(url).toContain('per_page=3');
    }
  });
});

describe('instance state', () => {
  it('changes with every DELETE that succeeds, and with nothing else', async () => {
    const mock = freshMock();
    const state = async () =>
      (await get(mock, 'http://lms.mock/api/v1/users/self', TOKENS.admin)).headers[INSTANCE_HEADER];
    const send = (method: 'PUT' | 'POST' | 'DELETE', url: string, token: string = TOKENS.admin) =>
      mock.handler({ method, url: `http://lms.mock${url}`, headers: { authorization: `Bearer ${token}` } });
    const first = await state();
    expect((await send('PUT', '/api/v1/users/8', TOKENS.admin)).status).toBe(200);
    expect((await send('POST', '/api/v1/accounts/1/users')).status).toBe(400);
    expect(await state()).toBe(first);
    // Refused, or not found: nothing was removed.
    expect((await send('DELETE', '/api/v1/accounts/1/users/8', TOKENS.student)).status).toBe(401);
    expect((await send('DELETE', '/api/v1/accounts/1/users/999')).status).toBe(404);
    expect(await state()).toBe(first);
    expect((await send('DELETE', '/api/v1/accounts/1/users/8')).status).toBe(200);
    const second = await state();
    expect(second).not.toBe(first);
    expect(second.startsWith(first)).toBe(true);
    expect((await send('DELETE', '/api/v1/courses/1/enrollments/1')).status).toBe(200);
    expect(await state()).not.toBe(second);
  });
});

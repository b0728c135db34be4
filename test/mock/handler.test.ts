// The mock handler's own steps: masquerading from every encoding, and what hostile parameters cannot do.
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { freshMock, TOKENS } from '../helpers/mock-client.js';

const self = (token: string, body?: string, contentType?: string, query = ''): ApiRequest => ({
  method: 'GET',
  url: `http://lms.mock/api/v1/users/self${query}`,
  headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
  body,
});

describe('as_user_id', () => {
  it.each<[string, ApiRequest]>([
    ['the query', self(TOKENS.admin, undefined, undefined, '?as_user_id=7')],
    ['a form body', self(TOKENS.admin, 'as_user_id=7', 'application/x-www-form-urlencoded')],
    ['a JSON string', self(TOKENS.admin, '{"as_user_id":"7"}', 'application/json')],
    ['a JSON number', self(TOKENS.admin, '{"as_user_id":7}', 'application/json')],
  ])('is read from %s', async (_where, req) => {
    const res = await freshMock().handler(req);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body as string)).toMatchObject({ id: 7 });
  });

  it('cannot be planted in a prototype: later requests act as their own token', async () => {
    const mock = freshMock();
    for (const [body, type] of [
      ['__proto__[as_user_id]=1', 'application/x-www-form-urlencoded'],
      ['{"__proto__":{"as_user_id":"1"},"constructor":{"prototype":{"as_user_id":"1"}}}', 'application/json'],
    ]) {
      expect((await mock.handler(self(TOKENS.student, body, type))).status).toBe(200);
    }
    const res = await mock.handler(self(TOKENS.student));
    expect(JSON.parse(res.body as string)).toMatchObject({ id: 7, name: 'Sam Student' });
    expect(({} as Record<string, unknown>).as_user_id).toBeUndefined();
  });

  it('answers 400 to a path with a malformed percent-escape', async () => {
    const res = await freshMock().handler({ method: 'GET', url: 'http://lms.mock/api/v1/users/%E0%A4%A', headers: { authorization: `Bearer ${TOKENS.admin}` } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body as string)).toEqual({ errors: [{ message: 'the request path has a malformed percent-encoding' }] });
  });
});

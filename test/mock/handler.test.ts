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

  it.each([
    ['a student as themself', TOKENS.student, '7', 200],
    ['a student by SIS id as themself', TOKENS.student, 'sis_user_id:S-007', 200],
    ['a student as another student', TOKENS.student, '8', 401],
    ['a teacher as a student of theirs', TOKENS.teacher, '7', 401],
    ['the admin as a user who does not exist', TOKENS.admin, '999999', 401],
    ['the admin as a student', TOKENS.admin, '7', 200],
  ] as const)('lets %s act: %s', async (_who, token, as, status) => {
    const res = await freshMock().handler(self(token, undefined, undefined, `?as_user_id=${encodeURIComponent(as)}`));
    expect(res.status).toBe(status);
    // Refused alike whether or not the user exists, so a refusal tells nobody who does.
    if (status === 401) expect(JSON.parse(res.body as string)).toEqual({ errors: 'Invalid as_user_id' });
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
    const res = await freshMock().handler({
      method: 'GET',
      url: 'http://lms.mock/api/v1/users/%E0%A4%A',
      headers: { authorization: `Bearer ${TOKENS.admin}` },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body as string)).toEqual({
      errors: [{ message: 'the request path has a malformed percent-encoding' }],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { errorMessages, parseJson, parseLinkHeader, readBody, toApiError } from '../../src/client/parse.js';
import { isThrottled } from '../../src/transport/types.js';
import { ApiError, ExitCode, exitCodeFor } from '../../src/errors.js';
import type { ApiResponse } from '../../src/transport/types.js';

const res = (status: number, body: string | Uint8Array, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers,
  body,
});

describe('errorMessages', () => {
  it.each<[string, unknown, string[]]>([
    ['a list of messages', { errors: [{ message: 'a' }, { message: 'b' }] }, ['a', 'b']],
    ['a list of strings', { errors: ['a', 'b'] }, ['a', 'b']],
    [
      'field errors nested by model',
      { errors: { pseudonym: { unique_id: [{ message: 'taken' }] } } },
      ['pseudonym.unique_id: taken'],
    ],
    [
      'several fields',
      {
        errors: {
          user: {
            name: [{ attribute: 'name', type: 'blank', message: 'is blank' }],
            time_zone: [{ message: 'unknown' }],
          },
        },
      },
      ['user.name: is blank', 'user.time_zone: unknown'],
    ],
    ['a flat field', { errors: { name: [{ message: 'is blank' }] } }, ['name: is blank']],
    ['a field with string messages', { errors: { name: ['is blank'] } }, ['name: is blank']],
    ['errors as text', { errors: 'text' }, ['text']],
    ['a message', { message: 'm' }, ['m']],
    ['an error', { error: 'e' }, ['e']],
    ['status with errors', { status: 'unauthorized', errors: [{ message: 'no' }] }, ['no']],
    ['plain text', 'Internal Server Error\n', ['Internal Server Error']],
    ['an empty string', '  ', []],
    ['nothing', undefined, []],
    ['null', null, []],
    ['an object without messages', { foo: 1 }, []],
  ])('reads %s', (_what, body, messages) => {
    expect(errorMessages(body)).toEqual(messages);
  });

  it('caps plain text at 500 characters', () => {
    expect(errorMessages('x'.repeat(2000))).toEqual(['x'.repeat(500)]);
  });
});

describe('parseJson and readBody', () => {
  it.each<[string, string, unknown]>([
    ['a guarded object', 'while(1);{"a":1}', { a: 1 }],
    ['a guarded list', 'while(1);[1,2]', [1, 2]],
    ['an unguarded object', '{"a":1}', { a: 1 }],
    ['an empty body', '', undefined],
    ['a guard alone', 'while(1);', undefined],
  ])('parseJson reads %s', (_what, text, value) => {
    expect(parseJson(text)).toEqual(value);
  });

  it.each<[string, ApiResponse, unknown]>([
    ['JSON by content type', res(200, '{"id":1}', { 'content-type': 'application/json; charset=utf-8' }), { id: 1 }],
    [
      'a guarded body with a JSON type',
      res(200, 'while(1);[{"id":1}]', { 'content-type': 'application/json' }),
      [{ id: 1 }],
    ],
    ['a guarded body without a type', res(200, 'while(1);{"id":2}'), { id: 2 }],
    ['bytes', res(200, new TextEncoder().encode('{"id":3}'), { 'content-type': 'application/json' }), { id: 3 }],
    ['JSON-looking text without a type', res(200, ' [1]'), [1]],
    ['plain text', res(500, 'oops', { 'content-type': 'text/plain' }), 'oops'],
    ['broken JSON, as text', res(502, '{"half', { 'content-type': 'application/json' }), '{"half'],
    ['204 as nothing', res(204, 'ignored'), undefined],
    ['an empty JSON body as nothing', res(200, '', { 'content-type': 'application/json' }), undefined],
  ])('readBody reads %s', (_what, response, value) => {
    expect(readBody(response)).toEqual(value);
  });

  it('turns a guarded error answer into messages', () => {
    const error = toApiError(
      res(400, 'while(1);{"errors":[{"message":"bad"}]}', { 'content-type': 'application/json' }),
      'POST',
      'http://x/api/v1/users/1',
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.messages).toEqual(['bad']);
    expect(error.body).toEqual({ errors: [{ message: 'bad' }] });
    expect(error.message).toBe('POST /api/v1/users/1 failed with 400: bad');
    expect(error.exitCode).toBe(ExitCode.rejected);
  });
});

describe('isThrottled', () => {
  it.each<[number, string, boolean]>([
    [429, '', true],
    [429, '{"errors":[{"message":"slow down"}]}', true],
    [403, '403 Forbidden (Rate Limit Exceeded)', true],
    [403, 'rate limit exceeded', true],
    [403, '{"errors":[{"message":"user not authorized to perform that action"}]}', false],
    [403, '', false],
    [401, 'Rate Limit Exceeded', false],
    [503, 'Rate Limit Exceeded', false],
    [200, '', false],
  ])('%i with %j → %s', (status, text, throttled) => {
    expect(isThrottled(status, text)).toBe(throttled);
  });

  it.each<[number, string, number]>([
    [403, '403 Forbidden (Rate Limit Exceeded)', ExitCode.unavailable],
    [403, '{"errors":[{"message":"forbidden"}]}', ExitCode.auth],
    [429, '', ExitCode.unavailable],
  ])('gives a %i answer %j the exit code %i', (status, text, code) => {
    const error = toApiError(res(status, text), 'GET', 'http://x/api/v1/courses');
    expect(error.exitCode).toBe(code);
    expect(error.throttled).toBe(code === ExitCode.unavailable);
  });
});

describe('parseLinkHeader', () => {
  it.each<[string, string, string | undefined]>([
    ['a relation in capitals', '<https://x/a?page=2>; rel="Next"', 'https://x/a?page=2'],
    ['an unquoted relation', '<https://x/a?page=2>; REL=next', 'https://x/a?page=2'],
    ['rel after other parameters', '<https://x/a?page=2>; type="application/json"; rel="next"', 'https://x/a?page=2'],
    ['several relations in one', '<https://x/a?page=2>; rel="next last"', 'https://x/a?page=2'],
    ['spaces around =', '<https://x/a?page=2> ; rel = "next"', 'https://x/a?page=2'],
    [
      'a comma inside the URL',
      '<https://x/a?ids=1,2&page=2>; rel="next", <https://x/a?page=1>; rel="first"',
      'https://x/a?ids=1,2&page=2',
    ],
    ['no next: the last page', '<https://x/a?page=1>; rel="first", <https://x/a?page=1>; rel="prev"', undefined],
    ['a parameter that only ends in rel', '<https://x/a?page=2>; norel="next"', undefined],
  ])('finds next: %s', (_name, header, next) => {
    expect(parseLinkHeader(header).next).toBe(next);
  });

  it('reads every rel of a header, URLs exactly as given', () => {
    const header =
      '<https://lms.example.edu/api/v1/courses?page=2&per_page=10>; rel="current",' +
      '<https://lms.example.edu/api/v1/courses?page=3&per_page=10>; rel="next",' +
      '<https://lms.example.edu/api/v1/courses?page=1&per_page=10>; rel="prev",' +
      '<https://lms.example.edu/api/v1/courses?page=1&per_page=10>; rel="first",' +
      '<https://lms.example.edu/api/v1/courses?page=7&per_page=10>; rel="last"';
    expect(parseLinkHeader(header)).toEqual({
      current: 'https://lms.example.edu/api/v1/courses?page=2&per_page=10',
      next: 'https://lms.example.edu/api/v1/courses?page=3&per_page=10',
      prev: 'https://lms.example.edu/api/v1/courses?page=1&per_page=10',
      first: 'https://lms.example.edu/api/v1/courses?page=1&per_page=10',
      last: 'https://lms.example.edu/api/v1/courses?page=7&per_page=10',
    });
  });

  it('keeps opaque bookmark pages untouched', () => {
    const header =
      '<https://lms.example.edu/api/v1/courses/1/assignments?page=bookmark:WzE2LCJhYmMiXQ&per_page=100>; rel="next", ' +
      '<https://lms.example.edu/api/v1/courses/1/assignments?page=first&per_page=100>; rel="first"';
    expect(parseLinkHeader(header)).toEqual({
      next: 'https://lms.example.edu/api/v1/courses/1/assignments?page=bookmark:WzE2LCJhYmMiXQ&per_page=100',
      first: 'https://lms.example.edu/api/v1/courses/1/assignments?page=first&per_page=100',
    });
  });

  it.each<[string, string, Record<string, string>]>([
    ['a bookmark alone', '</api/v1/x?page=bookmark:abc>; rel="next"', { next: '/api/v1/x?page=bookmark:abc' }],
    ['unquoted rels and spacing', '<http://a/b?page=2> ;rel=next', { next: 'http://a/b?page=2' }],
    [
      'one link with two rels',
      '<http://a/b?page=1>; rel="first prev"',
      { first: 'http://a/b?page=1', prev: 'http://a/b?page=1' },
    ],
    ['a URL holding a comma', '<http://a/b?ids=1,2&page=2>; rel="next"', { next: 'http://a/b?ids=1,2&page=2' }],
  ])('reads %s', (_what, header, links) => {
    expect(parseLinkHeader(header)).toEqual(links);
  });

  it.each([undefined, ''])('reads %j as no links', (header) => {
    expect(parseLinkHeader(header)).toEqual({});
  });
});

describe('exitCodeFor', () => {
  it.each<[number, boolean, number]>([
    [400, false, 5],
    [401, false, 3],
    [403, false, 3],
    [403, true, 6],
    [404, false, 4],
    [409, false, 5],
    [422, false, 5],
    [429, false, 6],
    [500, false, 1],
    [502, false, 6],
    [503, false, 6],
    [504, false, 6],
  ])('%i (throttled %s) → %i', (status, throttled, code) => {
    expect(exitCodeFor(status, throttled)).toBe(code);
  });
});

// What an answer can make the client read: JSON nested no deeper than MAX_JSON_DEPTH (refused with
// exit 1 naming the limit, not a stack overflow), and an error's messages joined to a bounded line.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import {
  errorMessages,
  MAX_JSON_DEPTH,
  parseJson,
  readBody,
  TooDeepError,
  toApiError,
} from '../../src/client/parse.js';
import { ApiError, ExitCode, FailureError } from '../../src/errors.js';
import type { ApiResponse } from '../../src/transport/types.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const res = (status: number, body: string): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
});

describe('JSON depth', () => {
  it('200,000 levels deep is refused before it is parsed: exit 1, naming the limit', () => {
    let error: unknown;
    try {
      parseJson(nested(200_000));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TooDeepError);
    expect(error).toBeInstanceOf(FailureError);
    expect((error as FailureError).exitCode).toBe(ExitCode.failure);
    expect((error as Error).message).toBe(
      `the instance's answer nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels, the most lms reads; it ` +
        'was not read',
    );
  });

  it('the limit itself is read; brackets inside strings, escaped quotes among them, are not levels', () => {
    expect(parseJson(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(TooDeepError);
    const text = JSON.stringify({ name: `\\"${'['.repeat(10_000)}`, list: [{ a: '}' }] });
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('an error answer nested that deep is the same refusal, not a walk that overflows the stack', () => {
    const deep = `{"errors":${'{"a":'.repeat(200_000)}"x"${'}'.repeat(200_000)}}`;
    expect(() => readBody(res(400, deep))).toThrow(TooDeepError);
    expect(() => toApiError(res(400, deep), 'GET', 'https://lms.example.edu/api/v1/x')).toThrow(TooDeepError);
  });

  it('a deep answer to an operation fails the call with exit 1', async () => {
    const client = new ApiClient({
      baseUrl: 'https://lms.example.edu',
      token: 't',
      transport: async () => res(200, nested(200_000)),
    });
    await expect(client.request('users.get', { id: 1 })).rejects.toThrow(TooDeepError);
  });
});

describe('error messages', () => {
  it('200,000 messages are ten, and a count of the rest', () => {
    const body = { errors: Array.from({ length: 200_000 }, (_, i) => ({ message: `row ${i} is wrong` })) };
    const messages = errorMessages(body);
    expect(messages).toEqual([...Array.from({ length: 10 }, (_, i) => `row ${i} is wrong`), 'and 199990 more']);
    const error = toApiError(res(422, JSON.stringify(body)), 'POST', 'https://lms.example.edu/api/v1/x');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      `POST /api/v1/x failed with 422: ${Array.from({ length: 10 }, (_, i) => `row ${i} is wrong`).join('; ')}; and ` +
        '199990 more',
    );
  });

  it('each message is cut at 500 characters, and all of them at 2,000', () => {
    const long = 'y'.repeat(100_000);
    const messages = errorMessages({ errors: Array.from({ length: 8 }, () => ({ message: long })) });
    expect(messages).toEqual([
      ...Array.from({ length: 3 }, () => `${'y'.repeat(500)}…`),
      `${'y'.repeat(497)}…`,
      'and 4 more',
    ]);
    expect(messages.join('; ').length).toBeLessThan(2100);
  });

  it('field errors by the hundred thousand are bounded the same way', () => {
    const errors = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`f${i}`, [{ message: 'is blank' }]]));
    const messages = errorMessages({ errors });
    expect(messages).toHaveLength(11);
    expect(messages.at(-1)).toBe('and 99990 more');
  });
});

import { isDeepStrictEqual } from 'node:util';
import { ApiClient } from '../../src/client/client.js';
import { ApiError } from '../../src/errors.js';
import { openMock, type MockRuntime } from '../../src/mock/runtime.js';
import { loadSeed } from '../../src/mock/seed.js';

export const TOKENS = {
  admin: '1~mock-admin',
  helpdesk: '2~mock-helpdesk',
  teacher: '3~mock-tteacher',
  otherTeacher: '4~mock-theo',
  ta: '5~mock-tara',
  student: '7~mock-sam',
  otherStudent: '8~mock-sofia',
  privateStudent: '10~mock-mina',
  observer: '13~mock-olive',
} as const;

/** The seeded school, loaded once for the many in-memory databases the tests make. */
export const seedSchool = await loadSeed();

/** The mock's settings in process: a fixed clock, background jobs run back to back. */
export const MOCK_ENV = { LMS_MOCK_NOW: '2026-11-02T12:00:00.000Z', LMS_MOCK_JOB_TICK_MS: '0' };

export function freshMock(): MockRuntime {
  return jsonChecked(openMock(':memory:', MOCK_ENV, seedSchool));
}

/**
 * The mock hands its JSON answers to in-process clients as values and writes their text only when
 * something reads it. Every answer the tests get is checked to be exactly what its text parses to,
 * so no handler can answer in process with something JSON would change (an undefined field, a Date,
 * a Buffer, a shared object changed later).
 */
export function jsonChecked(mock: MockRuntime): MockRuntime {
  const handler = mock.handler;
  mock.handler = async (req) => {
    const res = await handler(req);
    if (res.json !== undefined && !isDeepStrictEqual(res.json, JSON.parse(res.body as string))) {
      throw new Error(`${req.method} ${req.url}: the answer's value is not what its JSON text parses to`);
    }
    return res;
  };
  return mock;
}

export function clientFor(
  mock: MockRuntime,
  token: string | undefined,
  extra: { perPage?: number; asUser?: string } = {},
): ApiClient {
  // A User-Agent, as lms and every real client sends (a session's mock refuses a request without one).
  return new ApiClient({ baseUrl: 'http://lms.mock', token, transport: mock.handler, userAgent: 'lms-test', ...extra });
}

/** The status an API call fails with (or 'ok'). */
export async function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

/** Every item of a list, page after page. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** How an API call failed: its status and body (and a test failure if it did not fail). */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, body: e.body };
    throw e;
  }
  throw new Error('expected the call to fail');
}

// A value a flag cannot take is a usage error (exit 2) that names the flag, before anything is sent.
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

describe('bad flag values', () => {
  it.each<[string, string[], string]>([
    [
      'a timeout past what a timer can wait',
      ['users', 'get', '7', '--timeout', '99999999999'],
      '--timeout must be a whole number of seconds from 1 to 3600, not "99999999999"',
    ],
    [
      'a timeout just over the cap',
      ['users', 'get', '7', '--timeout', '3601'],
      '--timeout must be a whole number of seconds from 1 to 3600',
    ],
    ['a zero timeout', ['users', 'get', '7', '--timeout', '0'], '--timeout must be'],
    ['a fractional timeout', ['users', 'get', '7', '--timeout', '1.5'], '--timeout must be'],
    [
      'a page larger than the API serves',
      ['users', 'list', '--per-page', '101'],
      '--per-page must be a whole number from 1 to 100, not "101"',
    ],
    ['a zero page size', ['users', 'list', '--per-page', '0'], '--per-page must be'],
    ['a zero limit', ['users', 'list', '--limit', '0'], '--limit must be a whole number of at least 1, not "0"'],
    ['a negative limit', ['users', 'list', '--limit=-3'], '--limit must be'],
    ['a limit past a safe integer', ['users', 'list', '--limit', '99999999999999999999'], '--limit must be'],
    ['an empty --as-user', ['users', 'get', 'self', '--as-user', ''], 'error: --as-user needs a value\n'],
    ['an empty --profile', ['users', 'get', 'self', '-p', ''], 'error: --profile needs a value\n'],
    ['an empty --mock-db', ['users', 'get', 'self', '--mock-db', ''], 'error: --mock-db needs a value\n'],
    ['an empty --fields', ['users', 'get', 'self', '--fields', ','], '--fields needs at least one field name'],
    [
      'a bad LMS_OUTPUT',
      ['users', 'get', 'self'],
      'LMS_OUTPUT must be one of table, json, ndjson, csv, yaml, not "xml"',
    ],
  ])('%s', async (what, argv, message) => {
    const r = await session().run(argv, what === 'a bad LMS_OUTPUT' ? { env: { LMS_OUTPUT: 'xml' } } : undefined);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('accepts the edges of each range', async () => {
    const lms = session();
    expect((await lms.run('users list --per-page 100 --limit 1 --timeout 3600 -o json')).exitCode).toBe(0);
    expect((await lms.run('users list --per-page 1 --limit 2 --timeout 1 -o json')).exitCode).toBe(0);
  });
});

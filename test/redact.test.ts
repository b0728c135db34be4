// Secrets are recognised whatever their encoding, and removed or masked without touching the rest.
import { describe, expect, it } from 'vitest';
import { dropSecrets, isSecretParam, originOnly, redactText, redactUrl } from '../src/redact.js';

describe('secret parameters', () => {
  it.each([
    ['access_token', true],
    ['ACCESS_TOKEN', true],
    ['access%5Ftoken', true],
    ['access%5ftoken', true],
    ['access_token[]', true],
    ['access_token%5B%5D', true],
    ['access_token[x][y]', true],
    ['api_key', true],
    ['verifier', true],
    ['uuid', true],
    ['access%255Ftoken', true],
    ['X-Amz-Signature', true],
    ['x-amz-credential', true],
    ['Signature', true],
    ['refresh_token', true],
    ['code', true],
    ['code_verifier', true],
    ['course_code', false],
    ['access+token', false],
    ['per_page', false],
    ['user[avatar][token]', false],
    ['%E0%A4%A', false],
  ])('%s → %s', (key, secret) => expect(isSecretParam(key)).toBe(secret));
});

describe('redactUrl', () => {
  it.each([
    [
      'http://h/api/v1/users/self?access_token=abc&per_page=5',
      'http://h/api/v1/users/self?access_token=[REDACTED]&per_page=5',
    ],
    ['/api/v1/x?a=1&access%5Ftoken=abc#frag', '/api/v1/x?a=1&access%5Ftoken=[REDACTED]#frag'],
    [
      '/api/v1/x?access_token[]=abc&access_token[]=def',
      '/api/v1/x?access_token[]=[REDACTED]&access_token[]=[REDACTED]',
    ],
    ['http://h/files/9/download?verifier=0123abcd', 'http://h/files/9/download?verifier=[REDACTED]'],
    ['http://h/api/v1/files/9/create_success?uuid=0123abcd', 'http://h/api/v1/files/9/create_success?uuid=[REDACTED]'],
    ['http://h/files_api/uploads/0123abcd', 'http://h/files_api/uploads/[REDACTED]'],
    ['/files_api/uploads/0123abcd?x=1', '/files_api/uploads/[REDACTED]?x=1'],
    ['/api/v1/users?search_term=sam', '/api/v1/users?search_term=sam'],
    ['https://user:pw@h/x?a=1', 'https://[REDACTED]@h/x?a=1'],
    ['/cb#access_token=abc&state=1', '/cb#access_token=[REDACTED]&state=1'],
    [
      'https://s3/b/k?X-Amz-Credential=c&X-Amz-Signature=s&x=1',
      'https://s3/b/k?X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&x=1',
    ],
  ])('%s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});

describe('dropSecrets', () => {
  it.each([
    ['http://h/api/v1/users/self?access_token=abc&per_page=5', 'http://h/api/v1/users/self?per_page=5'],
    ['http://h/api/v1/users/self?access%5Ftoken=abc', 'http://h/api/v1/users/self'],
    ['/x?API_KEY[]=1&b=2&access_token=3#f', '/x?b=2#f'],
  ])('%s', (url, expected) => expect(dropSecrets(url)).toBe(expected));
});

describe('originOnly', () => {
  it.each([
    ['https://storage.example.net/bucket/one-time?sig=1', 'https://storage.example.net/[REDACTED]'],
    ['http://127.0.0.1:4010/files_api/uploads/abc', 'http://127.0.0.1:4010/[REDACTED]'],
    ['not a url', '[REDACTED]'],
  ])('%s', (url, expected) => expect(originOnly(url)).toBe(expected));
});

describe('redactText', () => {
  it.each([
    ['connect ECONNRESET http://h/x?access_token=abc&b=2', 'connect ECONNRESET http://h/x?access_token=[REDACTED]&b=2'],
    ['bad header: Bearer abc.def', 'bad header: Bearer [REDACTED]'],
    ['query was api%5Fkey=abc and page=2', 'query was api%5Fkey=[REDACTED] and page=2'],
    ['posted to /files_api/uploads/abc', 'posted to /files_api/uploads/[REDACTED]'],
    ['nothing secret here: per_page=5', 'nothing secret here: per_page=5'],
  ])('%s', (text, expected) => expect(redactText(text)).toBe(expected));

  it('masks the literal secrets it is given, the longest first', () => {
    expect(
      redactText('token tok-1 then tok-12 at https://s/u/one', ['tok-1', 'tok-12', 'https://s/u/one', undefined, '']),
    ).toBe('token [REDACTED] then [REDACTED] at [REDACTED]');
  });
});

describe('one-time upload ids', () => {
  it.each(['http://h/files%5Fapi/uploads/abc123', 'http://h/files%5fapi/uploads/abc123?x=1'])(
    'are masked in %s however the path is escaped',
    (url) => {
      expect(redactUrl(url)).not.toContain('abc123');
    },
  );
});

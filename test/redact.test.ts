// Secrets are recognised whatever their encoding, and removed or masked without touching the rest.
import { describe, expect, it } from 'vitest';
import { dropSecrets, isSecretParam, redactUrl } from '../src/redact.js';

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
    ['access+token', false],
    ['per_page', false],
    ['user[avatar][token]', false],
    ['%E0%A4%A', false],
  ])('%s → %s', (key, secret) => expect(isSecretParam(key)).toBe(secret));
});

describe('redactUrl', () => {
  it.each([
    ['http://h/api/v1/users/self?access_token=abc&per_page=5', 'http://h/api/v1/users/self?access_token=[REDACTED]&per_page=5'],
    ['/api/v1/x?a=1&access%5Ftoken=abc#frag', '/api/v1/x?a=1&access%5Ftoken=[REDACTED]#frag'],
    ['/api/v1/x?access_token[]=abc&access_token[]=def', '/api/v1/x?access_token[]=[REDACTED]&access_token[]=[REDACTED]'],
    ['http://h/files/9/download?verifier=0123abcd', 'http://h/files/9/download?verifier=[REDACTED]'],
    ['http://h/api/v1/files/9/create_success?uuid=0123abcd', 'http://h/api/v1/files/9/create_success?uuid=[REDACTED]'],
    ['http://h/files_api/uploads/0123abcd', 'http://h/files_api/uploads/[REDACTED]'],
    ['/files_api/uploads/0123abcd?x=1', '/files_api/uploads/[REDACTED]?x=1'],
    ['/api/v1/users?search_term=sam', '/api/v1/users?search_term=sam'],
  ])('%s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});

describe('dropSecrets', () => {
  it.each([
    ['http://h/api/v1/users/self?access_token=abc&per_page=5', 'http://h/api/v1/users/self?per_page=5'],
    ['http://h/api/v1/users/self?access%5Ftoken=abc', 'http://h/api/v1/users/self'],
    ['/x?API_KEY[]=1&b=2&access_token=3#f', '/x?b=2#f'],
  ])('%s', (url, expected) => expect(dropSecrets(url)).toBe(expected));
});

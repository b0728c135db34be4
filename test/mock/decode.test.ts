import { describe, expect, it } from 'vitest';
import { encodeBody } from '../../src/client/encode.js';
import { DecodeError, decodeParams, headerOf, isFile, type ParamsObject } from '../../src/mock/decode.js';
import type { ApiRequest, HttpMethod } from '../../src/transport/types.js';

const BASE = 'http://lms.mock/api/v1/things';

function req(method: HttpMethod, url: string, body?: string | Uint8Array, contentType?: string): [ApiRequest, URL] {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return [{ method, url, headers, body }, new URL(url)];
}

const form = (method: HttpMethod, body: string, query = '') => req(method, BASE + query, body, 'application/x-www-form-urlencoded');

describe('decodeParams: Rack bracket rules', () => {
  it.each<[string, string, ParamsObject]>([
    ['plain names', 'a=1&b=two', { a: '1', b: 'two' }],
    ['a nested hash', 'a[b][c]=1', { a: { b: { c: '1' } } }],
    ['siblings in a hash', 'user[name]=Jo&user[short_name]=J', { user: { name: 'Jo', short_name: 'J' } }],
    ['a list', 'ids[]=1&ids[]=2', { ids: ['1', '2'] }],
    ['a list inside a hash', 'user[roles][]=a&user[roles][]=b', { user: { roles: ['a', 'b'] } }],
    [
      'a list of hashes, a new one when a key repeats',
      'ratings[][description]=x&ratings[][points]=1&ratings[][description]=y',
      { ratings: [{ description: 'x', points: '1' }, { description: 'y' }] },
    ],
    [
      'a list of hashes inside a hash',
      'rubric[ratings][][description]=x&rubric[ratings][][points]=1&rubric[ratings][][description]=y&rubric[ratings][][points]=0',
      { rubric: { ratings: [{ description: 'x', points: '1' }, { description: 'y', points: '0' }] } },
    ],
    ['an empty value', 'due_at=', { due_at: '' }],
    ['the last of a repeated plain name', 'a=1&a=2', { a: '2' }],
    ['encoded brackets', 'user%5Bname%5D=Jo+Doe', { user: { name: 'Jo Doe' } }],
  ])('reads %s', async (_what, body, expected) => {
    expect(await decodeParams(...form('POST', body))).toEqual(expected);
  });

  it('reads the same rules from the query string', async () => {
    const [r, url] = req('GET', `${BASE}?include[]=email&include[]=avatar_url&search_term=jo&user[id]=3`);
    expect(await decodeParams(r, url)).toEqual({ include: ['email', 'avatar_url'], search_term: 'jo', user: { id: '3' } });
  });
});

describe('decodeParams: bodies', () => {
  it('merges the query string and a form body', async () => {
    expect(await decodeParams(...form('PUT', 'user[name]=Jo&ids[]=2', '?as_user_id=5&ids[]=1'))).toEqual({
      as_user_id: '5',
      ids: ['1', '2'],
      user: { name: 'Jo' },
    });
  });

  it('reads a form body sent with no content type', async () => {
    expect(await decodeParams(...req('POST', BASE, 'a[b]=1'))).toEqual({ a: { b: '1' } });
  });

  it('reads a form body on DELETE', async () => {
    expect(await decodeParams(...form('DELETE', 'event=delete&ids[]=4'))).toEqual({ event: 'delete', ids: ['4'] });
  });

  it('reads a JSON body, types kept, merged over the query', async () => {
    const body = JSON.stringify({ user: { name: 'Jo', admin: true }, ids: [1, 2], note: null });
    expect(await decodeParams(...req('POST', `${BASE}?as_user_id=5`, body, 'application/json; charset=utf-8'))).toEqual({
      as_user_id: '5',
      user: { name: 'Jo', admin: true },
      ids: [1, 2],
      note: null,
    });
  });

  it('reads a JSON body on DELETE, as bytes', async () => {
    expect(await decodeParams(...req('DELETE', BASE, new TextEncoder().encode('{"reason":"x"}'), 'application/json'))).toEqual({ reason: 'x' });
  });

  it.each([
    ['a broken body', '{"a":'],
    ['plain text', 'hello'],
  ])('rejects %s sent as JSON with a DecodeError', async (_what, body) => {
    await expect(decodeParams(...req('POST', BASE, body, 'application/json'))).rejects.toThrow(DecodeError);
    await expect(decodeParams(...req('POST', BASE, body, 'application/json'))).rejects.toThrow('the request body is not valid JSON');
  });

  it('ignores a JSON body that is not an object', async () => {
    expect(await decodeParams(...req('POST', `${BASE}?a=1`, '[1,2]', 'application/json'))).toEqual({ a: '1' });
  });

  it.each([
    ['an empty string', ''],
    ['empty bytes', new Uint8Array()],
  ])('reads %s as no body, even when it claims to be JSON', async (_what, body) => {
    expect(await decodeParams(...req('POST', `${BASE}?a=1`, body, 'application/json'))).toEqual({ a: '1' });
  });

  it('reads a multipart body with a file part', async () => {
    const file = new File([new Uint8Array([104, 105, 0, 255])], 'notes.txt', { type: 'text/plain' });
    const encoded = await encodeBody({ filename: 'notes.txt', meta: { tags: ['a', 'b'] }, file }, 'multipart');
    const params = await decodeParams(...req('POST', `${BASE}?x=1`, encoded.body, encoded.contentType));
    expect(params).toEqual({
      x: '1',
      filename: 'notes.txt',
      meta: { tags: ['a', 'b'] },
      file: { kind: 'file', filename: 'notes.txt', contentType: 'text/plain', data: new Uint8Array([104, 105, 0, 255]) },
    });
    expect(isFile(params.file)).toBe(true);
  });

  it('gives a file part with no type the octet-stream type', async () => {
    const encoded = await encodeBody({ file: new File(['x'], 'a.bin') }, 'multipart');
    const params = await decodeParams(...req('POST', BASE, encoded.body, encoded.contentType));
    expect(params.file).toMatchObject({ kind: 'file', filename: 'a.bin', contentType: 'application/octet-stream' });
  });

  it('rejects an unreadable multipart body with a DecodeError', async () => {
    await expect(decodeParams(...req('POST', BASE, 'not multipart', 'multipart/form-data; boundary=zzz'))).rejects.toThrow(DecodeError);
  });
});

describe('headerOf', () => {
  it('finds a header whatever its case', () => {
    const [r] = req('POST', BASE, '', 'application/json');
    expect(headerOf(r, 'content-type')).toBe('application/json');
    expect(headerOf(r, 'CONTENT-TYPE')).toBe('application/json');
    expect(headerOf(r, 'authorization')).toBeUndefined();
  });
});

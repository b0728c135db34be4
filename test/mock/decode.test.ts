import { describe, expect, it } from 'vitest';
import { encodeBody } from '../../src/client/encode.js';
import {
  DecodeError,
  decodeParams,
  headerOf,
  isFile,
  isPlainObject,
  type ParamsObject,
} from '../../src/mock/decode.js';
import { bool, int, list, obj, str } from '../../src/mock/kit.js';
import type { ApiRequest, HttpMethod } from '../../src/transport/types.js';

const BASE = 'http://lms.mock/api/v1/things';

function req(method: HttpMethod, url: string, body?: string | Uint8Array, contentType?: string): [ApiRequest, URL] {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return [{ method, url, headers, body }, new URL(url)];
}

const form = (method: HttpMethod, body: string, query = '') =>
  req(method, BASE + query, body, 'application/x-www-form-urlencoded');

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
      'rubric[ratings][][description]=x&rubric[ratings][][points]=1&rubric[ratings][][description]=y&' +
        'rubric[ratings][][points]=0',
      {
        rubric: {
          ratings: [
            { description: 'x', points: '1' },
            { description: 'y', points: '0' },
          ],
        },
      },
    ],
    ['an empty value', 'due_at=', { due_at: '' }],
    ['the last of a repeated plain name', 'a=1&a=2', { a: '2' }],
    ['encoded brackets', 'user%5Bname%5D=Jo+Doe', { user: { name: 'Jo Doe' } }],
  ])('reads %s', async (_what, body, expected) => {
    expect(await decodeParams(...form('POST', body))).toEqual(expected);
  });

  it('reads the same rules from the query string', async () => {
    const [r, url] = req('GET', `${BASE}?include[]=email&include[]=avatar_url&search_term=jo&user[id]=3`);
    expect(await decodeParams(r, url)).toEqual({
      include: ['email', 'avatar_url'],
      search_term: 'jo',
      user: { id: '3' },
    });
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
    expect(await decodeParams(...req('POST', `${BASE}?as_user_id=5`, body, 'application/json; charset=utf-8'))).toEqual(
      {
        as_user_id: '5',
        user: { name: 'Jo', admin: true },
        ids: [1, 2],
        note: null,
      },
    );
  });

  it('reads a JSON body on DELETE, as bytes', async () => {
    expect(
      await decodeParams(...req('DELETE', BASE, new TextEncoder().encode('{"reason":"x"}'), 'application/json')),
    ).toEqual({ reason: 'x' });
  });

  it.each([
    ['a broken body', '{"a":'],
    ['plain text', 'hello'],
  ])('rejects %s sent as JSON with a DecodeError', async (_what, body) => {
    await expect(decodeParams(...req('POST', BASE, body, 'application/json'))).rejects.toThrow(DecodeError);
    await expect(decodeParams(...req('POST', BASE, body, 'application/json'))).rejects.toThrow(
      'the request body is not valid JSON',
    );
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
      file: {
        kind: 'file',
        filename: 'notes.txt',
        contentType: 'text/plain',
        data: new Uint8Array([104, 105, 0, 255]),
      },
    });
    expect(isFile(params.file)).toBe(true);
  });

  it('gives a file part with no type the octet-stream type', async () => {
    const encoded = await encodeBody({ file: new File(['x'], 'a.bin') }, 'multipart');
    const params = await decodeParams(...req('POST', BASE, encoded.body, encoded.contentType));
    expect(params.file).toMatchObject({ kind: 'file', filename: 'a.bin', contentType: 'application/octet-stream' });
  });

  it('rejects an unreadable multipart body with a DecodeError', async () => {
    await expect(
      decodeParams(...req('POST', BASE, 'not multipart', 'multipart/form-data; boundary=zzz')),
    ).rejects.toThrow(DecodeError);
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

describe('decodeParams: hostile input', () => {
  const json = (body: unknown, query = '') =>
    req('POST', BASE + query, typeof body === 'string' ? body : JSON.stringify(body), 'application/json');
  async function multipart(fields: [string, string][]): Promise<[ApiRequest, URL]> {
    const fd = new FormData();
    for (const [k, v] of fields) fd.append(k, v);
    const r = new Request(BASE, { method: 'POST', body: fd });
    return req('POST', BASE, new Uint8Array(await r.arrayBuffer()), r.headers.get('content-type')!);
  }

  const pollution: [string, () => Promise<[ApiRequest, URL]> | [ApiRequest, URL]][] = [
    [
      'a query string',
      () => req('GET', `${BASE}?__proto__[as_user_id]=1&constructor[prototype][as_user_id]=1&__proto__=x`),
    ],
    [
      'a form body',
      () =>
        form(
          'POST',
          '__proto__[as_user_id]=1&constructor[prototype][as_user_id]=1&a[__proto__][polluted]=1&' +
            'b[][__proto__][polluted]=1',
        ),
    ],
    ['an encoded form body', () => form('POST', '%5F%5Fproto%5F%5F%5Bas_user_id%5D=1')],
    [
      'a JSON body',
      () =>
        json(
          '{"__proto__":{"as_user_id":"1"},"user":{"__proto__":{"polluted":1}},' +
            '"constructor":{"prototype":{"as_user_id":"1"}}}',
        ),
    ],
    [
      'a multipart body',
      () =>
        multipart([
          ['__proto__[as_user_id]', '1'],
          ['constructor[prototype][as_user_id]', '1'],
        ]),
    ],
  ];

  it.each(pollution)('keeps __proto__, constructor and prototype as plain keys in %s', async (_where, make) => {
    const params = await decodeParams(...(await make()));
    expect(({} as Record<string, unknown>).as_user_id).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(params)).toBeNull();
    expect(params.as_user_id).toBeUndefined();
    expect(Object.keys(params).some((k) => k === '__proto__' || k === 'constructor')).toBe(true);
    for (const v of Object.values(params))
      if (typeof v === 'object' && v && !Array.isArray(v)) expect(Object.getPrototypeOf(v)).toBeNull();
    expect(str(params, 'as_user_id')).toBeUndefined();
  });

  it('gives the readers of kit.ts what they expect from null-prototype objects', async () => {
    const params = await decodeParams(...form('POST', 'user[name]=Jo&user[admin]=true&ids[]=1&ids[]=2&n=3'));
    expect(isPlainObject(params.user)).toBe(true);
    expect(str(obj(params, 'user'), 'name')).toBe('Jo');
    expect(bool(obj(params, 'user'), 'admin')).toBe(true);
    expect(list(params, 'ids')).toEqual(['1', '2']);
    expect(int(params, 'n')).toBe(3);
    expect(str(params, 'toString')).toBeUndefined();
    expect(obj(params, 'hasOwnProperty')).toEqual({});
  });

  const deep = (n: number) => `a${'[b]'.repeat(n - 1)}=1`;
  it.each<[string, () => [ApiRequest, URL], string]>([
    ['a name 101 levels deep', () => form('POST', deep(101)), 'the parameter a[b][b][b]'],
    ['a name 5,000 levels deep', () => form('POST', deep(5000)), 'nested more than 100 levels deep'],
    ['a list of lists 5,000 deep', () => form('POST', `${'[][x]'.repeat(5000)}=1`), 'nested more than 100 levels deep'],
    ['a query 300 levels deep', () => req('GET', `${BASE}?${deep(300)}`), 'nested more than 100 levels deep'],
    [
      'JSON 101 levels deep',
      () => json(`${'{"a":'.repeat(101)}1${'}'.repeat(101)}`),
      'the JSON body is nested more than 100 levels deep at a[a][a]',
    ],
    [
      'JSON 100,000 arrays deep',
      () => json(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
      'the JSON body is nested more than 100 levels deep',
    ],
    [
      '10,001 parameters',
      () => form('POST', Array.from({ length: 10_001 }, (_, i) => `p${i}=1`).join('&')),
      'too many parameters (more than 10000)',
    ],
    [
      '10,001 JSON values',
      () => json({ ids: Array.from({ length: 10_001 }, (_, i) => i) }),
      'too many parameters (more than 10000)',
    ],
    [
      'a value over 512 KiB',
      () => form('POST', `user[name]=${'x'.repeat(512 * 1024 + 1)}`),
      'the parameter user[name] is longer than 524288 bytes',
    ],
    [
      'a JSON string over 512 KiB',
      () => json({ user: { bio: 'é'.repeat(300 * 1024) } }),
      'the parameter user[bio] is longer than 524288 bytes',
    ],
    ['a name over 1 KiB', () => form('POST', `${'n'.repeat(1025)}=1`), 'is longer than 1024 bytes'],
    [
      'a bad percent escape in the body',
      () => form('POST', 'name=50%'),
      'the request body has a malformed percent-encoding',
    ],
    [
      'a bad percent escape in a name',
      () => form('POST', 'na%zzme=1'),
      'the request body has a malformed percent-encoding',
    ],
    [
      'a bad percent escape in the query',
      () => req('GET', `${BASE}?q=%E0%A4%A`),
      'the query string has a malformed percent-encoding',
    ],
    ['escapes that are not UTF-8', () => form('POST', 'name=%ff%fe'), 'percent-escapes that are not UTF-8'],
  ])('refuses %s with a DecodeError', async (_what, make, message) => {
    const error = await decodeParams(...make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message.length).toBeLessThan(200);
  });

  it('accepts 100 levels, 10,000 parameters and a 512 KiB value', async () => {
    expect(await decodeParams(...form('POST', deep(100)))).toHaveProperty('a.b.b');
    expect(
      Object.keys(await decodeParams(...form('POST', Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join('&')))),
    ).toHaveLength(10_000);
    expect(((await decodeParams(...form('POST', `v=${'x'.repeat(512 * 1024)}`))).v as string).length).toBe(512 * 1024);
    expect(await decodeParams(...form('POST', 'q=caf%C3%A9+au+lait&r=100%25'))).toEqual({
      q: 'café au lait',
      r: '100%',
    });
  });

  it('counts multipart parts before parsing them', async () => {
    const part = (i: number) => `--b0\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n1\r\n`;
    const many = (n: number) => `${Array.from({ length: n }, (_, i) => part(i)).join('')}--b0--\r\n`;
    await expect(decodeParams(...req('POST', BASE, many(10_001), 'multipart/form-data; boundary=b0'))).rejects.toThrow(
      'too many parameters (more than 10000)',
    );
    expect(
      Object.keys(await decodeParams(...req('POST', BASE, many(10_000), 'multipart/form-data; boundary="b0"'))),
    ).toHaveLength(10_000);
  });

  it('reads a multipart body whose boundary is in upper case, whatever the case of the media type', async () => {
    const boundary = 'XyZ-Boundary-0042';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="user[name]"\r\n\r\nJo\r\n--${boundary}--\r\n`;
    for (const type of [`multipart/form-data; boundary=${boundary}`, `Multipart/Form-Data; boundary="${boundary}"`]) {
      expect(await decodeParams(...req('POST', BASE, body, type))).toEqual({ user: { name: 'Jo' } });
    }
  });

  it('reads the media type only: a form body whose parameters mention JSON is still a form', async () => {
    expect(
      await decodeParams(...req('POST', BASE, 'a=1', 'application/x-www-form-urlencoded; note=application/json')),
    ).toEqual({ a: '1' });
    expect(await decodeParams(...req('POST', BASE, '{"a":1}', 'Application/JSON'))).toEqual({ a: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { encodeBody, flattenParams, hasFile, toQueryString, type Params } from '../../src/client/encode.js';
import { encodePathSegment } from '../../src/spec/routes.js';

describe('flattenParams', () => {
  it.each<[string, Params, [string, string][]]>([
    ['a flat value', { name: 'Jo' }, [['name', 'Jo']]],
    [
      'a nested object',
      { user: { name: 'Jo', short_name: 'J' } },
      [
        ['user[name]', 'Jo'],
        ['user[short_name]', 'J'],
      ],
    ],
    ['two levels of nesting', { a: { b: { c: 1 } } }, [['a[b][c]', '1']]],
    [
      'an array',
      { ids: [1, 2] },
      [
        ['ids[]', '1'],
        ['ids[]', '2'],
      ],
    ],
    [
      'a nested array',
      { user: { roles: ['a', 'b'] } },
      [
        ['user[roles][]', 'a'],
        ['user[roles][]', 'b'],
      ],
    ],
    [
      'an array of objects',
      {
        ratings: [
          { description: 'x', points: 1 },
          { description: 'y', points: 0 },
        ],
      },
      [
        ['ratings[][description]', 'x'],
        ['ratings[][points]', '1'],
        ['ratings[][description]', 'y'],
        ['ratings[][points]', '0'],
      ],
    ],
    ['null as an empty value', { due_at: null }, [['due_at', '']]],
    ['undefined dropped', { a: undefined, b: '1', c: { d: undefined } }, [['b', '1']]],
    [
      'undefined dropped inside an array',
      { ids: [1, undefined, 3] },
      [
        ['ids[]', '1'],
        ['ids[]', '3'],
      ],
    ],
    [
      'booleans as text',
      { published: true, muted: false },
      [
        ['published', 'true'],
        ['muted', 'false'],
      ],
    ],
    [
      'numbers as text',
      { points: 12.5, n: 0 },
      [
        ['points', '12.5'],
        ['n', '0'],
      ],
    ],
    ['an empty array as nothing', { ids: [] }, []],
  ])('flattens %s', (_what, params, pairs) => {
    expect(flattenParams(params)).toEqual(pairs);
  });

  it('keeps a Blob as the value of its bracket name', () => {
    const blob = new Blob(['hi']);
    const pairs = flattenParams({ attachment: { file: blob } });
    expect(pairs).toHaveLength(1);
    expect(pairs[0][0]).toBe('attachment[file]');
    expect(pairs[0][1]).toBe(blob);
    expect(hasFile({ attachment: { file: blob } })).toBe(true);
    expect(hasFile({ attachment: { name: 'x' } })).toBe(false);
  });
});

describe('toQueryString', () => {
  it.each<[string, Params, string]>([
    ['nested names with encoded brackets', { user: { name: 'Jo Doe' } }, 'user%5Bname%5D=Jo+Doe'],
    ['arrays', { ids: [1, 2] }, 'ids%5B%5D=1&ids%5B%5D=2'],
    [
      'arrays of objects',
      { ratings: [{ description: 'x' }, { description: 'y' }] },
      'ratings%5B%5D%5Bdescription%5D=x&ratings%5B%5D%5Bdescription%5D=y',
    ],
    ['null as empty, undefined dropped', { a: null, b: undefined, c: 'z' }, 'a=&c=z'],
    ['booleans', { include_deleted: true }, 'include_deleted=true'],
    ['reserved characters', { search_term: 'a&b=c/d' }, 'search_term=a%26b%3Dc%2Fd'],
    ['nothing', {}, ''],
  ])('encodes %s', (_what, params, expected) => {
    expect(toQueryString(params)).toBe(expected);
    // And it reads back as the same bracket pairs.
    expect([...new URLSearchParams(expected)]).toEqual(flattenParams(params));
  });

  it('refuses a file', () => {
    expect(() => toQueryString({ file: new Blob(['x']) })).toThrow(TypeError);
  });
});

describe('encodeBody', () => {
  const params: Params = { user: { name: 'Jo', admin: false }, ids: [1, 2], note: null, gone: undefined };

  it('encodes JSON as the params themselves', async () => {
    const { body, contentType } = await encodeBody(params, 'json');
    expect(contentType).toBe('application/json');
    expect(JSON.parse(String(body))).toEqual({ user: { name: 'Jo', admin: false }, ids: [1, 2], note: null });
  });

  it('encodes a form as bracket pairs', async () => {
    const { body, contentType } = await encodeBody(params, 'form');
    expect(contentType).toBe('application/x-www-form-urlencoded');
    expect(body).toBe('user%5Bname%5D=Jo&user%5Badmin%5D=false&ids%5B%5D=1&ids%5B%5D=2&note=');
  });

  it('encodes multipart that decodes back to the same fields and file', async () => {
    const file = new File([new Uint8Array([0, 1, 2, 255])], 'data.bin', { type: 'application/octet-stream' });
    const { body, contentType } = await encodeBody(
      { filename: 'data.bin', meta: { tags: ['a', 'b'] }, file },
      'multipart',
    );
    expect(contentType).toMatch(/^multipart\/form-data; boundary=.+/);
    expect(body).toBeInstanceOf(Uint8Array);
    const form = await new Response(new Uint8Array(body as Uint8Array), {
      headers: { 'content-type': contentType },
    }).formData();
    expect(form.get('filename')).toBe('data.bin');
    expect(form.getAll('meta[tags][]')).toEqual(['a', 'b']);
    const part = form.get('file') as File;
    expect(part.name).toBe('data.bin');
    expect(part.type).toBe('application/octet-stream');
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    expect([...form.keys()]).toEqual(['filename', 'meta[tags][]', 'meta[tags][]', 'file']);
  });
});

describe('encodePathSegment', () => {
  it.each<[string | number, string]>([
    [42, '42'],
    ['self', 'self'],
    ['sis_course_id:CS/101', 'sis_course_id:CS%2F101'],
    ['sis_user_id:a b?c#d', 'sis_user_id:a%20b%3Fc%23d'],
    ['sis_login_id:jo@example.edu', 'sis_login_id:jo%40example.edu'],
    ['../admin', '..%2Fadmin'],
  ])('encodes %s as %s', (value, expected) => {
    expect(encodePathSegment(value)).toBe(expected);
  });
});

// Request encoding exactly as a Rails-style API expects it: bracket form fields (`user[name]`,
// `ids[]`, `ratings[][points]`), JSON where asked, multipart when a file is present.

type ParamValue = string | number | boolean | null | undefined | Blob | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;
export type Encoding = 'form' | 'json' | 'multipart';

/** Flattens nested params into bracket-named pairs, in insertion order. Undefined values are dropped. */
export function flattenParams(params: Params, prefix = ''): [string, string | Blob][] {
  const pairs: [string, string | Blob][] = [];
  for (const [key, value] of Object.entries(params)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    pushValue(pairs, name, value);
  }
  return pairs;
}

function pushValue(pairs: [string, string | Blob][], name: string, value: ParamValue): void {
  if (value === undefined) return;
  if (value === null) pairs.push([name, '']);
  else if (value instanceof Blob) pairs.push([name, value]);
  else if (Array.isArray(value)) for (const item of value) pushValue(pairs, `${name}[]`, item);
  else if (typeof value === 'object') pairs.push(...flattenParams(value, name));
  else pairs.push([name, String(value)]);
}

export function hasFile(params: Params): boolean {
  return flattenParams(params).some(([, v]) => v instanceof Blob);
}

export function toQueryString(params: Params): string {
  const search = new URLSearchParams();
  for (const [k, v] of flattenParams(params)) {
    if (v instanceof Blob) throw new TypeError(`a file cannot go in a query string (${k})`);
    search.append(k, v);
  }
  return search.toString();
}

export interface EncodedBody {
  body: string | Uint8Array;
  contentType: string;
}

export async function encodeBody(params: Params, encoding: Encoding): Promise<EncodedBody> {
  if (encoding === 'json') return { body: JSON.stringify(params), contentType: 'application/json' };
  if (encoding === 'form') return { body: toQueryString(params), contentType: 'application/x-www-form-urlencoded' };
  const form = new FormData();
  for (const [k, v] of flattenParams(params)) {
    if (v instanceof File) form.append(k, v, v.name);
    else form.append(k, v);
  }
  // Let the platform write the boundary and the parts.
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

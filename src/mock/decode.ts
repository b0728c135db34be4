// Decodes a request the way a Rails server does: query string and body (form, JSON or multipart)
// merged into one nested params object, bracket names expanded (`user[name]`, `ids[]`, `ratings[][points]`).
import { bodyText, type ApiRequest } from '../transport/types.js';

export type Value = string | UploadedFile | Value[] | { [key: string]: Value } | number | boolean | null;
export type ParamsObject = { [key: string]: Value };

export interface UploadedFile {
  kind: 'file';
  filename: string;
  contentType: string;
  data: Uint8Array;
}

export class DecodeError extends Error {}

export async function decodeParams(req: ApiRequest, url: URL): Promise<ParamsObject> {
  const params: ParamsObject = {};
  for (const [k, v] of url.searchParams) normalize(params, k, v);
  if (req.body === undefined || (typeof req.body !== 'string' && req.body.byteLength === 0) || req.body === '') return params;
  const type = (headerOf(req, 'content-type') ?? '').toLowerCase();
  if (type.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText(req.body));
    } catch {
      throw new DecodeError('the request body is not valid JSON');
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(params, parsed as ParamsObject);
    return params;
  }
  if (type.includes('multipart/form-data')) {
    let form: FormData;
    try {
      const bytes = typeof req.body === 'string' ? req.body : new Uint8Array(req.body);
      form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new DecodeError('the multipart body could not be read');
    }
    for (const [k, v] of form) {
      if (typeof v === 'string') normalize(params, k, v);
      else normalize(params, k, { kind: 'file', filename: v.name, contentType: v.type || 'application/octet-stream', data: new Uint8Array(await v.arrayBuffer()) });
    }
    return params;
  }
  // Form bodies, and bodies sent with no content type at all, are read as url-encoded.
  for (const [k, v] of new URLSearchParams(bodyText(req.body))) normalize(params, k, v);
  return params;
}

export function headerOf(req: ApiRequest, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Rack's rule for one `name=value` pair: `a[b][]`, `a[][b]` (a new hash starts when a key repeats). */
function normalize(target: ParamsObject, name: string, value: Value): void {
  const m = /^[[\]]*([^[\]]+)\]*/.exec(name);
  if (!m) return;
  const key = m[1];
  const after = name.slice(m[0].length);
  if (after === '') {
    target[key] = value;
  } else if (after === '[]') {
    const list = Array.isArray(target[key]) ? (target[key] as Value[]) : (target[key] = []);
    list.push(value);
  } else if (after.startsWith('[]')) {
    const childKey = after.slice(2);
    const list = Array.isArray(target[key]) ? (target[key] as Value[]) : (target[key] = []);
    const last = list.at(-1);
    const childName = /^\[([^[\]]+)\]/.exec(childKey)?.[1];
    if (isPlainObject(last) && childName !== undefined && !hasNested(last, childKey)) normalize(last, childKey, value);
    else {
      const fresh: ParamsObject = {};
      normalize(fresh, childKey, value);
      list.push(fresh);
    }
  } else {
    const child = isPlainObject(target[key]) ? (target[key] as ParamsObject) : (target[key] = {});
    normalize(child as ParamsObject, after, value);
  }
}

function hasNested(obj: ParamsObject, name: string): boolean {
  const m = /^[[\]]*([^[\]]+)\]*/.exec(name);
  if (!m) return false;
  const key = m[1];
  const after = name.slice(m[0].length);
  if (!(key in obj)) return false;
  if (after === '' || after.startsWith('[]')) return true;
  return isPlainObject(obj[key]) ? hasNested(obj[key] as ParamsObject, after) : true;
}

export function isPlainObject(v: unknown): v is ParamsObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isFile(v);
}

export function isFile(v: unknown): v is UploadedFile {
  return typeof v === 'object' && v !== null && (v as UploadedFile).kind === 'file' && (v as UploadedFile).data instanceof Uint8Array;
}

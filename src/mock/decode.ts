// Decodes a request the way a Rails server does: query string and body (form, JSON or multipart)
// merged into one nested params object, bracket names expanded (`user[name]`, `ids[]`, `ratings[][points]`).
//
// Requests come from anyone who can reach `lms mock serve`, so decoding is defensive: every object
// it builds has a null prototype (`__proto__`, `constructor` and `prototype` are plain keys that can
// never reach Object.prototype), nesting is bounded and walked without recursion, and the number of
// parameters and the length of any one name or value are capped. Control characters (C0, DEL and
// C1, as src/controls.ts defines them) are refused here too, for every route at once: none in
// names, only tabs and line breaks in free text. Every refusal is a DecodeError (400).
import { CONTROL_CHARACTERS, NAME_CONTROL, TEXT_CONTROL } from '../controls.js';
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

export interface DecodeLimits {
  /** Levels of nesting of one name (`a[b][c]` is 3) or of a JSON body, as Rack's param_depth_limit. */
  maxDepth: number;
  /** Name/value pairs in the query and body together (values, for JSON). */
  maxParams: number;
  /** Bytes of one parameter name. */
  maxNameBytes: number;
  /** Bytes of one value (a text field; file parts are bounded by the body size). */
  maxValueBytes: number;
}

export const DECODE_LIMITS: Readonly<DecodeLimits> = {
  maxDepth: 100,
  maxParams: 10_000,
  maxNameBytes: 1024,
  maxValueBytes: 512 * 1024,
};

/** A parameters object: no prototype, so no key can reach Object.prototype. */
function emptyParams(): ParamsObject {
  return Object.create(null) as ParamsObject;
}

export async function decodeParams(
  req: ApiRequest,
  url: URL,
  limits: DecodeLimits = DECODE_LIMITS,
): Promise<ParamsObject> {
  const params = await decodeAll(req, url, limits);
  refuseControlCharacters(params);
  return params;
}

async function decodeAll(req: ApiRequest, url: URL, limits: DecodeLimits): Promise<ParamsObject> {
  const params = emptyParams();
  const counter = { n: 0 };
  for (const [k, v] of formPairs(url.search.slice(1), 'query string')) add(params, k, v, limits, counter);
  if (req.body === undefined || (typeof req.body !== 'string' && req.body.byteLength === 0) || req.body === '')
    return params;
  const contentType = headerOf(req, 'content-type') ?? '';
  // Only the media type is case-insensitive; parameters (the multipart boundary) are kept as sent.
  const media = contentType.split(';')[0].trim().toLowerCase();
  if (media === 'application/json' || /^application\/[\w.+-]+\+json$/.test(media)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText(req.body));
    } catch {
      throw new DecodeError('the request body is not valid JSON');
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const copy = copyJson(parsed as Record<string, unknown>, limits, counter);
      for (const key of Object.keys(copy)) params[key] = copy[key];
    }
    return params;
  }
  if (media === 'multipart/form-data') {
    // Counted before parsing: a large upload body of tiny parts would otherwise cost far more than its size.
    const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
    const delimiter = boundary ? Buffer.from(`--${boundary[1] ?? boundary[2]}`) : undefined;
    const raw =
      typeof req.body === 'string'
        ? Buffer.from(req.body)
        : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
    if (delimiter && occurrences(raw, delimiter, limits.maxParams + 2) > limits.maxParams + 1) {
      throw new DecodeError(`too many parameters (more than ${limits.maxParams})`);
    }
    let form: FormData;
    try {
      const bytes = typeof req.body === 'string' ? req.body : new Uint8Array(req.body);
      form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new DecodeError('the multipart body could not be read');
    }
    for (const [k, v] of form) {
      if (typeof v === 'string') add(params, k, v, limits, counter);
      else
        add(
          params,
          k,
          {
            kind: 'file',
            filename: v.name,
            contentType: v.type || 'application/octet-stream',
            data: new Uint8Array(await v.arrayBuffer()),
          },
          limits,
          counter,
        );
    }
    return params;
  }
  // Form bodies, and bodies sent with no content type at all, are read as url-encoded.
  for (const [k, v] of formPairs(bodyText(req.body), 'request body')) add(params, k, v, limits, counter);
  return params;
}

/** How many times `needle` occurs in `haystack`, counting no further than `max`. */
function occurrences(haystack: Buffer, needle: Buffer, max: number): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1 && n < max; at = haystack.indexOf(needle, at + needle.byteLength))
    n++;
  return n;
}

export function headerOf(req: ApiRequest, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** A name as it may appear in a message: short, printable. */
function describeName(name: string): string {
  const clean = name.replace(CONTROL_CHARACTERS, '?');
  return clean.length > 60 ? `${clean.slice(0, 60)}…` : clean;
}

/**
 * Parameters that name something (people, courses, sections, groups, topics, quizzes, outcomes)
 * or identify it (logins, SIS and integration ids), wherever they are nested: a name is one line of
 * text, so no control character at all.
 */
const NAME_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'short_name',
  'sortable_name',
  'title',
  'display_name',
  'course_code',
  'unique_id',
  'login_id',
  'sis_user_id',
  'sis_login_id',
  'sis_course_id',
  'sis_section_id',
  'integration_id',
  'vendor_guid',
]);

/** An upload's file name (the top-level `name` of every upload's first step), which the files area cleans instead. */
const UPLOAD_NAME = 'name';

/**
 * Every decoded value passes here, so that no handler can store a NUL byte or a terminal escape
 * in a name, whichever route it serves: 400 naming the parameter as it was sent.
 */
function refuseControlCharacters(params: ParamsObject): void {
  const stack: { value: Value; name: string; key: string }[] = Object.keys(params).map((k) => ({
    value: params[k],
    name: k,
    key: k,
  }));
  while (stack.length) {
    const { value, name, key } = stack.pop()!;
    if (typeof value === 'string') {
      if (name === UPLOAD_NAME) continue;
      if ((NAME_FIELDS.has(key) ? NAME_CONTROL : TEXT_CONTROL).test(value))
        throw new DecodeError(`${describeName(name)} must not contain control characters`);
    } else if (Array.isArray(value)) {
      for (const v of value) stack.push({ value: v, name: `${name}[]`, key });
    } else if (isPlainObject(value)) {
      for (const k of Object.keys(value)) stack.push({ value: value[k], name: `${name}[${k}]`, key: k });
    }
  }
}

/** `a=1&b[]=2` → pairs, `+` as space, percent escapes decoded strictly (Rack answers 400 to bad ones). */
function* formPairs(text: string, where: string): Generator<[string, string]> {
  if (text === '') return;
  for (const raw of text.split('&')) {
    if (raw === '') continue;
    const eq = raw.indexOf('=');
    const name = unescapeForm(eq === -1 ? raw : raw.slice(0, eq), where);
    yield [name, eq === -1 ? '' : unescapeForm(raw.slice(eq + 1), where)];
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function unescapeForm(s: string, where: string): string {
  const plus = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!plus.includes('%')) return plus;
  if (/%(?![0-9a-fA-F]{2})/.test(plus)) throw new DecodeError(`the ${where} has a malformed percent-encoding`);
  try {
    return decodeURIComponent(plus);
  } catch {
    // Escapes that are not UTF-8 (`%ff`): Rails refuses these too.
    try {
      return utf8.decode(
        Buffer.from(
          plus.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ),
      );
    } catch {
      throw new DecodeError(`the ${where} has percent-escapes that are not UTF-8`);
    }
  }
}

/** `key` is what the name limit applies to: the whole name of a form field, one key of a JSON object. */
function checkSizes(name: string, value: Value, limits: DecodeLimits, counter: { n: number }, key = name): void {
  if (++counter.n > limits.maxParams) throw new DecodeError(`too many parameters (more than ${limits.maxParams})`);
  // Depth first: a name too deep to walk is also long, and depth is what is wrong with it.
  if (key === name && bracketCount(name) >= limits.maxDepth)
    throw new DecodeError(`the parameter ${describeName(name)} is nested more than ${limits.maxDepth} levels deep`);
  if (Buffer.byteLength(key) > limits.maxNameBytes)
    throw new DecodeError(`the parameter name ${describeName(name)} is longer than ${limits.maxNameBytes} bytes`);
  if (typeof value === 'string' && Buffer.byteLength(value) > limits.maxValueBytes) {
    throw new DecodeError(`the parameter ${describeName(name)} is longer than ${limits.maxValueBytes} bytes`);
  }
}

function bracketCount(name: string): number {
  let n = 0;
  for (let i = name.indexOf('['); i !== -1; i = name.indexOf('[', i + 1)) n++;
  return n;
}

const KEY_AT_START = /^[[\]]*([^[\]]+)\]*/;

/**
 * Rack's rule for one `name=value` pair: `a[b][]`, `a[][b]` (a new hash starts when a key repeats).
 * Walks the name a level at a time, so the depth of a name costs no stack.
 */
function add(root: ParamsObject, name: string, value: Value, limits: DecodeLimits, counter: { n: number }): void {
  checkSizes(name, value, limits, counter);
  let target = root;
  let rest = name;
  for (let depth = 1; ; depth++) {
    if (depth > limits.maxDepth)
      throw new DecodeError(`the parameter ${describeName(name)} is nested more than ${limits.maxDepth} levels deep`);
    const m = KEY_AT_START.exec(rest);
    if (!m) return;
    const key = m[1];
    const after = rest.slice(m[0].length);
    if (after === '') {
      target[key] = value;
      return;
    }
    if (after === '[]') {
      listAt(target, key).push(value);
      return;
    }
    if (after.startsWith('[]')) {
      const childKey = after.slice(2);
      const list = listAt(target, key);
      const last = list.at(-1);
      const childName = /^\[([^[\]]+)\]/.exec(childKey)?.[1];
      if (isPlainObject(last) && childName !== undefined && !hasNested(last, childKey)) {
        target = last;
      } else {
        const fresh = emptyParams();
        list.push(fresh);
        target = fresh;
      }
      rest = childKey;
      continue;
    }
    const existing = target[key];
    if (!isPlainObject(existing)) target[key] = emptyParams();
    const child = target[key];
    target = child as ParamsObject;
    rest = after;
  }
}

function listAt(target: ParamsObject, key: string): Value[] {
  const existing = target[key];
  if (Array.isArray(existing)) return existing;
  const list: Value[] = [];
  target[key] = list;
  return list;
}

/** Whether `name` (`[a][b]…`) is already set in obj, so a repeated key starts a new hash in a list. */
function hasNested(obj: ParamsObject, name: string): boolean {
  let current: ParamsObject = obj;
  let rest = name;
  for (;;) {
    const m = KEY_AT_START.exec(rest);
    if (!m) return false;
    const key = m[1];
    const after = rest.slice(m[0].length);
    if (!Object.hasOwn(current, key)) return false;
    if (after === '' || after.startsWith('[]')) return true;
    const next = current[key];
    if (!isPlainObject(next)) return true;
    current = next;
    rest = after;
  }
}

/**
 * A parsed JSON body copied into null-prototype objects (JSON.parse makes `__proto__` an own key,
 * which Object.assign would turn into a prototype), checking depth, count and string lengths.
 * Iterative: a deep body cannot exhaust the stack.
 */
function copyJson(parsed: Record<string, unknown>, limits: DecodeLimits, counter: { n: number }): ParamsObject {
  const root = emptyParams();
  const stack: { from: unknown; into: ParamsObject | Value[]; name: string; depth: number }[] = [
    { from: parsed, into: root, name: '', depth: 1 },
  ];
  while (stack.length) {
    const { from, into, name, depth } = stack.pop()!;
    if (depth > limits.maxDepth)
      throw new DecodeError(
        `the JSON body is nested more than ${limits.maxDepth} levels deep${name ? ` at ${describeName(name)}` : ''}`,
      );
    const entries: [string, unknown][] = Array.isArray(from)
      ? from.map((v, i) => [String(i), v])
      : Object.entries(from as object);
    for (const [key, v] of entries) {
      const childName = name === '' ? key : Array.isArray(from) ? `${name}[]` : `${name}[${key}]`;
      let value: Value;
      if (v !== null && typeof v === 'object') {
        value = Array.isArray(v) ? [] : emptyParams();
        stack.push({ from: v, into: value, name: childName, depth: depth + 1 });
      } else {
        value = v as string | number | boolean | null;
      }
      checkSizes(childName, value, limits, counter, key);
      if (Array.isArray(into)) into.push(value);
      else into[key] = value;
    }
  }
  return root;
}

export function isPlainObject(v: unknown): v is ParamsObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isFile(v);
}

export function isFile(v: unknown): v is UploadedFile {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as UploadedFile).kind === 'file' &&
    (v as UploadedFile).data instanceof Uint8Array
  );
}

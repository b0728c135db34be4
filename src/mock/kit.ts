// What every mock area works with: the request context, replies and errors in the real API's
// shapes, paging with absolute Link URLs, parameter readers and id resolution (SIS forms, `self`).
import type { Route } from '../spec/routes.js';
import type { ApiRequest } from '../transport/types.js';
import { isSecretParam } from '../redact.js';
import type { Db } from './db/open.js';
import type { JobRunner } from './jobs.js';
import { stmt } from './db/statements.js';
import { headerOf, isFile, isPlainObject, type ParamsObject, type UploadedFile, type Value } from './decode.js';

export interface UserRow {
  id: number;
  name: string;
  short_name: string;
  sortable_name: string;
  time_zone: string | null;
  locale: string | null;
  birthdate: string | null;
  avatar_url: string | null;
  public_profile: number;
  manual_mark_as_read: number;
  pronouns: string | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export interface MockCtx {
  db: Db;
  route: Route;
  req: ApiRequest;
  url: URL;
  /** Scheme and host the request came to; every URL in a reply is built from it. */
  origin: string;
  /** Raw path ids, percent-decoded. */
  path: Record<string, string>;
  /** Query and body merged, brackets expanded. */
  params: ParamsObject;
  /** The user the request acts as (after `as_user_id`). */
  caller: UserRow;
  /** The token's owner. */
  realCaller: UserRow;
  /** ISO timestamp of "now" (fixed by LMS_MOCK_NOW). */
  now(): string;
  /** Background jobs of this process (they report through a Progress). */
  jobs: JobRunner;
  /**
   * The context a route with context variants (`{tctx}`, `{octx}`, `{sctx}`) was called in, found
   * by the pipeline before the handler runs (a missing one is already a 404). Absent on other routes.
   */
  context?: ResolvedContext;
  /**
   * How long the full topic view's cached structure takes to rebuild after a write, measured on the
   * wall clock (the API clock may be fixed). Absent or 0: at once.
   */
  viewRebuild?: { delayMs: number; wallClock(): number };
}

/** A context as the pipeline resolved it: its type, its id and its record (none for `global`). */
export type ResolvedContext =
  | { type: 'global'; id: null; record: null }
  | { type: 'account'; id: number; record: { id: number; root_account_id: number | null } }
  | { type: 'course'; id: number; record: { id: number; account_id: number; root_account_id: number } }
  | { type: 'group'; id: number; record: { id: number; course_id: number } }
  | { type: 'section'; id: number; record: { id: number; course_id: number } }
  | { type: 'collection_item'; id: number; record: { id: number; user_id: number } };

/** Anything that is not a plain JSON 200. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export const noContent = () => new Reply(204, undefined);
export const created = (body: unknown) => new Reply(201, body);

/** An error reply in the real API's shapes. Thrown; the handler turns it into a response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

export const notFound = (message = 'The specified resource does not exist.') =>
  new HttpError(404, { errors: [{ message }] });
export const unauthorized = () =>
  new HttpError(401, { status: 'unauthorized', errors: [{ message: 'user not authorized to perform that action' }] });
/** No credential at all. */
export const unauthenticated = () =>
  new HttpError(401, { status: 'unauthenticated', errors: [{ message: 'user authorization required' }] });
/**
 * A token unknown, expired, replaced or revoked: one answer for all, as real instances give for a token they cannot
 * use.
 */
export const invalidToken = () =>
  new HttpError(
    401,
    { errors: [{ message: 'Invalid access token.' }] },
    { 'www-authenticate': 'Bearer realm="canvas-lms"' },
  );
export const badRequest = (message: string) => new HttpError(400, { errors: [{ message }] });
/** The bare `{"message": …}` 400 that real instances answer from enrollments and sections. */
export const rejected = (message: string) => new HttpError(400, { message });
/** Model validation failures: `{"errors":{"model":{"field":[{"attribute","type","message"}]}}}`. */
export const invalid = (model: string | undefined, field: string, type: string, message: string) => {
  const entry = { [field]: [{ attribute: field, type, message }] };
  return new HttpError(400, { errors: model ? { [model]: entry } : entry });
};

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(req: ApiRequest): string | undefined {
  return (
    headerOf(req, 'authorization')
      ?.match(/^Bearer\s+(.+)$/i)?.[1]
      ?.trim() || undefined
  );
}

// ---- parameters -------------------------------------------------------------------------------

export function str(params: ParamsObject | undefined, name: string): string | undefined {
  const v = params?.[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function obj(params: ParamsObject | undefined, name: string): ParamsObject {
  const v = params?.[name];
  return isPlainObject(v) ? v : {};
}

export function list(params: ParamsObject | undefined, name: string): Value[] {
  const v = params?.[name];
  if (v === undefined || v === null || v === '') return [];
  return Array.isArray(v) ? v : [v];
}

export function file(params: ParamsObject | undefined, name: string): UploadedFile | undefined {
  const v = params?.[name];
  return isFile(v) ? v : undefined;
}

/** Rails' boolean reading: true, 1, "1", "true", "on", "yes". */
export function bool(params: ParamsObject | undefined, name: string): boolean | undefined {
  const v = params?.[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return ['1', 'true', 't', 'on', 'yes', 'y'].includes(v.toLowerCase());
  return undefined;
}

export function int(params: ParamsObject | undefined, name: string): number | undefined {
  const v = params?.[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`${name} must be an integer`);
  return n;
}

export function timestamp(params: ParamsObject | undefined, name: string): string | undefined {
  const v = str(params, name);
  if (v === undefined || v === '') return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw badRequest(`${name} is not a valid timestamp: ${v}`);
  return new Date(t).toISOString();
}

// ---- paging -----------------------------------------------------------------------------------

const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;

/**
 * A list read by its sort key, a page at a time: each page is one indexed range read after the
 * previous page's last row, however deep into the list, and nothing is counted. `sql` is a SELECT
 * without ORDER BY whose output has the key columns by name; `key` is a unique order (its last
 * column an id), all ascending or, with `descending`, all descending; an index should serve it.
 */
export interface KeysetQuery {
  sql: string;
  args: unknown[];
  key: readonly string[];
  descending?: boolean;
}

interface KeysetSource<T> {
  /** Rows after `after` (the key of the previous page's last row), or from the start. */
  after(limit: number, after: unknown[] | undefined): T[];
  /** Rows at an offset: numbered pages (`page=N`), which clients may still build for small lists. */
  at(limit: number, offset: number): T[];
  keyOf(row: T): unknown[];
  /** How many values a key has: a bookmark of another length is not one this list handed out. */
  keyLength: number;
}

export function keysetSource<T>(db: Db, q: KeysetQuery): KeysetSource<T> {
  const order = q.key.map((k) => `${k}${q.descending ? ' DESC' : ''}`).join(', ');
  const fromStart = `SELECT * FROM (${q.sql}) ORDER BY ${order} LIMIT ?`;
  const after =
    `SELECT * FROM (${q.sql}) WHERE (${q.key.join(', ')}) ${q.descending ? '<' : '>'} ` +
    `(${q.key.map(() => '?').join(', ')}) ORDER BY ${order} LIMIT ?`;
  const at = `SELECT * FROM (${q.sql}) ORDER BY ${order} LIMIT ? OFFSET ?`;
  return {
    after: (limit, key) =>
      (key ? stmt(db, after).all(...q.args, ...key, limit) : stmt(db, fromStart).all(...q.args, limit)) as T[],
    at: (limit, offset) => stmt(db, at).all(...q.args, limit, offset) as T[],
    keyOf: (row) => q.key.map((k) => (row as Record<string, unknown>)[k]),
    keyLength: q.key.length,
  };
}

/** `bookmark:<base64url of the key as JSON>`: opaque to clients, who follow links as given. */
function bookmark(key: unknown[]): string {
  return `bookmark:${Buffer.from(JSON.stringify(key)).toString('base64url')}`;
}

/** A key this list could have handed out: as many values as its key has, each null, a string or a safe number. */
function readBookmark(raw: string, keyLength: number): unknown[] {
  try {
    const key = JSON.parse(Buffer.from(raw.slice('bookmark:'.length), 'base64url').toString('utf8')) as unknown;
    const value = (v: unknown) =>
      v === null ||
      (typeof v === 'string' && v.length <= 1024) ||
      (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER);
    if (Array.isArray(key) && key.length === keyLength && key.every(value)) return key;
  } catch {
    // Falls through to the error below.
  }
  throw badRequest(`page: not a bookmark this list handed out (${raw.slice(0, 40)})`);
}

/**
 * One page of a list, with `Link` URLs (absolute, on the request's canonical origin, keeping its
 * query but for paging and credentials). Pages go by bookmark — rel current, next and first, no
 * count, so no last, as real instances do for large lists — and numbered pages (`page=N`) are still
 * answered for clients that build them.
 */
export function paginate<T, R>(
  ctx: MockCtx,
  source: KeysetSource<T>,
  present: (row: T) => R,
  options: { defaultPerPage?: number } = {},
): Reply {
  const perPage = Math.min(
    Math.max(int(ctx.params, 'per_page') ?? options.defaultPerPage ?? DEFAULT_PER_PAGE, 1),
    MAX_PER_PAGE,
  );
  const pageRaw = str(ctx.params, 'page');
  const link = (page: string, rel: string) => {
    const u = new URL(ctx.url.pathname, ctx.origin);
    for (const [k, v] of ctx.url.searchParams)
      if (k !== 'page' && k !== 'per_page' && !isSecretParam(k)) u.searchParams.append(k, v);
    u.searchParams.set('page', page);
    u.searchParams.set('per_page', String(perPage));
    // `page=bookmark:…` as real instances write it (base64url needs no escaping).
    return `<${u.toString().replace('page=bookmark%3A', 'page=bookmark:')}>; rel="${rel}"`;
  };
  if (pageRaw === undefined || pageRaw === 'first' || pageRaw.startsWith('bookmark:')) {
    const rows = source.after(
      perPage + 1,
      pageRaw?.startsWith('bookmark:') ? readBookmark(pageRaw, source.keyLength) : undefined,
    );
    const items = rows.slice(0, perPage);
    const links = [link(pageRaw ?? 'first', 'current')];
    if (rows.length > perPage) links.push(link(bookmark(source.keyOf(items[items.length - 1])), 'next'));
    links.push(link('first', 'first'));
    return new Reply(200, items.map(present), { link: links.join(',') });
  }
  const page = Math.max(int(ctx.params, 'page') ?? 1, 1);
  // Past this no list has rows, and the offset would no longer be an exact integer.
  if ((page - 1) * perPage > Number.MAX_SAFE_INTEGER) throw badRequest(`page: ${page} is past the end of any list`);
  const rows = source.at(perPage + 1, (page - 1) * perPage);
  const links = [link(String(page), 'current')];
  if (rows.length > perPage) links.push(link(String(page + 1), 'next'));
  if (page > 1) links.push(link(String(page - 1), 'prev'));
  links.push(link('1', 'first'));
  return new Reply(200, rows.slice(0, perPage).map(present), { link: links.join(',') });
}

// ---- per request ------------------------------------------------------------------------------

const perRequest = new WeakMap<MockCtx, Map<string, unknown>>();

/** A value computed once per request: the same question a presenter asks for every row of a list. */
export function once<T>(ctx: MockCtx, key: string, compute: () => T): T {
  let memo = perRequest.get(ctx);
  if (!memo) {
    memo = new Map();
    perRequest.set(ctx, memo);
  }
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}

// ---- ids --------------------------------------------------------------------------------------

/** Ids are read one way everywhere: the finder's rule (all digits, at most 18, as real instances read one). */
export { numericId } from './db/find.js';

/** node:crypto on first use: loading it pulls in webcrypto, which most requests never need. */
export function crypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}

export function fileUrl(ctx: MockCtx, id: number, uuid: string): string {
  return `${ctx.origin}/files/${id}/download?verifier=${uuid}`;
}

/** One route's behaviour. Returns a JSON body (200) or a Reply; throws HttpError. Runs inside a transaction. */
export type Handler = (ctx: MockCtx) => unknown;

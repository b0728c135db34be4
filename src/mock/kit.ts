// What every mock area works with: the request context, replies and errors in the real API's
// shapes, paging with absolute Link URLs, parameter readers and id resolution (SIS forms, `self`).
import type { Route } from '../spec/routes.js';
import type { ApiRequest } from '../transport/types.js';
import type { Db } from './db/open.js';
import { isFile, isPlainObject, type ParamsObject, type UploadedFile, type Value } from './decode.js';

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
  /**
   * The context a route with context variants (`{tctx}`, `{octx}`, `{sctx}`) was called in, found
   * by the pipeline before the handler runs (a missing one is already a 404). Absent on other routes.
   */
  context?: ResolvedContext;
}

/** A context as the pipeline resolved it: its type, its id and its record (none for `global`). */
export type ResolvedContext =
  | { type: 'global'; id: null; record: null }
  | { type: 'account'; id: number; record: { id: number; root_account_id: number | null } }
  | { type: 'course'; id: number; record: { id: number; account_id: number; root_account_id: number } }
  | { type: 'group'; id: number; record: { id: number; course_id: number } }
  | { type: 'section'; id: number; record: { id: number; course_id: number } };

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

export const notFound = (message = 'The specified resource does not exist.') => new HttpError(404, { errors: [{ message }] });
export const unauthorized = () =>
  new HttpError(401, { status: 'unauthorized', errors: [{ message: 'user not authorized to perform that action' }] });
export const badRequest = (message: string) => new HttpError(400, { errors: [{ message }] });
/** Model validation failures: `{"errors":{"model":{"field":[{"attribute","type","message"}]}}}`. */
export const invalid = (model: string | undefined, field: string, type: string, message: string) => {
  const entry = { [field]: [{ attribute: field, type, message }] };
  return new HttpError(400, { errors: model ? { [model]: entry } : entry });
};

export function requireThat(condition: unknown): asserts condition {
  if (!condition) throw unauthorized();
}

// ---- parameters -------------------------------------------------------------------------------

export function param(params: ParamsObject, name: string): Value | undefined {
  return params[name];
}

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

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;

export interface PageSource<T> {
  count(): number;
  rows(limit: number, offset: number): T[];
}

/** One page of a list, with `Link` rel=current/next/prev/first/last as absolute URLs. */
export function paginate<T, R>(ctx: MockCtx, source: PageSource<T> | T[], present: (row: T) => R): Reply {
  const src: PageSource<T> = Array.isArray(source) ? { count: () => source.length, rows: (l, o) => source.slice(o, o + l) } : source;
  const perPage = Math.min(Math.max(int(ctx.params, 'per_page') ?? DEFAULT_PER_PAGE, 1), MAX_PER_PAGE);
  const page = Math.max(int(ctx.params, 'page') ?? 1, 1);
  const total = src.count();
  const lastPage = Math.max(Math.ceil(total / perPage), 1);
  const items = src.rows(perPage, (page - 1) * perPage).map(present);
  const link = (p: number, rel: string) => {
    const u = new URL(ctx.url.pathname + ctx.url.search, ctx.origin);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links = [link(page, 'current')];
  if (page < lastPage) links.push(link(page + 1, 'next'));
  if (page > 1) links.push(link(page - 1, 'prev'));
  links.push(link(1, 'first'), link(lastPage, 'last'));
  return new Reply(200, items, { link: links.join(',') });
}

/** A PageSource over one SQL query; `sql` selects rows, the count is derived from it. */
export function sqlSource<T>(db: Db, sql: string, args: unknown[] = []): PageSource<T> {
  return {
    count: () => (db.prepare(`SELECT count(*) AS n FROM (${sql})`).get(...args) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`${sql} LIMIT ? OFFSET ?`).all(...args, limit, offset) as T[],
  };
}

// ---- ids --------------------------------------------------------------------------------------

/** The numeric part of an id, or undefined for SIS forms and other strings. */
export function numericId(raw: string): number | undefined {
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** `sis_course_id:X` (and the spec's `siscourseid:X`) → ['sis_course_id', 'X']. */
export function sisForm(raw: string): [kind: string, value: string] | undefined {
  const m = /^(sis_?\w+?_?id|sis_login_id|sis_user_id):(.+)$/.exec(raw);
  if (!m) return undefined;
  const kind = m[1].includes('_') ? m[1] : m[1].replace(/^sis(\w+?)id$/, 'sis_$1_id');
  return [kind, m[2]];
}

/** node:crypto on first use: loading it pulls in webcrypto, which most requests never need. */
export function crypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}

export function fileUrl(ctx: MockCtx, id: number, uuid: string): string {
  return `${ctx.origin}/files/${id}/download?verifier=${uuid}`;
}

/** One route's behaviour. Returns a JSON body (200) or a Reply; throws HttpError. Runs inside a transaction. */
export type Handler = (ctx: MockCtx) => unknown;

// The mock API as one function, request → response, in a fixed sequence:
// route → authenticate → decode → masquerade → area behaviour (one transaction) → encode → page view.
import { dropSecrets } from '../redact.js';
import { INSTANCE_HEADER, type ApiRequest, type ApiResponse } from '../transport/types.js';
import { createUploadDesk } from './areas/files/desk.js';
import { isoNow } from './clock.js';
import { handlerFor, publicRoutes } from './areas/index.js';
import { activeUser, domainRootAccountId, findUser, resolveContext, tokenUser } from './areas/lookup.js';
import { can } from './areas/permissions.js';
import { metaValue, setMetaValue } from './db/meta.js';
import type { Db } from './db/open.js';
import { DecodeError, decodeParams, headerOf } from './decode.js';
import { isStoredBytes, StoredBytesAnswer, type MockHandler } from './file-bytes.js';
import {
  HttpError,
  Reply,
  bearerToken,
  invalidToken,
  notFound,
  unauthenticated,
  type MockCtx,
  type UserRow,
} from './kit.js';
import { createJobRunner, DEFAULT_JOB_TICK_MS, type JobRunner } from './jobs.js';
import { matchRoute, pathIsWellFormed } from '../spec/match.js';

/** The leaky bucket real instances give each token (about 700), full: what an unthrottled mock reports left. */
const UNTHROTTLED_REMAINING = '700.0';
export interface MockOptions {
  db: Db;
  /** Fixed "now" (ISO), as LMS_MOCK_NOW sets it; the real clock otherwise. */
  now?: string;
  /**
   * Milliseconds the full topic view answers 503 after a write while it is rebuilt (LMS_MOCK_VIEW_DELAY_MS); 0 by
   * default.
   */
  viewRebuildMs?: number;
  /** The wall clock that delay is measured on (tests pass their own). */
  wallClock?: () => number;
  /** The runner of background jobs (one per serving process); a default one when absent. */
  jobs?: JobRunner;
}

export type { MockHandler };

export { INSTANCE_HEADER };

export function createMockHandler(options: MockOptions): MockHandler {
  const { db } = options;
  const now = () => options.now ?? isoNow();
  const jobs = options.jobs ?? createJobRunner(db, { now, tickMs: DEFAULT_JOB_TICK_MS });
  const insertPageView = db.prepare(
    'INSERT INTO page_views (user_id, url, user_agent, http_method, controller, action, context_type, context_id, ' +
      `interaction_seconds, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  );

  // Which instance answered, in which state: a seed or reset makes a new instance, and every
  // DELETE that succeeds (a user deleted, an enrollment ended, a section or an outcome link
  // removed) a new state of it. So a client can tell that what it remembers (a bulk job's journal,
  // which trusts only entries written in the state it sees now) may describe data that is gone, and
  // checks again. Every DELETE counts, marking a topic unread too: one rule, whose only cost is a
  // journal re-checking rows that were still there.
  const instance = () => {
    const id = metaValue(db, 'instance_id') ?? 'unknown';
    const removals = metaValue(db, 'removals');
    return removals ? `${id}.${removals}` : id;
  };
  const countRemoval = () => setMetaValue(db, 'removals', String(Number(metaValue(db, 'removals') ?? 0) + 1));

  const handle = async (req: ApiRequest): Promise<ApiResponse> => {
    // hrtime, not performance.now(): the first touch of `performance` loads Node's perf_hooks.
    const started = process.hrtime.bigint();
    const res = await answer(req);
    res.headers[INSTANCE_HEADER] = instance();
    // What real instances send on every answer: the request's cost (its time, in seconds, as a float)
    // and what is left of the caller's bucket. Unthrottled, the bucket stays full; `mock serve
    // --throttle` puts its own bucket's figures over these.
    res.headers['x-request-cost'] ??= (Number(process.hrtime.bigint() - started) / 1e9).toFixed(6);
    res.headers['x-rate-limit-remaining'] ??= UNTHROTTLED_REMAINING;
    return res;
  };
  return Object.assign(handle, { uploads: createUploadDesk(db, now) });

  async function answer(req: ApiRequest): Promise<ApiResponse> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return json(400, { errors: [{ message: 'malformed request URL' }] });
    }
    if (!pathIsWellFormed(url.pathname))
      return json(400, { errors: [{ message: 'the request path has a malformed percent-encoding' }] });
    try {
      const match = matchRoute(req.method, url.pathname);
      if (!match) throw notFound();
      const handler = await handlerFor(match.route);
      if (!handler) {
        return json(501, {
          errors: [{ message: `${match.route.method} ${match.route.path} is not implemented by the mock yet` }],
        });
      }

      const isPublic = publicRoutes.has(match.route.id);
      const realCaller = isPublic ? undefined : authenticate(db, req, url, now());
      const params = await decodeParams(req, url);
      const ctx: MockCtx = {
        db,
        route: match.route,
        req,
        url,
        origin: url.origin,
        path: match.path,
        params,
        caller: realCaller as UserRow,
        realCaller: realCaller as UserRow,
        now,
        viewRebuild: { delayMs: options.viewRebuildMs ?? 0, wallClock: options.wallClock ?? Date.now },
        jobs,
      };
      // A JSON body may give the id as a number; ignoring it would act as the token's owner instead.
      const asUser = typeof params.as_user_id === 'number' ? String(params.as_user_id) : params.as_user_id;
      if (realCaller && typeof asUser === 'string') ctx.caller = masquerade(ctx, asUser);

      const run = () => {
        // A route with context variants gets its context found once, here; its handler serves them all.
        ctx.context = resolveContext(ctx);
        const result = handler(ctx);
        if (req.method === 'DELETE') countRemoval();
        return result;
      };
      const result = req.method === 'GET' ? db.transaction(run) : db.transaction(run, 'immediate');
      if (realCaller) recordPageView(ctx);
      return result instanceof Reply ? reply(result) : json(200, result);
    } catch (err) {
      if (err instanceof HttpError) return respond(err.status, err.body, err.headers);
      if (err instanceof DecodeError) return json(400, { errors: [{ message: err.message }] });
      throw err;
    }
  }

  function recordPageView(ctx: MockCtx): void {
    const [area, action] = ctx.route.operation.split('.');
    const contextType = ctx.path.course_id
      ? 'Course'
      : ctx.path.account_id
        ? 'Account'
        : ctx.path.group_id
          ? 'Group'
          : 'User';
    const contextRaw = ctx.path.course_id ?? ctx.path.account_id ?? ctx.path.group_id;
    const contextId = contextRaw && /^\d+$/.test(contextRaw) ? Number(contextRaw) : null;
    // A user who just deleted themselves has no one left to record for.
    if (!activeUser(db, ctx.caller.id)) return;
    insertPageView.run(
      ctx.caller.id,
      dropSecrets(ctx.url.toString()),
      headerOf(ctx.req, 'user-agent') ?? null,
      ctx.req.method,
      area,
      action,
      contextType,
      contextId,
      ctx.now(),
    );
  }
}

/**
 * Bearer header (or `access_token` query parameter, as the real API allows). An OAuth access token
 * past its hour is refused like an unknown one, as real instances refuse it: they look up only
 * tokens still usable, so an expired one is not found, and the answer names no reason.
 */
function authenticate(db: Db, req: ApiRequest, url: URL, now: string): UserRow {
  const token = bearerToken(req) ?? url.searchParams.get('access_token') ?? undefined;
  if (!token) throw unauthenticated();
  const user = tokenUser(db, token, now);
  if (!user) throw invalidToken();
  return user;
}

/** `as_user_id`: only callers who may become users in the root account can act as someone else. */
/**
 * as_user_id, as real instances take it: acting as yourself is always allowed; acting as anyone
 * else needs become_user on the root account. A user who does not exist and one the caller may not
 * become get the same answer, so the refusal tells nobody which users exist.
 */
function masquerade(ctx: MockCtx, raw: string): UserRow {
  const invalid = () => new HttpError(401, { errors: 'Invalid as_user_id' });
  let target: UserRow;
  try {
    target = findUser(ctx, raw);
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) throw invalid();
    throw e;
  }
  if (target.id === ctx.realCaller.id) return target;
  if (!can(ctx.db, ctx.realCaller.id, 'become_user', { account: { id: domainRootAccountId(ctx.db) } })) throw invalid();
  return target;
}

function reply(r: Reply): ApiResponse {
  return respond(r.status, r.body, r.headers);
}

function respond(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  if (body === undefined) return { status, headers: { ...headers }, body: '' };
  if (body instanceof Uint8Array)
    return { status, headers: { 'content-type': 'application/octet-stream', ...headers }, body };
  if (isStoredBytes(body))
    return new StoredBytesAnswer(status, { 'content-type': 'application/octet-stream', ...headers }, body);
  if (typeof body === 'string' && headers['content-type']) return { status, headers, body };
  return json(status, body, headers);
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return new JsonAnswer(status, { 'content-type': 'application/json; charset=utf-8', ...headers }, value);
}

/**
 * A JSON answer whose text is written only if something reads it (the HTTP server, a trace); in
 * process, the client takes the value. A class, not an object literal with a getter: a literal's
 * getter is a new closure each time, which gives every answer a hidden class of its own, and a
 * 100,000-user listing then grew the heap by tens of megabytes.
 */
class JsonAnswer implements ApiResponse {
  #text: string | undefined;
  constructor(
    public status: number,
    public headers: Record<string, string>,
    public readonly json: unknown,
  ) {}

  get body(): string {
    this.#text ??= JSON.stringify(this.json);
    return this.#text;
  }
}

// The API client: resolves an operation to its route, encodes the request as a real server expects
// it, hands it to the transport, and turns answers into data or typed errors. It never prints.
import { isDeepStrictEqual } from 'node:util';
import { ApiError, ExitCode, FailureError, LmsError, UsageError } from '../errors.js';
import { isLoopbackHost } from '../net.js';
import { originOnly, redactText, redactUrl } from '../redact.js';
import {
  isGiven,
  pathOf,
  route as routeById,
  variantsOf,
  type OperationId,
  type Route,
  type RouteId,
} from '../spec/routes.js';
import type { ApiRequest, ApiResponse, HttpMethod, Transport } from '../transport/types.js';
import { encodeBody, hasFile, toQueryString, type Encoding, type Params } from './encode.js';
import { parseLinkHeader, readBody, readDocumented, toApiError } from './parse.js';
import { bindOperations, type Ops } from './operation.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  transport: Transport;
  /** Masquerade: every request carries `as_user_id`, once the user has been found (one extra request). */
  asUser?: string;
  /** Page size asked for on paginated routes. */
  perPage?: number;
  userAgent?: string;
  /** Called with one line per request and response; the token and one-time URLs never reach it. */
  trace?: (line: string) => void;
  /** Waits between the client's own retries (an operation whose 503 means "not ready yet"); tests pass a fake. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The token over plain http to a host other than this machine, checked on every request that
   * carries it (redirects and next pages included): 'refuse' throws a UsageError before anything is
   * sent; 'warn' sends, with one warning through `warn`. Every real instance gets one of the two
   * (buildClient); unset means no check, for in-process transports such as the mock, where nothing
   * crosses a network.
   */
  plainHttp?: 'refuse' | 'warn';
  /** Where the one 'warn' goes. */
  warn?: (message: string) => void;
  /** Called once, when a list goes past its first page: the caller may tune itself for a long stream. */
  onLongList?: () => void;
  /**
   * Lists a page at a time, for a caller that hands out a cursor (`lms mcp`): a listing with a
   * limit (the one a command prints) reads one page, from `resumeAt` when given, and reports the
   * next page's link. Listings without a limit (lookups) read every page as usual.
   */
  pageCursor?: PageCursor;
  /**
   * A new token for one the server no longer takes (a 401 with WWW-Authenticate: the token expired
   * or was revoked), or undefined when there is none to be had. Asked once per request, which is
   * then sent again with the new token; a 401 without that header is a refusal of the caller, which
   * no other token of theirs would change.
   */
  renewToken?: (refused: string) => Promise<string | undefined>;
  /** What to do when the server refuses the token itself, from where the token came. */
  tokenHint?: string;
}

export interface PageCursor {
  /** The next-page link a cursor carried; it must be a page of the same list (path and origin). */
  resumeAt?: string;
  /** After the page: its next-page link, undefined at the end. */
  reached(next: string | undefined): void;
}

export interface SendOptions {
  query?: Params;
  body?: Params;
  encoding?: Encoding;
  /** Send the bearer token. Off for upload targets that may live on another host. */
  auth?: boolean;
  /** The URL is a credential itself (a one-time upload URL): traces and errors show only its origin. */
  secretUrl?: boolean;
  /** "user 42", for a not-found message. */
  subject?: string;
  /** Not safe to resend when its outcome is unknown (see ApiRequest.idempotent). */
  idempotent?: boolean;
  /** false: as the token's own user, whatever `asUser` says (`lms doctor` asks whose token it is). */
  masquerade?: boolean;
  /** A 3xx is handed back, neither followed nor refused: an upload's step 2, whose redirect is the way to step 3. */
  handBackRedirect?: boolean;
}

export interface PageOptions {
  /** Stop after this many items (pages are fetched only as needed). */
  limit?: number;
}

const MAX_REDIRECTS = 5;
/** Tries in all of an operation whose 503 means "not ready yet", and the first wait (doubling after). */
const UNAVAILABLE_TRIES = 6;
const UNAVAILABLE_FIRST_WAIT_MS = 100;

const PLAIN_HTTP_HINT =
  'use an https:// URL; if you really mean it, pass --insecure (or add the profile with --insecure)';

/*
 * Where the token goes. It is sent only to the origin (scheme, host and port) of the base URL:
 *  - a path, or an absolute URL on that origin, is sent with it;
 *  - an absolute URL on any other origin handed to `send` (`lms api GET https://other/…`) is refused
 *    before anything is sent, unless the caller asked for no token (`auth: false`: upload targets);
 *  - a `Link: rel="next"` on another origin is refused, the token not sent there, and the listing
 *    fails (a proxy that rewrites https to http is an origin change too: fix the base URL);
 *  - a redirect is followed only by a read, and only on the origin it was sent to: one to another
 *    origin (an https → http downgrade included) is refused, nothing sent there;
 *  - with `plainHttp`, no request carrying it goes over plain http to a host that is not loopback.
 */
export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly options: ClientOptions;
  readonly ops: Ops;
  private asUserChecked: Promise<void> | undefined;
  private warnedPlainHttp = false;
  /** The token sent now; `tokens` holds it and every one sent before it (renewed): none may appear in a message. */
  private token: string | undefined;
  private readonly tokens: string[] = [];

  constructor(options: ClientOptions) {
    this.options = options;
    this.token = options.token;
    if (options.token) this.tokens.push(options.token);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const base = parseHttpUrl(this.baseUrl);
    if (!base)
      throw new UsageError(`the base URL is not an http(s) URL: "${redactUrl(this.baseUrl)}"`, {
        hint: 'give the instance as https://lms.example.edu',
      });
    this.origin = base.origin;
    this.ops = bindOperations(this);
    // Refuse early, before any command work, when every request would be refused anyway.
    if (options.token) this.checkPlainHttp(base, false);
  }

  /**
   * Calls a non-paginated operation and returns its parsed body, sent as its route says (`encoding`,
   * unless given here). When the route has `retryUnavailable`, a 503 (the server's "not built yet")
   * is asked again after 100, 200, 400… ms, up to UNAVAILABLE_TRIES.
   */
  async request<T = unknown>(operation: OperationId | RouteId, params: Params = {}, encoding?: Encoding): Promise<T> {
    const { route, url, rest, subject } = this.resolve(operation, params);
    const body = route.method === 'POST' || route.method === 'PUT' ? rest : undefined;
    const query = body ? {} : rest;
    const idempotent = route.appends.some((name) => params[name] !== undefined) ? false : undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.send(route.method, url, {
          query,
          body,
          encoding: encoding ?? route.encoding,
          subject,
          idempotent,
        });
        const write = route.method !== 'GET';
        const answer = route.noContent
          ? readBody(res)
          : readDocumented(res, `${route.method} ${this.shownUrl(url)}`, write);
        // A list the route table does not page may still come in pages from a real server: read them all.
        const next =
          route.method === 'GET' && Array.isArray(answer) ? parseLinkHeader(res.headers.link).next : undefined;
        if (next === undefined) return answer as T;
        const items: unknown[] = [...(answer as unknown[])];
        const qs = toQueryString(query);
        const read = { url: this.absolute(qs ? `${url}?${qs}` : url), items: answer as unknown[] };
        for await (const item of this.follow(next, read, subject)) items.push(item);
        return items as T;
      } catch (err) {
        if (!route.retryUnavailable || !(err instanceof ApiError) || err.status !== 503 || attempt >= UNAVAILABLE_TRIES)
          throw err;
        const wait = UNAVAILABLE_FIRST_WAIT_MS * 2 ** (attempt - 1);
        this.options.trace?.(`↻ ${route.method} ${redactUrl(url)} is not ready yet (503): asking again in ${wait} ms`);
        await (this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(wait);
      }
    }
  }

  /** Iterates every item of a paginated operation, following `Link: rel="next"` exactly as given. */
  paginate<T = unknown>(
    operation: OperationId | RouteId,
    params: Params = {},
    options: PageOptions = {},
  ): AsyncGenerator<T> {
    const { route, url, rest, subject } = this.resolve(operation, params);
    return this.pages<T>(
      `${url}?${toQueryString({ ...rest, per_page: rest.per_page ?? this.options.perPage ?? 100 })}`,
      { ...options, subject, itemsKey: route.itemsKey },
    );
  }

  /**
   * Iterates the items of a list from its first page's URL (a path or absolute), page after page.
   * A next-page link to another origin than the base URL's is refused: the token is not sent there.
   */
  async *pages<T = unknown>(
    first: string,
    options: PageOptions & { subject?: string; itemsKey?: string } = {},
  ): AsyncGenerator<T> {
    const cursor = options.limit !== undefined ? this.options.pageCursor : undefined;
    if (cursor) {
      yield* this.onePage<T>(first, cursor, options.subject, options.itemsKey);
      return;
    }
    if (options.limit !== undefined && options.limit <= 0) return;
    let yielded = 0;
    for await (const item of this.follow(this.absolute(first), undefined, options.subject, options.itemsKey)) {
      yield item as T;
      // Stop before the next page is asked for.
      if (++yielded === options.limit) return;
    }
  }

  /**
   * The items of the pages from `link` on, after the page `read` (if any) that pointed there. A list
   * always ends: a next-page link to a page already read, or a page that repeats the one before it
   * (a server that ignores the page asked for), ends it with an error rather than a loop.
   */
  private async *follow(
    link: string,
    read: { url: string; items: unknown[] } | undefined,
    subject: string | undefined,
    itemsKey?: string,
  ): AsyncGenerator<unknown> {
    const visited = new Set<string>();
    let previous = read;
    if (read) visited.add(read.url);
    let next: string | undefined = read ? this.nextPage(link, read.url) : link;
    while (next) {
      if (visited.has(next)) throw this.loopError(next, 'links back to a page already read');
      visited.add(next);
      if (previous) this.options.onLongList?.();
      const { items, link: after } = await this.readPage(next, subject, itemsKey);
      if (previous && items.length > 0 && samePage(items, previous.items))
        throw this.loopError(next, 'answered the same items as the page before it');
      yield* items;
      previous = { url: next, items };
      next = after === undefined ? undefined : this.nextPage(after, next);
    }
  }

  private loopError(url: string, what: string): FailureError {
    return new FailureError(
      `the server's next page ${redactText(redactUrl(url), this.tokens)} ${what}: the listing stops here rather ` +
        'than loop',
      {
        hint:
          'the items printed so far are complete pages; the server is paging wrongly (its Link header), so ' +
          'retrying will not help',
      },
    );
  }

  private async *onePage<T>(
    first: string,
    cursor: PageCursor,
    subject: string | undefined,
    itemsKey: string | undefined,
  ): AsyncGenerator<T> {
    const start = this.absolute(first);
    let url = start;
    if (cursor.resumeAt !== undefined) {
      const resumed = parseHttpUrl(cursor.resumeAt);
      if (!resumed || resumed.origin !== this.origin || resumed.pathname !== new URL(start).pathname)
        throw new UsageError('the cursor belongs to another list: list again without it');
      url = resumed.toString();
    }
    const { items, link } = await this.readPage(url, subject, itemsKey);
    const next = link === undefined ? undefined : this.nextPage(link, url);
    if (next === url) throw this.loopError(next, 'links back to itself');
    cursor.reached(next);
    for (const item of items) yield item as T;
  }

  /**
   * One page of a list: its items (a lone object is a page of one; a page holding its items under the
   * route's `itemsKey`, those items), and its next-page link as sent.
   */
  private async readPage(
    url: string,
    subject: string | undefined,
    itemsKey?: string,
  ): Promise<{ items: unknown[]; link: string | undefined }> {
    const res = await this.send('GET', url, { subject });
    let page = readDocumented(res, `GET ${this.shownUrl(url)}`, false);
    if (itemsKey && page && typeof page === 'object' && !Array.isArray(page) && itemsKey in page) {
      const inner = (page as Record<string, unknown>)[itemsKey];
      page = Array.isArray(inner) ? inner : [];
    }
    return { items: Array.isArray(page) ? page : [page], link: parseLinkHeader(res.headers.link).next };
  }

  /**
   * Sends one request to a path under the base URL or to an absolute URL, follows redirects on
   * GET (see `redirected`), and throws an ApiError for any status >= 400. With the token (the default) an absolute URL
   * must be on the base URL's origin.
   */
  async send(method: HttpMethod, pathOrUrl: string, options: SendOptions = {}): Promise<ApiResponse> {
    return this.dispatch(method, pathOrUrl, options, { masquerade: options.masquerade !== false });
  }

  /** `masquerade: false` sends no as_user_id; `raw` hands back an error status instead of throwing. */
  private async dispatch(
    method: HttpMethod,
    pathOrUrl: string,
    options: SendOptions,
    { masquerade, raw = false }: { masquerade: boolean; raw?: boolean },
  ): Promise<ApiResponse> {
    let url = this.absolute(pathOrUrl);
    const target = parseHttpUrl(url);
    if (!target) throw new UsageError(`not an http(s) URL: "${redactText(pathOrUrl, this.tokens)}"`);
    const auth = options.auth !== false;
    if (auth && target.origin !== this.origin) {
      throw new UsageError(
        `refusing to send the token to ${target.origin}: it goes only to ${this.origin}, the base URL's origin; ` +
          'nothing was sent',
        {
          hint: `use a path (/api/v1/…) for ${this.origin}, or a profile or LMS_BASE_URL for ${target.origin}`,
        },
      );
    }
    const query: Params = { ...options.query };
    if (auth && masquerade && this.options.asUser !== undefined) {
      await this.checkAsUser(this.options.asUser);
      // A next-page link the server built from an earlier request already carries it: add it once.
      if (!target.searchParams.has('as_user_id')) query.as_user_id = this.options.asUser;
    }
    const qs = toQueryString(query);
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;

    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    if (auth && this.token) headers.authorization = `Bearer ${this.token}`;
    let body: ApiRequest['body'];
    if (options.body) {
      const encoding = options.encoding ?? (hasFile(options.body) ? 'multipart' : 'form');
      const encoded = await encodeBody(options.body, encoding);
      body = encoded.body;
      headers['content-type'] = encoded.contentType;
    } else if (method === 'PUT' || method === 'POST') {
      headers['content-length'] = '0';
    }

    let renewed = false;
    // Every URL asked for, the first included: a redirect back to one of them is a loop.
    const visited = new Set<string>();
    for (;;) {
      visited.add(url);
      if (headers.authorization) this.checkPlainHttp(new URL(url), true);
      const traceUrl = this.lazyTraceUrl(url, options.secretUrl === true);
      const res = await this.exchange(
        Object.defineProperty({ method, url, headers, body, idempotent: options.idempotent }, 'traceUrl', {
          get: traceUrl,
          enumerable: true,
        }),
      );
      if (
        res.status === 401 &&
        !renewed &&
        headers.authorization &&
        res.headers['www-authenticate'] &&
        this.options.renewToken
      ) {
        renewed = true;
        const fresh = await this.renew(headers.authorization.replace(/^Bearer /, ''));
        if (fresh) {
          this.options.trace?.(`↻ ${method} ${traceUrl()} again with the renewed token`);
          headers.authorization = `Bearer ${fresh}`;
          // Not a redirect: the same request again.
          continue;
        }
      }
      if (res.status >= 300 && res.status < 400 && !options.handBackRedirect) {
        url = this.redirected(res, method, url, visited, traceUrl);
        continue;
      }
      if (res.status >= 400 && !raw)
        throw toApiError(res, method, traceUrl(), options.subject, this.secrets(url), this.options.tokenHint);
      return res;
    }
  }

  /**
   * Where a 3xx answer leads, or why it is not followed. No request is made here. A write is never
   * followed (RFC 9110 lets a client turn a redirected POST into a GET, which would write nothing
   * and answer 200): the write is reported as not done, naming where the instance sent it. A read
   * follows a redirect only on the origin it was sent to (so the token goes nowhere else), to a URL
   * not asked for yet, MAX_REDIRECTS times at most. A 304 answers a conditional request, which lms
   * never sends: it is not an answer to this one.
   */
  private redirected(
    res: ApiResponse,
    method: HttpMethod,
    url: string,
    visited: Set<string>,
    traceUrl: () => string,
  ): string {
    const secrets = this.secrets(url);
    const asked = `${method} ${redactText(traceUrl(), secrets)}`;
    const location = res.headers.location;
    const next = location === undefined ? undefined : parseHttpUrl(location, url);
    // What the message may show of the Location: secrets masked; only the origin of another origin's.
    const shown =
      next && redactText(next.origin === this.origin ? redactUrl(next.href) : originOnly(next.href), secrets);
    const where = shown
      ? ` to ${shown}`
      : location === undefined
        ? ' without a Location'
        : ' to a Location that is not an http(s) URL';
    const write = method !== 'GET';
    const fail = (what: string, hint: string) =>
      new FailureError(`${asked}: ${what}; nothing was ${write ? 'written' : 'read'}`, { hint });
    const check = "check the profile's URL";
    const moved =
      next && next.origin !== this.origin
        ? `set the profile's URL (or LMS_BASE_URL) to ${next.origin}, where the instance says it is`
        : undefined;
    const redirectedIt = `the instance redirected it (${res.status})${where}`;
    if (res.status === 304) {
      const cache = 'a proxy or cache between lms and the instance is answering for it';
      throw fail(
        'the instance answered 304 Not Modified to a request that asked for no cached copy',
        `${cache}; ${check}`,
      );
    }
    if (write) {
      const sso = "a login or single sign-on page answers for the API there: check the profile's URL and the token";
      throw fail(`the instance redirected the write (${res.status})${where}, and a write is not sent on`, moved ?? sso);
    }
    if (!next) throw fail(`the instance answered ${res.status}${where}`, check);
    const from = new URL(url).origin;
    if (next.origin !== from) {
      const elsewhere = 'a read follows redirects only on its own origin, so nothing was sent there';
      throw fail(`${redirectedIt}, another origin than ${from}; ${elsewhere}`, moved ?? check);
    }
    if (visited.has(next.href)) {
      throw fail(
        `${redirectedIt}, a URL already asked for: a redirect loop`,
        `${check}; its redirects go round in a circle`,
      );
    }
    if (visited.size > MAX_REDIRECTS)
      throw fail(`the instance redirected it more than ${MAX_REDIRECTS} times (the last${where})`, check);
    return next.href;
  }

  /** A token to send instead of `refused`: renewed now, or already by another request of this client. */
  private async renew(refused: string): Promise<string | undefined> {
    if (this.token && this.token !== refused) return this.token;
    const fresh = await this.options.renewToken!(refused);
    if (!fresh || fresh === refused) return undefined;
    this.token = fresh;
    this.tokens.push(fresh);
    return fresh;
  }

  /**
   * `--as-user ID`: the user must exist before anything is done as them, or a missing user would
   * surface as some other resource not found. One request without as_user_id, once, lazily.
   */
  private checkAsUser(id: string): Promise<void> {
    this.asUserChecked ??= (async () => {
      const path = pathOf('users.get', { id });
      const res = await this.dispatch('GET', path, {}, { masquerade: false, raw: true });
      if (res.status < 400) return;
      const shown = redactUrl(this.baseUrl + path);
      const error = toApiError(
        res,
        'GET',
        shown,
        `--as-user ${id}: user ${id}`,
        this.secrets(this.baseUrl + path),
        this.options.tokenHint,
      );
      // An invalid token says so itself (a 401 with WWW-Authenticate); any other refusal is about masquerading.
      if (res.status === 403 || (res.status === 401 && !res.headers['www-authenticate'])) {
        throw new LmsError(
          `--as-user ${id}: the caller may not act as user ${id} (GET ${path} → ${res.status})`,
          ExitCode.auth,
          {
            hint: 'acting as another user needs an admin token with permission to become other users',
            cause: error,
          },
        );
      }
      throw error;
    })();
    return this.asUserChecked;
  }

  /** Resolves a next-page link against the page it came from, refusing one on another origin. */
  private nextPage(link: string, current: string): string {
    const next = parseHttpUrl(link, current);
    if (next && next.origin === this.origin) return next.toString();
    const where = next ? next.origin : `"${redactText(link, this.tokens)}"`;
    const plain = next && next.protocol === 'http:' && !isLoopbackHost(next.hostname) ? ' over plain http' : '';
    throw new FailureError(
      `the server's next-page link points to ${where}${plain}, not ${this.origin}: refusing to follow it, so the ` +
        'token was not sent there',
      {
        hint:
          'the base URL may not be the address the server knows itself by (another host name, or a proxy that ' +
          'rewrites https to http); set it to that address',
      },
    );
  }

  /** Plain http to a host that is not this machine, with the token: refused or warned about, per `plainHttp`. */
  private checkPlainHttp(url: URL, sending: boolean): void {
    const policy = this.options.plainHttp;
    if (!policy || url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
    if (policy === 'refuse')
      throw new UsageError(`refusing to send the token over plain http to ${url.host}`, { hint: PLAIN_HTTP_HINT });
    if (sending && !this.warnedPlainHttp) {
      this.warnedPlainHttp = true;
      this.options.warn?.(`sending the token over plain http to ${url.host} (--insecure)`);
    }
  }

  /**
   * What traces and messages show for a URL: secrets masked; only the origin of a one-time or
   * foreign URL. Worked out when a trace or an error first reads it: most requests have neither.
   */
  private lazyTraceUrl(url: string, secret: boolean): () => string {
    let shown: string | undefined;
    return () => (shown ??= secret || parseHttpUrl(url)?.origin !== this.origin ? originOnly(url) : redactUrl(url));
  }

  /** A URL as messages show it: secrets masked, only the origin of another origin's. */
  private shownUrl(url: string): string {
    return redactText(this.lazyTraceUrl(url, false)(), this.secrets(url));
  }

  /** What must not appear in a message: the token, and the URL as sent when it carries a secret itself. */
  private secrets(url: string): (string | undefined)[] {
    return [...this.tokens, redactUrl(url) === url ? undefined : url];
  }

  private async exchange(req: ApiRequest): Promise<ApiResponse> {
    const trace = this.options.trace;
    const shown = () => req.traceUrl ?? redactUrl(req.url);
    // Timed only when traced: the first touch of `performance` loads Node's perf_hooks, eight modules.
    const started = trace ? performance.now() : 0;
    trace?.(`→ ${req.method} ${shown()}`);
    try {
      const res = await this.options.transport(req);
      trace?.(`← ${res.status} ${req.method} ${shown()} (${Math.round(performance.now() - started)} ms)`);
      return res;
    } catch (err) {
      // Whatever threw may have quoted the URL or the token: neither goes further.
      if (err instanceof Error) scrubError(err, this.secrets(req.url));
      trace?.(
        `✗ ${req.method} ${shown()} (${Math.round(performance.now() - started)} ms): ` +
          `${err instanceof Error ? err.message : redactText(String(err), this.secrets(req.url))}`,
      );
      throw err;
    }
  }

  private absolute(pathOrUrl: string): string {
    if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
    return this.baseUrl + (pathOrUrl.startsWith('/') ? '' : '/') + pathOrUrl;
  }

  /**
   * The route of a call. An operation with context variants (`{tctx}`, `{octx}`, `{sctx}`) is called
   * with exactly one context: its id (`course_id`, `group_id`…) or `global: true` — never guessed
   * from whichever ids happen to be present. Then every path id must be given.
   */
  private resolve(
    operation: OperationId | RouteId,
    params: Params,
  ): { route: Route; url: string; rest: Params; subject?: string } {
    const candidates = operation.includes('@')
      ? [routeById(operation as RouteId)]
      : variantsOf(operation as OperationId);
    if (candidates.length === 0) throw new Error(`unknown operation ${operation}`);
    const given = (name: string) => isGiven(params[name]);
    let route = candidates[0];
    if (candidates.length > 1) {
      const named = candidates.filter((r) => given(contextKey(r)));
      if (named.length !== 1) {
        const choices = candidates.map((r) => (r.context === 'global' ? 'global: true' : contextKey(r))).join(', ');
        const got = named.length ? `, not ${named.map(contextKey).join(' and ')}` : '';
        throw new UsageError(`${operation} needs exactly one context of ${choices}${got}`);
      }
      route = named[0];
    }
    const path = pathOf(route, params, operation);
    const rest: Params = { ...params };
    if (route.context === 'global') delete rest.global;
    for (const name of route.params) delete rest[name];
    const last = route.params.at(-1);
    const subject = route.resource && last ? `${route.resource} ${String(params[last])}` : undefined;
    return { route, url: this.baseUrl + path, rest, subject };
  }
}

/** What names a route's context in a call: `global`, or the context's id (`course_id`), its first path id. */
function contextKey(route: Route): string {
  return route.context === 'global' ? 'global' : route.params[0];
}

/** An http(s) URL (resolved against `base` when given), or undefined. */
function parseHttpUrl(url: string, base?: string): URL | undefined {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Masks secrets in an error's message (and stack), down its cause chain. */
function scrubError(err: Error, secrets: (string | undefined)[]): void {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    rewrite(e, 'message', redactText(e.message, secrets));
    if (e.stack) rewrite(e, 'stack', redactText(e.stack, secrets));
  }
}

/**
 * Sets an error's text as an own property: some errors (a DOMException from an aborted or timed-out
 * request) have a message that is only a getter, which a plain assignment would throw on.
 */
function rewrite(e: Error, key: 'message' | 'stack', text: string): void {
  if (e[key] !== text)
    Object.defineProperty(e, key, { value: text, writable: true, configurable: true, enumerable: false });
}

/** Whether a page holds exactly the items of the one before it. */
function samePage(items: unknown[], before: unknown[]): boolean {
  return items.length === before.length && items.every((item, i) => isDeepStrictEqual(item, before[i]));
}

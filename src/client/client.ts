// The API client: resolves an operation to its route, encodes the request as a real server expects
// it, hands it to the transport, and turns answers into data or typed errors. It never prints.
import { UsageError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { route as routeById, variantsOf, type OperationId, type Route, type RouteId } from '../spec/routes.js';
import type { ApiRequest, ApiResponse, HttpMethod, Transport } from '../transport/types.js';
import { encodeBody, encodePathSegment, hasFile, toQueryString, type Encoding, type Params } from './encode.js';
import { parseLinkHeader, readBody, toApiError } from './parse.js';
import { bindOperations } from './operations.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  transport: Transport;
  /** Masquerade: every request carries `as_user_id`. */
  asUser?: string;
  /** Page size asked for on paginated routes. */
  perPage?: number;
  userAgent?: string;
  /** Called with one line per request and response; the token never reaches it. */
  trace?: (line: string) => void;
}

export interface SendOptions {
  query?: Params;
  body?: Params;
  encoding?: Encoding;
  /** Send the bearer token. Off for upload targets that may live on another host. */
  auth?: boolean;
  /** "user 42", for a not-found message. */
  subject?: string;
}

export interface PageOptions {
  /** Stop after this many items (pages are fetched only as needed). */
  limit?: number;
}

const MAX_REDIRECTS = 5;

export class ApiClient {
  readonly baseUrl: string;
  private readonly options: ClientOptions;
  readonly ops: ReturnType<typeof bindOperations>;

  constructor(options: ClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.ops = bindOperations(this);
  }

  /** Calls a non-paginated operation and returns its parsed body. */
  async request<T = unknown>(operation: OperationId | RouteId, params: Params = {}, encoding?: Encoding): Promise<T> {
    const { route, url, rest, subject } = this.resolve(operation, params);
    const body = route.method === 'POST' || route.method === 'PUT' ? rest : undefined;
    const query = body ? {} : rest;
    const res = await this.send(route.method, url, { query, body, encoding, subject });
    return readBody(res) as T;
  }

  /** Iterates every item of a paginated operation, following `Link: rel="next"` exactly as given. */
  paginate<T = unknown>(operation: OperationId | RouteId, params: Params = {}, options: PageOptions = {}): AsyncGenerator<T> {
    const { url, rest, subject } = this.resolve(operation, params);
    return this.pages<T>(`${url}?${toQueryString({ ...rest, per_page: rest.per_page ?? this.options.perPage ?? 100 })}`, { ...options, subject });
  }

  /** Iterates the items of a list from its first page's URL (a path or absolute), page after page. */
  async *pages<T = unknown>(first: string, options: PageOptions & { subject?: string } = {}): AsyncGenerator<T> {
    let next: string | undefined = first;
    let yielded = 0;
    while (next) {
      const res: ApiResponse = await this.send('GET', next, { subject: options.subject });
      const page = readBody(res);
      const items = Array.isArray(page) ? page : page === undefined ? [] : [page];
      for (const item of items) {
        if (options.limit !== undefined && yielded >= options.limit) return;
        yielded++;
        yield item as T;
      }
      if (options.limit !== undefined && yielded >= options.limit) return;
      next = parseLinkHeader(res.headers['link']).next;
    }
  }

  /**
   * Sends one request to a path under the base URL or to an absolute URL the server handed out,
   * follows redirects on GET, and throws an ApiError for any status >= 400.
   */
  async send(method: HttpMethod, pathOrUrl: string, options: SendOptions = {}): Promise<ApiResponse> {
    let url = this.absolute(pathOrUrl);
    const query: Params = { ...options.query };
    // A next-page link the server built from an earlier request already carries it: add it once.
    if (this.options.asUser !== undefined && !new URL(url).searchParams.has('as_user_id')) query.as_user_id = this.options.asUser;
    const qs = toQueryString(query);
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;

    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    if (options.auth !== false && this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let body: ApiRequest['body'];
    if (options.body) {
      const encoding = options.encoding ?? (hasFile(options.body) ? 'multipart' : 'form');
      const encoded = await encodeBody(options.body, encoding);
      body = encoded.body;
      headers['content-type'] = encoded.contentType;
    } else if (method === 'PUT' || method === 'POST') {
      headers['content-length'] = '0';
    }

    for (let hop = 0; ; hop++) {
      const res = await this.exchange({ method, url, headers, body });
      const location = res.headers['location'];
      if (res.status >= 300 && res.status < 400 && location && method === 'GET' && hop < MAX_REDIRECTS) {
        const target = new URL(location, url).toString();
        // The token goes only where the base URL lives.
        if (new URL(target).origin !== new URL(this.baseUrl).origin) delete headers.authorization;
        url = target;
        continue;
      }
      if (res.status >= 400) throw toApiError(res, method, url, options.subject);
      return res;
    }
  }

  private async exchange(req: ApiRequest): Promise<ApiResponse> {
    const trace = this.options.trace;
    const started = performance.now();
    trace?.(`→ ${req.method} ${redactUrl(req.url)}`);
    try {
      const res = await this.options.transport(req);
      trace?.(`← ${res.status} ${req.method} ${redactUrl(req.url)} (${Math.round(performance.now() - started)} ms)`);
      return res;
    } catch (err) {
      trace?.(`✗ ${req.method} ${redactUrl(req.url)} (${Math.round(performance.now() - started)} ms): ${(err as Error).message}`);
      throw err;
    }
  }

  private absolute(pathOrUrl: string): string {
    if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
    return this.baseUrl + (pathOrUrl.startsWith('/') ? '' : '/') + pathOrUrl;
  }

  /** Picks the context variant whose path ids are all given, and fills the path. */
  private resolve(operation: OperationId | RouteId, params: Params): { route: Route; url: string; rest: Params; subject?: string } {
    const candidates = operation.includes('@') ? [routeById(operation as RouteId)] : variantsOf(operation as OperationId);
    if (candidates.length === 0) throw new Error(`unknown operation ${operation}`);
    const route = candidates.find((r) => r.params.every((p) => params[p] !== undefined && params[p] !== null && params[p] !== ''));
    if (!route) {
      const needed = candidates.map((r) => r.params.join(' + ') || '(none)').join(' or ');
      throw new UsageError(`${operation} needs ${needed}`);
    }
    const rest: Params = { ...params };
    let path = route.path;
    for (const name of route.params) {
      path = path.replace(`:${name}`, encodePathSegment(String(params[name])));
      delete rest[name];
    }
    const last = route.params.at(-1);
    const subject = route.resource && last ? `${route.resource} ${String(params[last])}` : undefined;
    return { route, url: this.baseUrl + path, rest, subject };
  }
}

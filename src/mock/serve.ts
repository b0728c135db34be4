// `lms mock serve`: the same handler over HTTP, so other clients and CI jobs can use it.
//
// It is a public HTTP server as far as its input goes, so: routing comes from the request path
// alone (never the Host header); absolute URLs in answers name a canonical origin (--public-url, or
// the address the client actually connected to); bodies are refused with 413 before they are
// buffered (from Content-Length up front, or as a chunked body grows), uploads having their own,
// larger limit, and all bodies being received at once sharing one budget of memory; an upload is
// streamed into storage, not buffered, and its URL and declared size are checked before a byte of
// it is read; a download is sent a stored chunk at a time; an internal error answers
// a bare 500 with a report id and logs the error's kind and place, never its message or a stack,
// which could carry user input; and the log line of a request never shows a credential.
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { FailureError, UsageError, type LmsError } from '../errors.js';
import { REDACTED, redactUrl } from '../redact.js';
import type { HttpMethod } from '../transport/types.js';
import { DECODE_LIMITS } from './decode.js';
import { DroppedConnection } from './faults.js';
import {
  storedBytesOf,
  UPLOAD_SLACK_BYTES,
  type MockHandler,
  type ReceivedRequest,
  type StoredBytes,
  type UploadDesk,
  type UploadSink,
} from './file-bytes.js';
import { matchRoute } from '../spec/match.js';

const MiB = 1024 * 1024;
/** Bodies of API requests. */
const DEFAULT_MAX_BODY_BYTES = 1 * MiB;
/** Multipart bodies posted to an upload URL (`/files_api/uploads/…`). */
const DEFAULT_MAX_UPLOAD_BYTES = 100 * MiB;
/** After refusing a body, how long the rest of it is read and thrown away before the connection is cut. */
const LINGER_MS = 2_000;
/** What a streamed upload holds besides its sink's chunk and its text fields: socket and parser buffers. */
const STREAM_BUFFER_BYTES = 256 * 1024;

export interface ServeOptions {
  handler: MockHandler;
  host: string;
  port: number;
  /** One line per request. */
  log?: (line: string) => void;
  /** The origin every absolute URL in an answer names (`https://mock.example.org`); see originFor. */
  publicUrl?: string;
  maxBodyBytes?: number;
  maxUploadBytes?: number;
  /**
   * Where upload bodies are streamed to; the handler's own desk when absent. Without one, uploads are buffered like any
   * body.
   */
  uploads?: UploadDesk;
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}

export interface Serving {
  server: Server;
  /** Where it listens (`http://127.0.0.1:4010`; `http://0.0.0.0:4010` on every interface; https:// with TLS). */
  url: string;
  /** True when bound to every interface (0.0.0.0 or ::). */
  wildcard: boolean;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);

type Outcome = number | 'drop' | 'aborted';

/** What one server keeps across its requests: limits, the memory budget bodies share, its address. */
interface ServerState {
  options: ServeOptions;
  maxBody: number;
  maxUpload: number;
  desk: UploadDesk | undefined;
  /** Bytes all bodies being received at once may hold, and how many they hold now. */
  budget: number;
  buffered: number;
  /** What a streamed upload holds in memory, reserved from the budget when it starts. */
  streamReserve: number;
  errorReports: number;
  publicOrigin: string | undefined;
  /** The listening port: options.port until the server is bound (0 picks one). */
  port: number;
  scheme: 'http' | 'https';
}

/** One request as it is answered: what the log line says of it, and what it holds of the budget. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The client sent `Expect: 100-continue`: it waits to be asked for its body. */
  expectsContinue: boolean;
  started: number;
  outcome: Outcome;
  logged: string;
  holding: number;
  received?: UploadSink;
}

/** A request that passed the checks made before its body is read. */
interface Admitted {
  method: HttpMethod;
  url: URL;
  uploadId: string | undefined;
  /** Where an upload's multipart body is streamed, rather than held in memory. */
  streamTo: { desk: UploadDesk; uploadId: string } | undefined;
  limit: number;
  tooLargeMessage: string;
}

export function serveMock(options: ServeOptions): Promise<Serving> {
  const s = servingState(options);
  return listen(s, createMockServer(s));
}

function servingState(options: ServeOptions): ServerState {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const desk = options.uploads ?? options.handler.uploads;
  return {
    options,
    maxBody,
    maxUpload,
    desk,
    // All bodies being received at once share this much memory; past it a request waits its turn
    // (503). A buffered body counts its bytes as they arrive. A streamed upload counts only what it
    // can hold at once (its sink's chunk, its text fields, the socket's and parser's buffers),
    // reserved up front: its file goes to storage as it arrives, so its size is not memory, and
    // counting it would turn away uploads the server has room for.
    budget: Math.max(8 * maxBody, 2 * maxUpload),
    buffered: 0,
    streamReserve: desk ? desk.bytesHeldPerSink + maxBody + STREAM_BUFFER_BYTES : 0,
    errorReports: 0,
    publicOrigin: options.publicUrl ? new URL(options.publicUrl).origin : undefined,
    port: options.port,
    scheme: options.tls ? 'https' : 'http',
  };
}

function createMockServer(s: ServerState): Server {
  const { options } = s;
  const settings: ServerOptions = {
    // Slow clients cannot hold a connection forever: headers within 15 s, a whole request within
    // 2 minutes (a 100 MiB upload at under 1 MB/s); checked every 5 s.
    headersTimeout: 15_000,
    requestTimeout: 120_000,
    connectionsCheckingInterval: 5_000,
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => void answer(s, req, res, false);
  // node:https's server is node:http's over TLS: everything below applies to both.
  const server: Server = options.tls
    ? createHttpsServer({ ...settings, cert: options.tls.cert, key: options.tls.key }, onRequest)
    : createServer(settings, onRequest);
  server.keepAliveTimeout = 10_000;
  server.maxHeadersCount = 200;
  // A client that sends `Expect: 100-continue` is asked for its body only once nothing refuses it
  // unread (an oversized body, an upload URL that is not pending, the budget).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => void answer(s, req, res, true));
  server.on('clientError', answerClientError);
  return server;
}

/** Malformed requests (bad header bytes, oversized headers, timeouts): a plain 4xx, as node would. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    errors: [
      { message: status === 431 ? 'request headers too large' : status === 408 ? 'request timeout' : 'bad request' },
    ],
  });
  socket.end(
    `HTTP/1.1 ${status} ` +
      `${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}` +
      `\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
}

function listen(s: ServerState, server: Server): Promise<Serving> {
  const { options } = s;
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(listenError(err as NodeJS.ErrnoException, options.host, options.port)));
    server.listen(options.port, options.host, () => {
      // Past start-up, a server error (out of file descriptors on accept) is logged, not fatal.
      server.removeAllListeners('error');
      server.on('error', (err: NodeJS.ErrnoException) => options.log?.(`server error: ${err.code ?? err.name}`));
      const address = server.address();
      s.port = typeof address === 'object' && address ? address.port : options.port;
      const bound = typeof address === 'object' && address ? address.address : options.host;
      const wildcard = bound === '0.0.0.0' || bound === '::';
      resolve({ server, url: `${s.scheme}://${bracketed(bound)}:${s.port}`, wildcard });
    });
  });
}

/** The upload limit is for multipart bodies posted to an upload URL; anything else gets the API's. */
function limitFor(s: ServerState, req: IncomingMessage, uploadId: string | undefined): number {
  return uploadId !== undefined && isMultipart(req) ? s.maxUpload : s.maxBody;
}

/**
 * The origin absolute URLs name: --public-url when given; otherwise the Host the client sent if it
 * names, with the listening port, the very address the client reached (or `localhost`, when that
 * address is a loopback one); otherwise that address itself. A Host header is never trusted for
 * anything else.
 */
function originFor(s: ServerState, req: IncomingMessage): string {
  if (s.publicOrigin) return s.publicOrigin;
  const local = plainAddress(req.socket.localAddress) ?? plainAddress(s.options.host) ?? '127.0.0.1';
  const named = hostHeaderName(req.headers.host, s.port);
  if (named !== undefined && (named === local || (named === 'localhost' && isLoopback(local))))
    return `${s.scheme}://${bracketed(named)}:${s.port}`;
  return `${s.scheme}://${bracketed(local)}:${s.port}`;
}

/** One request, start to end: refused unread, or received, handled and answered; always logged. */
async function answer(
  s: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  expectsContinue: boolean,
): Promise<void> {
  const x: Exchange = {
    req,
    res,
    expectsContinue,
    started: performance.now(),
    outcome: 500,
    logged: '(malformed request target)',
    holding: 0,
  };
  try {
    const admitted = admit(s, x);
    if (!admitted) return;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const apiReq = admitted.streamTo
      ? await receiveUpload(s, x, admitted, admitted.streamTo, headers)
      : await receiveBody(s, x, admitted, headers);
    if (!apiReq) return;
    const reply = await s.options.handler(apiReq);
    s.buffered -= x.holding;
    x.holding = 0;
    x.outcome = reply.status;
    if (res.destroyed) return;
    const stored = storedBytesOf(reply);
    if (stored) return await sendStored(res, reply.status, reply.headers, stored);
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  } catch (err) {
    answerFailure(s, x, err);
  } finally {
    s.buffered -= x.holding;
    // Bytes of an upload the handler did not adopt (it refused the request, or never ran) are removed.
    try {
      x.received?.discard();
    } catch (err) {
      s.options.log?.(`error report ${++s.errorReports}: ${describeError(err)}`);
    }
    s.options.log?.(`${req.method} ${x.logged} ${x.outcome} ${Math.round(performance.now() - x.started)}ms`);
  }
}

/**
 * The checks made before a byte of the body is read: the method, the target, and the body's size
 * as declared; an upload URL takes a body only while pending, and no larger than it declared.
 * Undefined when the request was refused (the exchange says how).
 */
function admit(s: ServerState, x: Exchange): Admitted | undefined {
  const { req, res } = x;
  const method = (req.method ?? 'GET').toUpperCase();
  const path = targetPath(req.url ?? '/');
  const origin = originFor(s, req);
  const url = path === undefined ? undefined : safeUrl(origin, path);
  if (url) x.logged = logTarget(url);
  if (!METHODS.has(method)) {
    x.outcome = refuse(req, res, 405, `method ${method} is not supported`, { allow: [...METHODS].join(', ') });
    return undefined;
  }
  if (!url) {
    x.outcome = refuse(req, res, 400, 'malformed request target');
    return undefined;
  }
  const match = matchRoute(method, url.pathname);
  const uploadId = match?.route.id === 'files.upload' ? match.path.upload_id : undefined;
  let limit = limitFor(s, req, uploadId);
  let tooLargeMessage = tooLarge(limit);
  if (uploadId !== undefined && s.desk) {
    const admission = s.desk.admit(uploadId);
    if (admission === 'unknown') {
      x.outcome = refuse(req, res, 404, 'unknown or used upload URL');
      return undefined;
    }
    const declared = admission.declaredBytes;
    if (isMultipart(req) && declared !== undefined && declared + UPLOAD_SLACK_BYTES < limit) {
      limit = declared + UPLOAD_SLACK_BYTES;
      tooLargeMessage =
        `the upload is larger than the ${declared} bytes declared when it was started (and ` +
        `${formatBytes(UPLOAD_SLACK_BYTES)} for the form around them)`;
    }
  }
  const declaredLength = req.headers['content-length'];
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    x.outcome = refuse(req, res, 413, tooLargeMessage);
    return undefined;
  }
  const streamTo = uploadId !== undefined && s.desk && isMultipart(req) ? { desk: s.desk, uploadId } : undefined;
  return { method: method as HttpMethod, url, uploadId, streamTo, limit, tooLargeMessage };
}

/**
 * An upload's body, streamed into storage as it arrives: the handler reads its text fields as a
 * form, and finds the file part in storage. Undefined when it was refused or the client went away.
 */
async function receiveUpload(
  s: ServerState,
  x: Exchange,
  a: Admitted,
  { desk, uploadId }: { desk: UploadDesk; uploadId: string },
  headers: Record<string, string>,
): Promise<ReceivedRequest | undefined> {
  const { req, res } = x;
  if (s.buffered + s.streamReserve > s.budget) {
    x.outcome = refuse(req, res, 503, BUSY, { 'retry-after': '1' });
    return undefined;
  }
  s.buffered += s.streamReserve;
  x.holding += s.streamReserve;
  if (x.expectsContinue) res.writeContinue();
  const { receiveMultipart } = await import('./multipart-stream.js');
  const got = await receiveMultipart(req, headers['content-type'], desk, uploadId, {
    maxBytes: a.limit,
    maxFieldBytes: s.maxBody,
    maxParams: DECODE_LIMITS.maxParams,
  });
  switch (got.kind) {
    case 'aborted':
      x.outcome = 'aborted';
      return undefined;
    case 'too-large':
      x.outcome = refuse(req, res, 413, a.tooLargeMessage);
      return undefined;
    case 'fields-too-large':
      x.outcome = refuse(
        req,
        res,
        413,
        `the form fields of the upload are larger than the limit of ${formatBytes(s.maxBody)}`,
      );
      return undefined;
    case 'gone':
      x.outcome = refuse(req, res, 404, 'unknown or used upload URL');
      return undefined;
    case 'malformed':
      x.outcome = refuse(req, res, 400, got.message);
      return undefined;
    case 'failed':
      throw got.error;
  }
  x.received = got.sink;
  for (const name of ['content-length', 'transfer-encoding']) delete headers[name];
  headers['content-type'] = 'application/x-www-form-urlencoded';
  const form = new URLSearchParams(got.fields).toString();
  return { method: a.method, url: a.url.href, headers, body: form || undefined, received: got.file };
}

/** Any other body, held in memory within the shared budget. Undefined when it was refused or the client went away. */
async function receiveBody(
  s: ServerState,
  x: Exchange,
  a: Admitted,
  headers: Record<string, string>,
): Promise<ReceivedRequest | undefined> {
  const { req, res } = x;
  if (x.expectsContinue) res.writeContinue();
  const body = await readBody(req, a.limit, (n) => {
    if (s.buffered + n > s.budget) return false;
    s.buffered += n;
    x.holding += n;
    return true;
  });
  if (body === 'aborted') {
    x.outcome = 'aborted';
    return undefined;
  }
  if (body === 'too-large') {
    x.outcome = refuse(req, res, 413, a.tooLargeMessage);
    return undefined;
  }
  if (body === 'busy') {
    x.outcome = refuse(req, res, 503, BUSY, { 'retry-after': '1' });
    return undefined;
  }
  return { method: a.method, url: a.url.href, headers, body: body.byteLength ? body : undefined };
}

/** A request the mock failed on: an injected dropped connection, or a bare 500 with a report id. */
function answerFailure(s: ServerState, x: Exchange, err: unknown): void {
  const { req, res } = x;
  if (err instanceof DroppedConnection) {
    // An injected fault: the connection goes away with no answer, as a real one sometimes does.
    x.outcome = 'drop';
    req.socket.destroy();
    return;
  }
  // Never the message or the stack in the answer or the log: either may carry user input.
  const id = ++s.errorReports;
  x.outcome = 500;
  s.options.log?.(`error report ${id}: ${describeError(err)}`);
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ errors: [{ message: 'An error occurred.' }], error_report_id: id }));
  } else if (!res.writableEnded) res.destroy();
}

/**
 * Answers an error without reading the request body. If the client is still sending one, the
 * answer (complete, with its length) goes out at once, but the connection is ended only when the
 * client has finished or stopped sending, or after a moment: what arrives meanwhile is thrown away.
 * Closing at once would reset the connection under a client still writing, and it could lose the
 * answer with it.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): number {
  req.removeAllListeners('data');
  req.resume();
  if (res.headersSent || res.destroyed) return status;
  const text = JSON.stringify({ errors: [{ message }] });
  const pending = !req.complete;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...(pending ? { connection: 'close' } : {}),
    ...headers,
  });
  if (!pending) {
    res.end(text);
    return status;
  }
  res.write(text);
  const end = () => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(end, LINGER_MS);
  timer.unref();
  req.once('end', end);
  req.once('close', end);
  return status;
}

const BUSY = 'the mock is receiving too many large bodies at once; try again shortly';

function isMultipart(req: IncomingMessage): boolean {
  return /^\s*multipart\/form-data\s*(;|$)/i.test(req.headers['content-type'] ?? '');
}

/**
 * Stored bytes as the body of an answer, a piece at a time, each read when the socket has taken
 * the one before. Should the pieces fall short of the announced length (the file removed by a
 * reset meanwhile), the connection is cut, so the client cannot take a short body for the file.
 */
async function sendStored(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  stored: StoredBytes,
): Promise<void> {
  res.writeHead(status, { ...headers, 'content-length': String(stored.size) });
  let sent = 0;
  for (const piece of stored.pieces()) {
    if (res.destroyed) return;
    sent += piece.byteLength;
    if (sent > stored.size) break;
    if (!res.write(piece)) await drained(res);
  }
  if (sent !== stored.size) res.destroy();
  else if (!res.destroyed) res.end();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function tooLarge(limit: number): string {
  return `the request body is larger than the limit of ${formatBytes(limit)}`;
}

export function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * The body, or why there is none: over the limit (the rest is not kept), over the shared budget
 * (`take` said no), or the client went away.
 */
function readBody(
  req: IncomingMessage,
  limit: number,
  take: (n: number) => boolean,
): Promise<Uint8Array | 'too-large' | 'busy' | 'aborted'> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (v: Uint8Array | 'too-large' | 'busy' | 'aborted') => {
      if (done) return;
      done = true;
      chunks = [];
      resolve(v);
    };
    req.on('data', (c: Buffer) => {
      if (done) return;
      total += c.byteLength;
      if (total > limit) return finish('too-large');
      if (!take(c.byteLength)) return finish('busy');
      chunks.push(c);
    });
    req.on('end', () => finish(new Uint8Array(Buffer.concat(chunks))));
    req.on('error', () => finish('aborted'));
    req.on('close', () => finish('aborted'));
  });
}

/** The path and query of a request target (origin form `/p?q`, or absolute form `http://x/p?q`). */
export function targetPath(raw: string): string | undefined {
  if (raw.startsWith('/')) return raw;
  const m = /^https?:\/\/[^/?#]*(.*)$/is.exec(raw);
  if (!m) return undefined;
  return m[1].startsWith('/') ? m[1] : `/${m[1]}`;
}

/** origin + path, as one URL whose host is the origin's, whatever the path holds (`//evil/x`, `@b`). */
function safeUrl(origin: string, path: string): URL | undefined {
  try {
    const url = new URL(origin + path);
    return url.origin === new URL(origin).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The host a Host header names when its port is the listening one (`localhost`, `127.0.0.1`, `::1`). */
export function hostHeaderName(header: string | undefined, port: number): string | undefined {
  if (!header) return undefined;
  const m = /^(localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!m || (m[2] === undefined ? 80 : Number(m[2])) !== port) return undefined;
  return m[1].replace(/^\[|\]$/g, '').toLowerCase();
}

/** An address as node reports it, IPv4-mapped IPv6 unwrapped (`::ffff:127.0.0.1` → `127.0.0.1`). */
function plainAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').toLowerCase();
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address);
}

function bracketed(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * What the log shows of a URL: unreserved escapes decoded (so `files%5Fapi` is redacted too), secrets
 * masked. Of an OAuth2 step, only the path: its query is an authorization request (state, PKCE
 * challenge) or, sent where a form belongs, a code, a verifier or a secret.
 */
function logTarget(url: URL): string {
  const path = url.pathname.replace(/%(2[dDeE]|5[fF]|7[eE]|3\d|[46][1-9a-fA-F]|[57][0-9aA])/g, (_m, h: string) =>
    String.fromCharCode(parseInt(h, 16)),
  );
  const oauth = /^\/login\/oauth2(\/|$)/i.test(path);
  const line = oauth ? redactUrl(path) + (url.search ? `?${REDACTED}` : '') : redactUrl(path + url.search);
  return line.length > 2000 ? `${line.slice(0, 2000)}…` : line;
}

/** An internal error's kind and where it was thrown, for the log: no message, no values. */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return 'a thrown non-error value';
  const name = /^[\w.]{1,40}$/.test(err.name) ? err.name : 'Error';
  const rawCode = (err as Error & { code?: unknown }).code;
  const code = typeof rawCode === 'string' && /^[A-Z0-9_]{1,40}$/.test(rawCode) ? ` ${rawCode}` : '';
  const frame = /\n\s+at (?:.*? \()?(?:file:\/\/)?([^\s()]+:\d+:\d+)\)?/.exec(err.stack ?? '')?.[1];
  return `${name}${code}${frame ? ` at ${frame.replace(/^.*\/(src|dist)\//, '$1/')}` : ''}`;
}

/** A listen failure as the user can act on it. */
export function listenError(err: NodeJS.ErrnoException, host: string, port: number): LmsError {
  switch (err.code) {
    case 'EADDRINUSE':
      return new UsageError(`port ${port} is in use; pick another with --port`);
    case 'EACCES':
      return new UsageError(
        `no permission to listen on ${host} port ${port}${port < 1024 ? ' (ports below 1024 need privileges)' : ''}` +
          '; pick another with --port',
      );
    case 'EADDRNOTAVAIL':
      return new UsageError(
        `--host ${host} is not an address of this machine; use 127.0.0.1, 0.0.0.0 or one of its own addresses`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new UsageError(`--host ${host} does not resolve to an address of this machine`);
    default:
      return new FailureError(`could not listen on ${host} port ${port}: ${err.code ?? err.message}`);
  }
}

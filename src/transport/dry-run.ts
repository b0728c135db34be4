// A dry run (`--dry-run` on a verb that writes). Reads go to the instance as usual, since a command
// resolves ids and checks what exists before it writes; the first write is kept instead of sent, and
// stops the command, because whatever it would do next depends on an answer it will not get.
// It sits under the client, so what it keeps is the request exactly as encoded for the wire.
import { exitCodeFor, LmsError } from '../errors.js';
import { isSecretParam, REDACTED, redactUrl } from '../redact.js';
import { matchRoute } from '../spec/match.js';
import { bodyText, type ApiRequest, type HttpMethod, type Transport } from './types.js';

/** The read a dry run made first says the write would fail: the run's exit code, nothing sent. */
class DryRunRefused extends LmsError {}

/** Thrown in place of an answer to the write a dry run stops at. */
export class DryRunStop extends Error {
  constructor(method: HttpMethod) {
    super(`${method} not sent (--dry-run)`);
    this.name = 'DryRunStop';
  }
}

export interface DryRun {
  /** The write the command reached, if it reached one. */
  readonly stopped: ApiRequest | undefined;
  /** The read made to tell whether that write would succeed, and its status. */
  readonly checked: { method: 'GET'; url: string; status: number } | undefined;
  wrap(inner: Transport): Transport;
}

export function createDryRun(): DryRun {
  let first: ApiRequest | undefined;
  let checked: DryRun['checked'];
  return {
    get stopped() {
      return first;
    },
    get checked() {
      return checked;
    },
    wrap: (inner) => async (req) => {
      if (req.method === 'GET') return inner(req);
      // Only the first: a later write was made after this one failed, which the real run would not see.
      if (first) throw new DryRunStop(req.method);
      // What a read can tell of the write: that its target (or, for a create, where it goes) exists
      // and the caller may see it. A refusal there is the run's exit code, and the command's error.
      const target = readBefore(req);
      if (target) {
        const res = await inner({ method: 'GET', url: target, headers: readHeaders(req.headers), dryRunCheck: true });
        checked = { method: 'GET', url: new URL(target).pathname, status: res.status };
        if (res.status >= 400) {
          throw new DryRunRefused(
            `--dry-run: GET ${checked.url} answered ${res.status}${statusWords(res.status)}, so the ${req.method} ` +
              'would fail; nothing was sent',
            exitCodeFor(res.status, false),
          );
        }
      }
      first = req;
      throw new DryRunStop(req.method);
    },
  };
}

/**
 * The read that tells whether a write would find what it acts on: for a change or a delete, the
 * same path read (a course, a section), else the object by its own id (`/accounts/1/users/7` is
 * `/users/7`); for a create, the place it goes (`POST /courses/3/enrollments`: course 3). None when
 * the route table has no such read. `as_user_id` is kept: the check is made as the write would be.
 */
function readBefore(req: ApiRequest): string | undefined {
  const url = new URL(req.url);
  const segments = url.pathname.replace(/\/+$/, '').split('/');
  const candidates =
    req.method === 'POST'
      ? [segments.slice(0, -1).join('/')]
      : [segments.join('/'), ['', 'api', 'v1', ...segments.slice(-2)].join('/')];
  const path = candidates.find((p) => p.startsWith('/api/v1/') && p !== '/api/v1' && matchRoute('GET', p));
  if (!path) return undefined;
  const query = new URLSearchParams();
  const asUser = url.searchParams.get('as_user_id');
  if (asUser) query.set('as_user_id', asUser);
  // Reading a conversation marks it read unless told not to: the check must change nothing.
  if (path.startsWith('/api/v1/conversations/')) query.set('auto_mark_as_read', 'false');
  return `${url.origin}${path}${query.size ? `?${query}` : ''}`;
}

function readHeaders(headers: ApiRequest['headers']): ApiRequest['headers'] {
  const { 'content-type': _type, 'content-length': _length, ...rest } = headers;
  return rest;
}

function statusWords(status: number): string {
  if (status === 404) return ' (not found)';
  if (status === 401 || status === 403) return ' (not allowed)';
  return '';
}

/** One field of a form or multipart body; a file is described, never shown. */
export type BodyPart = { name: string; value: string } | { name: string; file: string; size: number; type?: string };

/** A request's body as the server would read it, secrets masked. */
export type PreviewBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; text: string; pairs: [string, string][] }
  | { kind: 'multipart'; parts: BodyPart[] }
  | { kind: 'other'; contentType: string; size: number };

export interface RequestPreview {
  method: HttpMethod;
  /** Absolute, as it would be sent, with secret parameters and one-time addresses masked. */
  url: string;
  contentType?: string;
  body: PreviewBody;
  /** Whether the request carries the token (shown as `$LMS_TOKEN`, never itself). */
  authorized: boolean;
}

export function previewRequest(req: ApiRequest): RequestPreview {
  const contentType = req.headers['content-type'];
  return {
    method: req.method,
    url: req.traceUrl ?? redactUrl(req.url),
    contentType,
    body: previewBody(req.body, contentType),
    authorized: req.headers.authorization !== undefined,
  };
}

/**
 * A field whose name or any bracketed part of it names a credential: `pseudonym[password]` as much
 * as `password` (the URL redaction reads only the name before the brackets, which is right for a
 * query and not for a nested body).
 */
export function isSecretField(name: string): boolean {
  return name.split(/[[\]]+/).some((part) => part !== '' && isSecretParam(part));
}

function previewBody(body: ApiRequest['body'], contentType: string | undefined): PreviewBody {
  if (body === undefined || (typeof body !== 'string' && body.byteLength === 0) || body === '') return { kind: 'none' };
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') {
    try {
      return { kind: 'json', value: maskJson(JSON.parse(bodyText(body))) };
    } catch {
      // Not JSON after all: described like any other body below.
    }
  }
  if (type === 'application/x-www-form-urlencoded') return previewForm(bodyText(body));
  if (type === 'multipart/form-data') {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
    if (boundary) return { kind: 'multipart', parts: multipartParts(body, boundary) };
  }
  return {
    kind: 'other',
    contentType: contentType ?? 'application/octet-stream',
    size: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
  };
}

function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretParam(k) ? REDACTED : maskJson(v)]));
}

/** The form as sent, pair by pair, with a secret's value masked the way a redacted URL shows it. */
function previewForm(text: string): PreviewBody {
  const kept: string[] = [];
  const pairs: [string, string][] = [];
  for (const raw of text.split('&')) {
    if (raw === '') continue;
    const eq = raw.indexOf('=');
    const rawKey = eq === -1 ? raw : raw.slice(0, eq);
    const key = decodeFormPart(rawKey);
    const value = eq === -1 ? '' : decodeFormPart(raw.slice(eq + 1));
    const secret = isSecretField(key);
    kept.push(secret ? `${rawKey}=${REDACTED}` : raw);
    pairs.push([key, secret ? REDACTED : value]);
  }
  return { kind: 'form', text: kept.join('&'), pairs };
}

function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** The fields of a multipart body: a value as text (masked when secret), a file by name and size. */
function multipartParts(body: string | Uint8Array, boundary: string): BodyPart[] {
  // latin1 keeps one character per byte, so a file's size is its length here.
  const text =
    typeof body === 'string'
      ? Buffer.from(body, 'utf8').toString('latin1')
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  const parts: BodyPart[] = [];
  for (const chunk of text.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = chunk.slice(0, headerEnd);
    const content = chunk.slice(headerEnd + 4).replace(/\r\n$/, '');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename !== undefined) {
      const type = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1];
      parts.push({
        name,
        file: Buffer.from(filename, 'latin1').toString('utf8'),
        size: content.length,
        ...(type ? { type } : {}),
      });
    } else {
      parts.push({ name, value: isSecretField(name) ? REDACTED : Buffer.from(content, 'latin1').toString('utf8') });
    }
  }
  return parts;
}

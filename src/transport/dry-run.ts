// A dry run (`--dry-run` on a verb that writes). Reads go to the instance as usual, since a command
// resolves ids and checks what exists before it writes; the first write is kept instead of sent, and
// stops the command, because whatever it would do next depends on an answer it will not get.
// It sits under the client, so what it keeps is the request exactly as encoded for the wire.
import { isSecretParam, REDACTED, redactUrl } from '../redact.js';
import { bodyText, type ApiRequest, type HttpMethod, type Transport } from './types.js';

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
  wrap(inner: Transport): Transport;
}

export function createDryRun(): DryRun {
  let first: ApiRequest | undefined;
  return {
    get stopped() {
      return first;
    },
    wrap: (inner) => async (req) => {
      if (req.method === 'GET') return inner(req);
      // Only the first: a later write was made after this one failed, which the real run would not see.
      first ??= req;
      throw new DryRunStop(req.method);
    },
  };
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
  return { kind: 'other', contentType: contentType ?? 'application/octet-stream', size: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength };
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
  const text = typeof body === 'string' ? Buffer.from(body, 'utf8').toString('latin1') : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
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
      parts.push({ name, file: Buffer.from(filename, 'latin1').toString('utf8'), size: content.length, ...(type ? { type } : {}) });
    } else {
      parts.push({ name, value: isSecretField(name) ? REDACTED : Buffer.from(content, 'latin1').toString('utf8') });
    }
  }
  return parts;
}

// Reads answers the way a careful client of the real API must: strips the `while(1);` guard,
// tolerates every error-body shape real instances send, and reads Link headers.
import { ApiError } from '../errors.js';
import { redactText, redactUrl } from '../redact.js';
import { bodyText, type ApiResponse } from '../transport/types.js';

const JSON_GUARD = 'while(1);';

export function parseJson(text: string): unknown {
  const trimmed = text.startsWith(JSON_GUARD) ? text.slice(JSON_GUARD.length) : text;
  if (trimmed.trim() === '') return undefined;
  return JSON.parse(trimmed);
}

export function readBody(res: ApiResponse): unknown {
  if (res.status === 204) return undefined;
  if (res.json !== undefined) return res.json;
  const text = bodyText(res.body);
  const type = res.headers['content-type'] ?? '';
  if (type.includes('json') || /^\s*(while\(1\);)?[[{]/.test(text)) {
    try {
      return parseJson(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Every error shape real instances send, reduced to messages:
 * `{"errors":[{"message"}]}`, `{"errors":{"field":[{"message"}]}}` (nested by model),
 * `{"errors":"text"}`, `{"message"}`, `{"error"}`, plain text, and the bare array conversations
 * answer (`[{"attribute":"recipients","message":"blank"}]`).
 */
export function errorMessages(body: unknown): string[] {
  if (body === undefined || body === null) return [];
  if (typeof body === 'string') return body.trim() ? [body.trim().slice(0, 500)] : [];
  if (typeof body !== 'object') return [String(body)];
  if (Array.isArray(body)) {
    return body.flatMap((e) => {
      if (typeof e === 'string') return [e];
      const { attribute, message } = (e ?? {}) as Record<string, unknown>;
      if (typeof message !== 'string') return [];
      return [typeof attribute === 'string' ? `${attribute}: ${message}` : message];
    });
  }
  const record = body as Record<string, unknown>;
  if ('errors' in record) return fromErrors(record.errors, '');
  if (typeof record.message === 'string') return [record.message];
  if (typeof record.error === 'string') return [record.error];
  return [];
}

function fromErrors(errors: unknown, path: string): string[] {
  const label = (m: string) => (path ? `${path}: ${m}` : m);
  if (typeof errors === 'string') return [label(errors)];
  if (Array.isArray(errors)) {
    return errors.flatMap((e) => {
      if (typeof e === 'string') return [label(e)];
      if (e && typeof e === 'object') {
        const msg = (e as Record<string, unknown>).message;
        if (typeof msg === 'string') return [label(msg)];
        return fromErrors(e, path);
      }
      return [];
    });
  }
  if (errors && typeof errors === 'object') {
    return Object.entries(errors).flatMap(([k, v]) => fromErrors(v, path ? `${path}.${k}` : k));
  }
  return [];
}

/** Throttling is a 429, or a 403 whose body says so; any other 403 is about permission. */
export function isThrottled(status: number, text: string): boolean {
  return status === 429 || (status === 403 && /rate limit exceeded/i.test(text));
}

/**
 * `url` is what the message may show (the client passes its trace form); `secrets` are literals
 * (the token, a one-time URL) masked should the server's own messages quote them.
 */
export function toApiError(res: ApiResponse, method: string, url: string, subject?: string, secrets: (string | undefined)[] = [], tokenHint?: string): ApiError {
  const text = bodyText(res.body);
  const body = readBody(res);
  return new ApiError({
    status: res.status,
    method,
    // The message and `-o json` error output show the URL: never with a token in it.
    url: redactUrl(url),
    messages: errorMessages(body).map((m) => redactText(m, secrets)),
    body,
    throttled: isThrottled(res.status, text),
    subject,
    tokenRefused: res.status === 401 && res.headers['www-authenticate'] !== undefined,
    tokenHint,
  });
}

/**
 * `<url>; rel="next", <url>; rel="last"` → { next: url, last: url }. Relations are matched as RFC 8288
 * says, whatever their case, quoted or not, and wherever `rel` stands among the link's parameters.
 */
export function parseLinkHeader(header: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const m of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2]);
    if (!rel) continue;
    for (const name of (rel[1] ?? rel[2]).trim().toLowerCase().split(/\s+/)) links[name] = m[1];
  }
  return links;
}

// Reads answers the way a careful client of the real API must: strips the `while(1);` guard,
// tolerates every error-body shape real instances send, and reads Link headers.
import { ApiError, FailureError } from '../errors.js';
import { redactText, redactUrl } from '../redact.js';
import { bodyText, isThrottled, type ApiResponse } from '../transport/types.js';

const JSON_GUARD = 'while(1);';

/**
 * The deepest nesting of arrays and objects read from an answer. The API's deepest documented
 * shapes nest a few levels; what reads a value (error messages, tables, --jq) walks it recursively,
 * and a value nested hundreds of thousands deep would end that walk in a stack overflow.
 */
export const MAX_JSON_DEPTH = 512;
/** The most messages of an error answer shown, and the most characters of each and of all; the rest are counted. */
const MAX_MESSAGES = 10;
const MAX_MESSAGE_CHARS = 500;
const MAX_MESSAGES_CHARS = 2000;

/** An answer nested deeper than MAX_JSON_DEPTH: exit 1, naming the limit, and not parsed. */
export class TooDeepError extends FailureError {
  constructor() {
    const limit = `deeper than ${MAX_JSON_DEPTH} levels, the most lms reads`;
    super(`the instance's answer nests arrays and objects ${limit}; it was not read`, {
      hint: 'no answer of the API nests that deep: the instance, or something between it and lms, sends something else',
    });
  }
}

export function parseJson(text: string): unknown {
  const trimmed = text.startsWith(JSON_GUARD) ? text.slice(JSON_GUARD.length) : text;
  if (trimmed.trim() === '') return undefined;
  if (depthExceeds(trimmed, MAX_JSON_DEPTH)) throw new TooDeepError();
  return JSON.parse(trimmed);
}

/** Whether the JSON text's arrays and objects nest deeper than `limit`, brackets in strings not counted. */
function depthExceeds(text: string, limit: number): boolean {
  // Fewer characters than the limit cannot open that many levels.
  if (text.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Past the string: its end is the next quote not escaped.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

export function readBody(res: ApiResponse): unknown {
  if (res.status === 204) return undefined;
  if (res.json !== undefined) return res.json;
  const text = bodyText(res.body);
  const type = res.headers['content-type'] ?? '';
  if (type.includes('json') || /^\s*(while\(1\);)?[[{]/.test(text)) {
    try {
      return parseJson(text);
    } catch (err) {
      if (err instanceof TooDeepError) throw err;
      return text;
    }
  }
  return text;
}

/**
 * The JSON an operation documents, or why the answer is not it: a 2xx with no body (a 204 where
 * the API returns an object) or with something else (an HTML login page a proxy or single sign-on
 * put in the instance's place) is not a success. `asked` is `METHOD url` as messages show it.
 */
export function readDocumented(res: ApiResponse, asked: string, write: boolean): unknown {
  if (res.json !== undefined) return res.json;
  const text = res.status === 204 ? '' : bodyText(res.body);
  const outcome = write ? 'lms cannot tell whether it was written: check before running it again' : 'nothing was read';
  const hint =
    "the profile's URL may not be the instance's API (a login page or a proxy answers there): check it and the token";
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    if (err instanceof TooDeepError) throw err;
    const type = res.headers['content-type']?.split(';')[0].trim();
    const what = `${type || 'a body'} that is not JSON, where the API returns JSON`;
    throw new FailureError(`${asked}: the instance answered ${res.status} with ${what}; ${outcome}`, { hint });
  }
  if (value === undefined) {
    throw new FailureError(
      `${asked}: the instance answered ${res.status} with no body, where the API returns one; ${outcome}`,
      { hint },
    );
  }
  return value;
}

/**
 * Every error shape real instances send, reduced to messages:
 * `{"errors":[{"message"}]}`, `{"errors":{"field":[{"message"}]}}` (nested by model),
 * `{"errors":"text"}`, `{"message"}`, `{"error"}`, plain text, and the bare array conversations
 * answer (`[{"attribute":"recipients","message":"blank"}]`).
 */
export function errorMessages(body: unknown): string[] {
  return bounded(allMessages(body));
}

/**
 * At most MAX_MESSAGES messages, each and all together under their bound in characters, then one
 * saying how many more there were: an answer with 200,000 messages is a line, not a page.
 */
function bounded(messages: string[]): string[] {
  const kept: string[] = [];
  let chars = 0;
  for (const message of messages) {
    if (kept.length === MAX_MESSAGES || chars >= MAX_MESSAGES_CHARS) break;
    const room = Math.min(MAX_MESSAGE_CHARS, MAX_MESSAGES_CHARS - chars);
    // Cut between characters, never inside a surrogate pair.
    const cut = room > 0 && /[\ud800-\udbff]/.test(message[room - 1] ?? '') ? room - 1 : room;
    const text = message.length > room ? `${message.slice(0, cut)}…` : message;
    kept.push(text);
    chars += text.length;
  }
  const rest = messages.length - kept.length;
  if (rest > 0) kept.push(`and ${rest} more`);
  return kept;
}

function allMessages(body: unknown): string[] {
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

/**
 * `url` is what the message may show (the client passes its trace form); `secrets` are literals
 * (the token, a one-time URL) masked should the server's own messages quote them.
 */
export function toApiError(
  res: ApiResponse,
  method: string,
  url: string,
  subject?: string,
  secrets: (string | undefined)[] = [],
  tokenHint?: string,
): ApiError {
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

// The transport to a real instance: undici with a keep-alive pool and a timeout on every request.
// Network failures become NetworkError, marked `neverSent` when the server provably saw nothing.
import { Agent, request } from 'undici';
import { NetworkError } from '../errors.js';
import { redactText, redactUrl } from '../redact.js';
import type { ApiRequest, ApiResponse, Transport } from './types.js';

export interface HttpTransportOptions {
  /** Per-request timeout, milliseconds. */
  timeoutMs: number;
}

/** Error codes that mean the request never left this machine or was refused before any byte was read. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

export function httpTransport(options: HttpTransportOptions): Transport {
  const dispatcher = new Agent({ connections: 16, keepAliveTimeout: 10_000, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connectTimeout: options.timeoutMs });
  return async (req: ApiRequest): Promise<ApiResponse> => {
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const body = new Uint8Array(await res.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers, body };
    } catch (err) {
      throw toNetworkError(err, req, options.timeoutMs);
    }
  };
}

function toNetworkError(err: unknown, req: ApiRequest, timeoutMs: number): NetworkError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? e.name;
  const host = safeHost(req.url);
  // undici's messages may quote the URL (or, for a bad header, its value): never the token or a one-time URL.
  const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
  const detail = redactText(e.message ?? String(err), [bearer, req.url]);
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new NetworkError(`${req.method} ${host}: no answer within ${timeoutMs / 1000} s`, { code: 'ETIMEDOUT', cause: err, hint: 'raise --timeout, or check the instance' });
  }
  if (code === 'ECONNREFUSED') return new NetworkError(`${host} refused the connection`, { code, neverSent: true, cause: err, hint: 'is the base URL right, and is the server up?' });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new NetworkError(`cannot resolve ${host}`, { code, neverSent: true, cause: err });
  return new NetworkError(`${req.method} ${host}: ${detail}`, { code, neverSent: code !== undefined && NEVER_SENT.has(code), cause: err });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return redactUrl(url);
  }
}

// The transport to a real instance: the runtime's own HTTP client (node:http, node:https) with a
// keep-alive pool and a timeout on every request. Measured for one GET against a local server, it
// starts a command at 1.2× bare node and 44 MB, where the undici package took 4.0× and 96 MB and the
// built-in fetch 2.9× and 82 MB: most commands send a handful of requests, so loading is the cost.
// Network failures become NetworkError, marked `neverSent` when the server provably saw nothing.
import type { Agent } from 'node:http';
import { NetworkError } from '../errors.js';
import { redactText, redactUrl } from '../redact.js';
import type { ApiRequest, ApiResponse, Transport } from './types.js';

export interface HttpTransportOptions {
  /** Per-request timeout, milliseconds. */
  timeoutMs: number;
}

/** Error codes that mean the request never left this machine or was refused before any byte was read. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function httpTransport(options: HttpTransportOptions): Transport {
  // getBuiltinModule, not import: no ESM wrapper on the path of every real-instance command.
  const http = process.getBuiltinModule('node:http');
  let https: typeof import('node:https') | undefined;
  const agents = new Map<string, Agent>();
  const agentFor = (protocol: string): Agent => {
    let agent = agents.get(protocol);
    if (!agent) {
      const settings = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16 };
      agent = protocol === 'https:' ? new (https ??= process.getBuiltinModule('node:https')).Agent(settings) : new http.Agent(settings);
      agents.set(protocol, agent);
    }
    return agent;
  };
  return (req: ApiRequest): Promise<ApiResponse> =>
    new Promise<ApiResponse>((resolve, reject) => {
      const fail = (err: unknown) => reject(toNetworkError(err, req, options.timeoutMs));
      let url: URL;
      try {
        url = new URL(req.url);
      } catch (err) {
        fail(err);
        return;
      }
      const client = url.protocol === 'https:' ? (https ??= process.getBuiltinModule('node:https')) : http;
      const onResponse = (res: import('node:http').IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) });
        });
      };
      let outgoing: import('node:http').ClientRequest;
      try {
        // A header value the runtime refuses (a newline in a token) throws here, before anything is sent.
        outgoing = client.request(url, { method: req.method, headers: req.headers, agent: agentFor(url.protocol), signal: AbortSignal.timeout(options.timeoutMs) }, onResponse);
      } catch (err) {
        fail(err);
        return;
      }
      outgoing.on('error', fail);
      outgoing.end(req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength));
    });
}

function toNetworkError(err: unknown, req: ApiRequest, timeoutMs: number): NetworkError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? e.name;
  const host = safeHost(req.url);
  // The runtime's messages may quote the URL (or, for a bad header, its value): never the token or a one-time URL.
  const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
  const detail = redactText(e.message ?? String(err), [bearer, req.url]);
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'ABORT_ERR' || code === 'ETIMEDOUT') {
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

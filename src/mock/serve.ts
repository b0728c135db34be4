// `lms mock serve`: the same handler over HTTP on loopback, so other clients and CI jobs can use it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { redactUrl } from '../redact.js';
import type { ApiRequest, HttpMethod } from '../transport/types.js';
import { DroppedConnection } from './faults.js';
import type { MockHandler } from './handler.js';

export interface ServeOptions {
  handler: MockHandler;
  host: string;
  port: number;
  /** One line per request. */
  log?: (line: string) => void;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);

export function serveMock(options: ServeOptions): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const started = performance.now();
    let status: number | 'drop' = 500;
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      if (!METHODS.has(method)) {
        status = 405;
        res.writeHead(405, { 'content-type': 'application/json', allow: [...METHODS].join(', ') });
        res.end(JSON.stringify({ errors: [{ message: `method ${method} is not supported` }] }));
        return;
      }
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      // Links in replies are built from the host the client used.
      const host = req.headers.host ?? `${options.host}:${options.port}`;
      const apiReq: ApiRequest = { method: method as HttpMethod, url: `http://${host}${req.url ?? '/'}`, headers, body: body.byteLength ? body : undefined };
      const answer = await options.handler(apiReq);
      status = answer.status;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    } catch (err) {
      if (err instanceof DroppedConnection) {
        // An injected fault: the connection goes away with no answer, as a real one sometimes does.
        status = 'drop';
        req.socket.destroy();
        return;
      }
      status = 500;
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: `internal mock error: ${(err as Error).message}` }] }));
    } finally {
      options.log?.(`${req.method} ${redactUrl(req.url ?? '/')} ${status} ${Math.round(performance.now() - started)}ms`);
    }
  });
  server.keepAliveTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({ server, url: `http://${host}:${port}` });
    });
  });
}

function readBody(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

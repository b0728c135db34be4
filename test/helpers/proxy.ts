// A forwarding proxy on loopback for tests, as a school's would be: CONNECT tunnels for https,
// absolute-form requests for plain http. It records what it was asked (and the Proxy-Authorization
// it was sent), may demand credentials (407) and may refuse tunnels (403).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  port: number;
  /** Every request it was asked to carry: `CONNECT host:port` or `GET http://host:port/path`. */
  seen: string[];
  /** The Proxy-Authorization header of each, as sent ('' when none). */
  authorizations: string[];
  /** How many client connections it accepted. */
  connections(): number;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** `user:password`: anything else is answered 407. */
  credentials?: string;
  /** Answer every CONNECT with this status instead of opening the tunnel. */
  refuseConnect?: number;
  /** Answer every plain http request with this status itself, instead of forwarding it. */
  refuseRequests?: number;
  /**
   * How its own answers (a refused request, an instance it cannot reach: 502) say they are its own:
   * RFC 9209's Proxy-Status (the default), Squid's X-Squid-Error, or not at all.
   */
  marks?: 'proxy-status' | 'squid' | 'none';
}

/** The headers of the proxy's own answer, marked as `marks` says. */
function ownAnswer(status: number, marks: TestProxyOptions['marks']): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'text/html', 'content-length': '0' };
  if (marks === 'squid') headers['x-squid-error'] = status === 403 ? 'ERR_ACCESS_DENIED 0' : 'ERR_CONNECT_FAIL 111';
  else if (marks !== 'none')
    headers['proxy-status'] = `test-proxy; error=${status === 403 ? 'http_request_denied' : 'destination_unavailable'}`;
  return headers;
}

export async function startProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const seen: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;
  const allowed = (req: IncomingMessage) => {
    const given = req.headers['proxy-authorization'] ?? '';
    authorizations.push(given);
    return expected === undefined || given === expected;
  };

  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"', 'content-length': '0' });
      res.end();
      return;
    }
    if (options.refuseRequests) {
      res.writeHead(options.refuseRequests, ownAnswer(options.refuseRequests, options.marks));
      res.end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-length': '0' });
      res.end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502, ownAnswer(502, options.marks));
      res.end();
    });
    req.pipe(forward);
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    if (!allowed(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\n' +
          'Content-Length: 0\r\n\r\n',
      );
      return;
    }
    if (options.refuseConnect) {
      client.end(`HTTP/1.1 ${options.refuseConnect} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = splitHostPort(req.url ?? '');
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    authorizations,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function splitHostPort(target: string): [string, number] {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
  return m ? [m[1], Number(m[2])] : [target, 443];
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode, NetworkError } from '../../src/errors.js';
import { httpTransport } from '../../src/transport/http.js';
import { bodyText } from '../../src/transport/types.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('httpTransport', () => {
  it('sends method, headers and body, and answers with lower-cased headers', async () => {
    const base = await listen(async (req, res) => {
      const body = await readAll(req);
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Rate-Limit-Remaining', '650.5');
      res.setHeader('Link', '<http://x/?page=2>; rel="next"');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.writeHead(200);
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          auth: req.headers.authorization,
          type: req.headers['content-type'],
          body,
        }),
      );
    });
    const transport = httpTransport({ timeoutMs: 2000 });
    const res = await transport({
      method: 'PUT',
      url: `${base}/api/v1/users/self?as_user_id=3`,
      headers: { authorization: 'Bearer t', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user%5Bname%5D=Z',
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(bodyText(res.body))).toEqual({
      method: 'PUT',
      url: '/api/v1/users/self?as_user_id=3',
      auth: 'Bearer t',
      type: 'application/x-www-form-urlencoded',
      body: 'user%5Bname%5D=Z',
    });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-rate-limit-remaining']).toBe('650.5');
    expect(res.headers.link).toBe('<http://x/?page=2>; rel="next"');
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
    for (const name of Object.keys(res.headers)) expect(name).toBe(name.toLowerCase());
  });

  it('hands back an error status as an answer, not a throw', async () => {
    const base = await listen((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"errors":[{"message":"nope"}]}');
    });
    const res = await httpTransport({ timeoutMs: 2000 })({ method: 'GET', url: `${base}/missing`, headers: {} });
    expect(res.status).toBe(404);
    expect(bodyText(res.body)).toBe('{"errors":[{"message":"nope"}]}');
  });

  it('sends bytes as given', async () => {
    const base = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      res.end(Buffer.concat(chunks).toString('hex'));
    });
    const res = await httpTransport({ timeoutMs: 2000 })({
      method: 'POST',
      url: `${base}/up`,
      headers: {},
      body: new Uint8Array([0, 1, 254, 255]),
    });
    expect(bodyText(res.body)).toBe('0001feff');
  });

  it('gives up on a server that never answers with a NetworkError (exit 7)', async () => {
    const base = await listen(() => {
      /* never answers */
    });
    const started = Date.now();
    const error = await httpTransport({ timeoutMs: 200 })({ method: 'GET', url: `${base}/slow`, headers: {} }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toBeInstanceOf(NetworkError);
    const e = error as NetworkError;
    expect(e.exitCode).toBe(ExitCode.network);
    expect(e.exitCode).toBe(7);
    expect(e.code).toBe('ETIMEDOUT');
    expect(e.neverSent).toBe(false);
    expect(e.message).toBe(`GET ${new URL(base).host}: no answer within 0.2 s`);
  });

  it('reports a refused connection as a NetworkError that never reached the server', async () => {
    const base = await listen(() => undefined);
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await httpTransport({ timeoutMs: 2000 })({
      method: 'POST',
      url: `${base}/api/v1/x`,
      headers: {},
      body: 'a=1',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const e = error as NetworkError;
    expect(e.exitCode).toBe(7);
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.neverSent).toBe(true);
    expect(e.message).toBe(`${new URL(base).host} refused the connection`);
  });

  it.each([
    ['a URL it cannot parse', 'http://exa mple.edu/x?access_token=SEKRIT', {}],
    ['a header value it refuses', 'http://127.0.0.1:1/x?access_token=SEKRIT', { authorization: 'Bearer SEKRIT\n' }],
  ])('keeps secrets out of the NetworkError for %s', async (_what, url, headers) => {
    const error = await httpTransport({ timeoutMs: 2000 })({ method: 'GET', url, headers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const e = error as NetworkError;
    expect(`${e.message} ${e.hint ?? ''} ${JSON.stringify(e.toJSON())}`).not.toContain('SEKRIT');
  });
});

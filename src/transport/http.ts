// The transport to a real instance: the runtime's own HTTP client (node:http, node:https) with a
// keep-alive pool and a timeout on every request. Measured for one GET against a local server, it
// starts a command at 1.2× bare node and 44 MB, where the undici package took 4.0× and 96 MB and the
// built-in fetch 2.9× and 82 MB: most commands send a handful of requests, so loading is the cost.
// Network failures become NetworkError, marked `neverSent` when the server provably saw nothing.
//
// Proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY; see ./proxy.ts) are read on the first request, and a
// CA file (LMS_CA_FILE, the profile's, curl's CURL_CA_BUNDLE or SSL_CERT_FILE; see caFileOf and
// ./trust.ts) on the first https one; their modules are loaded only when one is set: a command on a
// machine with neither pays for neither, and a CA variable set for curl stops no plain http command.
//
// With a CA file named for lms, an https origin is first tried with a context trusting the file's
// certificates alone; a certificate refused by it is tried once more, the same request, with Node's
// roots and the file's together, and that origin keeps the second context for the rest of the
// process. The instance is trusted exactly when one of the two trusts it, as it would be by the
// second alone; the error of a real refusal is the second's. (A bundle named by curl's variables
// goes with the second alone: see ./trust.ts.) Sending the request again is safe for any method:
// no byte of it reaches the server before the client has verified the certificate. Node's client
// completes the handshake without verifying (SSL_VERIFY_NONE), holds the request written meanwhile
// as pending cleartext in its TLSWrap, and checks the chain in _tls_wrap's onConnectSecure, called
// synchronously from the handshake-done callback; a refused chain destroys the socket there, before
// the pending cleartext is handed to SSL_write (test/e2e/https.test.ts counts requests server-side).
import * as http from 'node:http';
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { SecureContext } from 'node:tls';
import { formatBytes } from '../bytes.js';
import { FailureError, NetworkError, UsageError } from '../errors.js';
import { CERTIFICATE_ERROR } from '../net.js';
import { redactText, redactUrl } from '../redact.js';
import type { ProxyServer, ProxySettings } from './proxy.js';
import { caFileLabel, caFileOf, type CaFile } from './ca-file.js';
import { secondsOf, type ApiRequest, type ApiResponse, type Transport } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface HttpTransportOptions {
  /**
   * The most one try may take, from connecting to the answer's last byte, milliseconds; a request's `deadline` may end
   * it sooner.
   */
  timeoutMs: number;
  /**
   * The most connecting may take (to the proxy and through it, TLS included); CONNECT_TIMEOUT_MS unless less than
   * timeoutMs.
   */
  connectTimeoutMs?: number;
  /** Where proxy variables and the CA variables are read; the process's environment unless given. */
  env?: Env;
  /** The profile's (or the flag's) CA file; LMS_CA_FILE, when set, is used instead. See caFileOf. */
  caFile?: CaFile;
  /** `-v`: the CA file trusted, and how each host is reached (directly, or through which proxy), once per host. */
  trace?: (line: string) => void;
  /**
   * `--insecure` (or a profile added with it): the token may go over plain http through a proxy.
   * Otherwise a request carrying it is refused before it is sent there, whatever the host: the
   * proxy reads every header of a plain http request, loopback instance or not.
   */
  insecure?: boolean;
}

/** The most bytes of one answer read (LMS_MAX_BODY sets it): no page or object of the API comes near it. */
export const DEFAULT_MAX_BODY = 64 * 1024 * 1024;

/** The most connecting to an instance may take, unless --timeout is shorter: a connection takes a round trip or two. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Any of these set (and not empty) may send a request through a proxy; see ./proxy.ts for how they are read. */
export const PROXY_VARIABLES = [
  'https_proxy',
  'HTTPS_PROXY',
  'http_proxy',
  'HTTP_PROXY',
  'all_proxy',
  'ALL_PROXY',
] as const;

/** Error codes that mean the request never left this machine or was refused before any byte was read. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** What the first request reads and loads, once. */
interface Setup {
  /** The proxy module, and each scheme's settings as its first request reads them. */
  proxy?: { settings: Partial<Record<'https' | 'http', ProxySettings>>; module: typeof import('./proxy.js') };
}

/**
 * A CA file's trust, read on the first https request: a context of its certificates alone, tried
 * first (not for a bundle), and Node's roots with them, built when first needed (undefined when
 * Node's default context trusts them all already).
 */
interface CaTrust {
  caFile: CaFile;
  own?: SecureContext;
  full: () => SecureContext | undefined;
}

/** Which context an https request goes with: the CA file's alone, or Node's roots with it. */
type Trust = 'own' | 'full';

export function httpTransport(options: HttpTransportOptions): Transport {
  const env = options.env ?? process.env;
  const maxBody = maxBodyOf(env.LMS_MAX_BODY);
  // Loaded on the first https request: a plain-http instance (the mock, a proxy's) never needs TLS.
  let https: typeof import('node:https') | undefined;
  const httpsModule = () => {
    https ??= process.getBuiltinModule('node:https');
    return https;
  };
  const caFile = caFileOf(env, options.caFile);
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, options.timeoutMs);
  let setup: Promise<Setup> | undefined;
  const prepare = async (): Promise<Setup> =>
    PROXY_VARIABLES.some((name) => env[name]) ? { proxy: { settings: {}, module: await import('./proxy.js') } } : {};
  let caTrust: Promise<CaTrust | undefined> | undefined;
  const prepareTrust = async (): Promise<CaTrust | undefined> => {
    if (!caFile) return undefined;
    const trust = await import('./trust.js');
    const certs = trust.readCaFile(caFile);
    let built = false;
    let full: SecureContext | undefined;
    const fullContext = () => {
      if (!built) [built, full] = [true, trust.contextTrusting(certs)];
      return full;
    };
    if (caFile.bundle) {
      const lacking = fullContext() ? '' : ' (it holds no authority they lack)';
      options.trace?.(`TLS: trusting ${caFileLabel(caFile)} besides Node's own roots${lacking}`);
      return { caFile, full: fullContext };
    }
    options.trace?.(`TLS: trusting ${caFileLabel(caFile)} besides Node's own roots`);
    return { caFile, own: trust.contextOf(certs), full: fullContext };
  };
  const agents = new Map<string, Agent>();
  const settings = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16 };
  // One pool per scheme, per proxy and per context: a kept-alive connection (or tunnel) serves the next request.
  const agentFor = (
    protocol: string,
    ready: Setup,
    proxy: ProxyServer | undefined,
    caTrust: CaTrust | undefined,
    trust: Trust | undefined,
  ): Agent => {
    const key = `${protocol}|${proxy ? `${proxy.hostname}:${proxy.port}` : ''}|${trust ?? ''}`;
    let agent = agents.get(key);
    if (!agent) {
      const secureContext = trust && caTrust ? (trust === 'own' ? caTrust.own : caTrust.full()) : undefined;
      const tls = { ...settings, ...(secureContext ? { secureContext } : {}) };
      if (protocol === 'https:' && proxy)
        agent = ready.proxy!.module.tunnelAgent(proxy, { timeoutMs: options.timeoutMs, agent: tls });
      else if (protocol === 'https:') agent = new (httpsModule().Agent)(tls);
      else agent = new http.Agent(settings);
      agents.set(key, agent);
    }
    return agent;
  };
  const traced = new Set<string>();
  // The https origins whose certificate the CA file's context alone refused.
  const needRoots = new Set<string>();

  return async (req: ApiRequest): Promise<ApiResponse> => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch (err) {
      throw toNetworkError(err, req, { connectMs: 0, answerMs: 0 });
    }
    setup ??= prepare();
    const ready = await setup;
    if (url.protocol === 'https:') caTrust ??= prepareTrust();
    const trusted = url.protocol === 'https:' ? await caTrust : undefined;
    // Only the variables of this request's scheme are read: a malformed one of the other stops nothing.
    const scheme = url.protocol === 'https:' ? 'https' : 'http';
    if (ready.proxy) ready.proxy.settings[scheme] ??= ready.proxy.module.readProxySettings(env, [scheme]);
    const route = ready.proxy?.module.routeFor(ready.proxy.settings[scheme]!, url);
    if (route && options.trace && !traced.has(url.host)) {
      traced.add(url.host);
      options.trace(`${url.host}: ${ready.proxy!.module.describeRoute(route)}`);
    }
    const proxy = route?.kind === 'proxy' ? route.proxy : undefined;
    if (proxy && url.protocol === 'http:' && req.headers.authorization && !options.insecure) {
      const through = `through the proxy ${proxy.shown} (from ${proxy.variable}) to ${url.host}`;
      throw new UsageError(`refusing to send the token over plain http ${through}: the proxy would read it`, {
        hint:
          `use an https:// URL (a tunnel through the proxy stays encrypted end to end), add ${url.hostname} to ` +
          'NO_PROXY, ' +
          'or pass --insecure if you accept that',
      });
    }
    const shown = () => `${req.method} ${req.traceUrl ?? redactUrl(req.url)}`;
    const send = (trust: Trust | undefined) =>
      new Promise<ApiResponse>((resolve, reject) => {
        let outgoing: ClientRequest | undefined;
        // One deadline for the whole exchange, from now (or the call's, when that comes first): the
        // connection (to the proxy, and its CONNECT answer), the TLS handshake, and every byte of the
        // answer. A socket's idle timeout would be reset by each byte a trickling peer sends; an
        // AbortSignal given to the request acts only once the request has a socket, which a tunnel
        // gets only after the proxy has answered. Connecting has a shorter bound of its own: a host
        // that never completes a connection is known to be out of reach long before an answer is due,
        // and a retry may find it (another address, a network back) within the same deadline.
        const started = Date.now();
        const deadline = Math.min(started + options.timeoutMs, req.deadline ?? Infinity);
        const connectBy = Math.min(started + connectTimeoutMs, deadline);
        const spans = { answerMs: deadline - started, connectMs: connectBy - started };
        let connected = false;
        const expire = (phase: 'connect' | 'answer') => {
          if (phase === 'connect' && connected) return;
          // Before the tunnel exists, it is the proxy that has not answered.
          const tunnelling = proxy !== undefined && url.protocol === 'https:' && !outgoing?.socket;
          const error = tunnelling
            ? Object.assign(new Error('proxy timeout'), { code: 'ERR_PROXY_TIMEOUT' })
            : connected
              ? Object.assign(new Error(`no answer within ${secondsOf(spans.answerMs)} s`), { name: 'TimeoutError' })
              : Object.assign(new Error(`could not connect within ${secondsOf(spans.connectMs)} s`), {
                  code: proxy && url.protocol === 'http:' ? 'ERR_PROXY_CONNECT_TIMEOUT' : 'ERR_CONNECT_TIMEOUT',
                });
          fail(error);
          outgoing?.destroy(error);
        };
        const connectTimer = setTimeout(() => expire('connect'), Math.max(0, connectBy - started));
        const timer = setTimeout(() => expire('answer'), Math.max(0, deadline - started));
        const clearTimers = () => {
          clearTimeout(connectTimer);
          clearTimeout(timer);
        };
        const fail = (err: unknown) => {
          clearTimers();
          reject(
            (proxy && ready.proxy!.module.proxyUnreachable(proxy, err, spans.connectMs)) ||
              toNetworkError(err, req, spans, trusted?.caFile),
          );
        };
        // Not a NetworkError: the answer came, and is refused as it is; asking again would bring the same.
        const tooLarge = (res: IncomingMessage) => {
          clearTimers();
          const sent = req.method === 'GET' ? '' : ' (the request itself was sent)';
          const limit = `larger than ${formatBytes(maxBody)}, the most lms reads of one answer`;
          reject(
            new FailureError(`${shown()}: the instance's answer is ${limit}; the rest was not read${sent}`, {
              hint:
                "no answer of the API is that large: check the profile's URL; " +
                'if the instance really sends such answers, raise LMS_MAX_BODY (bytes, or with K, M or G)',
            }),
          );
          res.destroy();
          outgoing?.destroy();
        };
        const onResponse = (res: IncomingMessage) => {
          // Through a proxy, plain http: a 407 is the proxy's, not the instance's; so is a 403 or 5xx it marks as its
          // own.
          const own =
            proxy && url.protocol === 'http:'
              ? res.statusCode === 407
                ? { sent: false }
                : ready.proxy!.module.ownRefusal(res.statusCode ?? 0, res.headers)
              : undefined;
          if (own) {
            res.resume();
            fail(ready.proxy!.module.proxyRefusal(proxy!, url.host, res.statusCode ?? 0, own.sent));
            return;
          }
          // Counted as it streams: neither a Content-Length nor its absence is trusted.
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBody) {
            tooLarge(res);
            return;
          }
          const chunks: Buffer[] = [];
          let length = 0;
          res.on('data', (chunk: Buffer) => {
            length += chunk.length;
            if (length > maxBody) tooLarge(res);
            else chunks.push(chunk);
          });
          res.on('error', fail);
          res.on('end', () => {
            clearTimers();
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
            const body = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers,
              body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
            });
          });
        };
        const agent = agentFor(url.protocol, ready, proxy, trusted, trust);
        try {
          // A header value the runtime refuses (a newline in a token) throws here, before anything is sent.
          if (proxy && url.protocol === 'http:') {
            // Plain http through a proxy: the request in absolute form, to the proxy.
            const headers = {
              ...req.headers,
              host: url.host,
              ...(proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {}),
            };
            outgoing = http.request(
              {
                host: proxy.hostname,
                port: proxy.port,
                method: req.method,
                path: `${url.origin}${url.pathname}${url.search}`,
                headers,
                agent,
              },
              onResponse,
            );
          } else {
            const client = url.protocol === 'https:' ? httpsModule() : http;
            // The bound on connecting reaches a tunnel agent's CONNECT (./proxy.ts), which the request's options are
            // handed to.
            const requestOptions: RequestOptions & { deadline: number } = {
              method: req.method,
              headers: req.headers,
              agent,
              deadline: connectBy,
            };
            outgoing = client.request(url, requestOptions, onResponse);
          }
        } catch (err) {
          fail(err);
          return;
        }
        // Connected once the socket is (over TLS, once the handshake is done); a kept-alive one is.
        outgoing.once('socket', (socket) => {
          if (outgoing!.reusedSocket) connected = true;
          else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (connected = true));
        });
        outgoing.on('error', fail);
        outgoing.end(
          req.body === undefined
            ? undefined
            : typeof req.body === 'string'
              ? req.body
              : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength),
        );
      });
    if (!trusted) return send(undefined);
    if (!trusted.own || needRoots.has(url.origin)) return send('full');
    try {
      return await send('own');
    } catch (err) {
      // Any refusal of the chain, not only a missing anchor: other roots may build another path
      // (a cross-signed one, past an expired root in the file).
      if (!(err instanceof NetworkError && err.code !== undefined && CERTIFICATE_ERROR.test(err.code))) throw err;
      needRoots.add(url.origin);
      return send('full');
    }
  };
}

/** The time one try had: to connect, and to be answered (its deadline). */
interface Spans {
  connectMs: number;
  answerMs: number;
}

function toNetworkError(err: unknown, req: ApiRequest, spans: Spans, caFile?: CaFile): NetworkError {
  // Already said in the transport's own words (a proxy's refusal).
  if (err instanceof NetworkError) return err;
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? e.name;
  const host = safeHost(req.url);
  // The runtime's messages may quote the URL (or, for a bad header, its value): never the token or a one-time URL.
  const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
  const detail = redactText(e.message ?? String(err), [bearer, req.url]);
  if (code === 'ERR_CONNECT_TIMEOUT') {
    return new NetworkError(`${req.method} ${host}: could not connect within ${secondsOf(spans.connectMs)} s`, {
      code: 'ETIMEDOUT',
      neverSent: true,
      cause: err,
      hint: 'is the host up, and reachable from here (a firewall, a VPN, a proxy to set)?',
    });
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'ABORT_ERR' || code === 'ETIMEDOUT') {
    return new NetworkError(`${req.method} ${host}: no answer within ${secondsOf(spans.answerMs)} s`, {
      code: 'ETIMEDOUT',
      cause: err,
      hint: 'raise --timeout, or check the instance',
    });
  }
  if (code === 'ECONNREFUSED')
    return new NetworkError(`${host} refused the connection`, {
      code,
      neverSent: true,
      cause: err,
      hint: 'is the base URL right, and is the server up?',
    });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new NetworkError(`cannot resolve ${host}`, { code, neverSent: true, cause: err });
  if (code !== undefined && CERTIFICATE_ERROR.test(code)) {
    // An expired or not-yet-valid certificate is as often this machine's date as the server's.
    const date = /^CERT_(HAS_EXPIRED|NOT_YET_VALID)$/.test(code) ? "check this machine's date and time first; " : '';
    const ca = caFile?.bundle
      ? `neither Node's own roots nor ${caFileLabel(caFile)} vouch for it: is the authority that issued the ` +
        `instance's certificate in that bundle? LMS_CA_FILE=FILE trusts one besides`
      : caFile
        ? `${caFileLabel(caFile)} does not vouch for it: is it the authority that issued the instance's certificate?`
        : "if your organisation issues the instance's certificate, trust its certificate authority: " +
          'LMS_CA_FILE=FILE, `lms profile add NAME --url URL --ca-file FILE`, or NODE_EXTRA_CA_CERTS=FILE (a PEM ' +
          'file)';
    return new NetworkError(`cannot verify the TLS certificate of ${host} (${code}): ${detail}`, {
      code,
      neverSent: true,
      cause: err,
      hint: `${date}${ca}`,
    });
  }
  return new NetworkError(`${req.method} ${host}: ${detail}`, {
    code,
    neverSent: code !== undefined && NEVER_SENT.has(code),
    cause: err,
  });
}

/** LMS_MAX_BODY: bytes, or a number of K, M or G (KiB, MiB, GiB); unset or empty, DEFAULT_MAX_BODY. */
export function maxBodyOf(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_MAX_BODY;
  const m = /^\s*(\d+)\s*(?:([kmg])(?:i?b)?|b)?\s*$/i.exec(value);
  const bytes = m ? Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] ?? ' ').toLowerCase()) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(`LMS_MAX_BODY is not a size: "${value}"`, {
      hint: 'give the most bytes one answer may have, e.g. 134217728 or 128M (the default is 64M)',
    });
  }
  return bytes;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return redactUrl(url);
  }
}

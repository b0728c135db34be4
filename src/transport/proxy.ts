// Proxies as curl reads them from the environment, for the transport to a real instance. Loaded
// only when one of PROXY_VARIABLES is set (src/transport/http.ts checks), so a command on a machine
// without a proxy pays nothing for it.
//
// - https targets: https_proxy, then HTTPS_PROXY; http targets: http_proxy, then HTTP_PROXY; then
//   all_proxy, ALL_PROXY for either. Lower case wins where both are set, as in curl. Unlike curl,
//   HTTP_PROXY is read (gh, Go and aws-cli read it, and users expect it), except where REQUEST_METHOD
//   says this runs as a CGI script, whose HTTP_PROXY a client may set with a `Proxy:` header.
// - An empty variable is not set. A proxy URL without a scheme is http://; without a port, 1080
//   (curl's default). Only http:// proxies: https targets go through a CONNECT tunnel, so TLS is
//   end to end; socks and https:// proxies are refused with a message rather than ignored.
// - Credentials in the proxy URL (percent-decoded) go as `Proxy-Authorization: Basic …`, on the
//   CONNECT and on an http request sent through; messages show the proxy as http://[REDACTED]@host:port.
// - no_proxy, then NO_PROXY, matched as curl's lib/noproxy.c matches it: the whole value `*` for
//   every host (a `*` among other entries matches nothing, as in curl); entries separated by commas
//   or blanks. A host name entry matches itself and every name under it, case aside, its leading and
//   trailing dots ignored (`example.edu`, `.example.edu` and `example.edu.` all match example.edu
//   and lms.example.edu, never notexample.edu), and it matches host names only: `.0.0.1` does not
//   match 127.0.0.1. An address is matched by addresses: the same address, or a CIDR block holding
//   it (`10.0.0.0/8`, `::1/64`; a prefix of 0 is the address alone, as curl reads it). No name is
//   resolved to match an address, and loopback is proxied like any other host unless NO_PROXY
//   names it. Beyond curl: `*.example.edu` as `.example.edu` (Go and Python read it so), `:port`
//   after any entry to match that port only, and `[::1]` in brackets (needed before a port). An
//   entry that is none of these is refused with a message naming it, where curl skips it.
//
// Written here rather than taken from https-proxy-agent, http-proxy-agent and proxy-from-env: those
// three cost 1.3x the CPU of loading node:http/https/tls alone and 7 MB more (they bring debug and
// agent-base), where this module costs nothing measurable; proxy-from-env also reads npm's own
// npm_config_*proxy variables, has no CIDR blocks and cannot say which variable it used; and
// https-proxy-agent hands a refused CONNECT's answer to the request as if the instance had sent it.
import * as http from 'node:http';
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { NetworkError, UsageError } from '../errors.js';
import { REDACTED } from '../redact.js';
import { secondsOf } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProxyServer {
  hostname: string;
  port: number;
  /** As every message shows it: `http://[REDACTED]@proxy.example.edu:3128` when it carries credentials. */
  shown: string;
  /** The variable it was read from. */
  variable: string;
  /** `Basic …`, when the URL carries credentials. */
  authorization?: string;
}

export type NoProxyEntry =
  | { kind: 'all'; text: string }
  | { kind: 'name'; name: string; port?: number; text: string }
  | { kind: 'address'; address: string; prefix?: number; port?: number; text: string };

export interface ProxySettings {
  https?: ProxyServer;
  http?: ProxyServer;
  /** The variable NO_PROXY was read from, and its entries. */
  noProxy?: { variable: string; entries: NoProxyEntry[] };
}

/** How one target is reached. */
export type ProxyRoute =
  | { kind: 'proxy'; proxy: ProxyServer }
  | { kind: 'direct'; reason: 'none' }
  | { kind: 'direct'; reason: 'no_proxy'; variable: string; entry: string };

/** The first of these that is set (and not empty) names the proxy for that scheme. */
function candidates(scheme: 'https' | 'http', env: Env): string[] {
  const own =
    scheme === 'https'
      ? ['https_proxy', 'HTTPS_PROXY']
      : env.REQUEST_METHOD
        ? ['http_proxy']
        : ['http_proxy', 'HTTP_PROXY'];
  return [...own, 'all_proxy', 'ALL_PROXY'];
}

const first = (names: string[], env: Env) => names.find((name) => env[name] !== undefined && env[name] !== '');

/**
 * Reads the proxy variables of the schemes asked for (both by default); a malformed one (the one
 * that wins for its scheme) is a usage error naming it. A variable of a scheme not asked for is not
 * read: `ALL_PROXY=socks5://…` set for other programs does not stop an https instance's commands.
 */
export function readProxySettings(env: Env, schemes: readonly ('https' | 'http')[] = ['https', 'http']): ProxySettings {
  const settings: ProxySettings = {};
  for (const scheme of schemes) {
    const variable = first(candidates(scheme, env), env);
    if (variable) settings[scheme] = parseProxyUrl(variable, env[variable]!);
  }
  // NO_PROXY matters only when a proxy is set: one that would refuse a run otherwise (a desktop's
  // `<local>`, say) stops nothing when every request goes direct anyway.
  const noVariable = settings.https || settings.http ? first(['no_proxy', 'NO_PROXY'], env) : undefined;
  if (noVariable) settings.noProxy = { variable: noVariable, entries: parseNoProxy(env[noVariable]!, noVariable) };
  return settings;
}

/**
 * The proxy URL with whatever precedes its last `@` masked: safe to print even when it does not
 * parse. The last `@` of the whole value, not of the authority alone: a password with an unencoded
 * `/`, `?` or `#` (the very mistake that makes the URL not parse, or parse as another host) would
 * otherwise be printed. A proxy URL has no path whose `@` this could hide.
 */
export function maskProxyUrl(raw: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(raw)?.[0] ?? '';
  const rest = raw.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  return at === -1 ? raw : `${scheme}${REDACTED}@${rest.slice(at + 1)}`;
}

export function parseProxyUrl(variable: string, raw: string): ProxyServer {
  const value = raw.trim();
  const shownRaw = maskProxyUrl(value);
  const hint =
    `set ${variable} to the proxy's address, e.g. http://proxy.example.edu:3128 (or ` +
    'http://USER:PASSWORD@proxy.example.edu:3128), or unset it';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http') {
    throw new UsageError(`${variable} names a ${scheme}:// proxy (${shownRaw}), which lms does not support`, {
      hint: 'use an http:// proxy: https requests go through it in a CONNECT tunnel, encrypted end to end',
    });
  }
  let url: URL | undefined;
  try {
    url = new URL(scheme ? value : `http://${value}`);
  } catch {
    url = undefined;
  }
  if (!url?.hostname) throw new UsageError(`${variable} is not a proxy URL: "${shownRaw}"`, { hint });
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new UsageError(`${variable} has a malformed percent-escape in its credentials`, {
      hint: 'percent-encode each special character of the user and password, e.g. %40 for @',
    });
  }
  const port = url.port ? Number(url.port) : 1080;
  const credentials = url.username !== '' || url.password !== '';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    hostname,
    port,
    variable,
    shown: `http://${credentials ? `${REDACTED}@` : ''}${url.hostname}:${port}`,
    ...(credentials ? { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } : {}),
  };
}

/** NO_PROXY's entries; one that is neither a name nor an address is a usage error. */
export function parseNoProxy(value: string, variable = 'NO_PROXY'): NoProxyEntry[] {
  if (value.trim() === '*') return [{ kind: 'all', text: '*' }];
  const entries: NoProxyEntry[] = [];
  for (const text of value.split(/[\s,]+/).filter(Boolean)) {
    if (text === '*') continue;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    const cidr = /^([^/]+)\/(\d{1,3})$/.exec(text);
    const withPort = /^([^:]+):(\d+)$/.exec(text);
    if (bracketed && net.isIP(bracketed[1]))
      entries.push({ kind: 'address', address: bracketed[1], port: portOf(bracketed[2]), text });
    else if (cidr && net.isIP(cidr[1]) && Number(cidr[2]) <= (net.isIP(cidr[1]) === 4 ? 32 : 128))
      entries.push({ kind: 'address', address: cidr[1], prefix: Number(cidr[2]), text });
    else if (net.isIP(text)) entries.push({ kind: 'address', address: text, text });
    else if (withPort && net.isIP(withPort[1]))
      entries.push({ kind: 'address', address: withPort[1], port: portOf(withPort[2]), text });
    else {
      const [host, port] = withPort ? [withPort[1], withPort[2]] : [text, undefined];
      const name = host
        .toLowerCase()
        .replace(/^\*?\./, '')
        .replace(/\.$/, '');
      if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name))
        throw new UsageError(`${variable} has an entry that is neither a host name nor an address: "${text}"`, {
          hint: 'list hosts, .domains, IP addresses or CIDR blocks, each with an optional :port, separated by commas',
        });
      entries.push({ kind: 'name', name, port: portOf(port), text });
    }
  }
  return entries;
}

const portOf = (text: string | undefined) => (text === undefined ? undefined : Number(text));

/** The entry of NO_PROXY that matches the host and port, if one does. */
export function noProxyMatch(entries: NoProxyEntry[], hostname: string, port: number): NoProxyEntry | undefined {
  const host = hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
  const family = net.isIP(host);
  return entries.find((entry) => {
    if (entry.kind === 'all') return true;
    if (entry.port !== undefined && entry.port !== port) return false;
    // A name's tail is not an address's: `.0.0.1` names hosts under a domain `0.0.1`, not 127.0.0.1.
    if (entry.kind === 'name') return !family && (host === entry.name || host.endsWith(`.${entry.name}`));
    const entryFamily = net.isIP(entry.address);
    if (!family || family !== entryFamily) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const list = new net.BlockList();
    if (!entry.prefix) list.addAddress(entry.address, type);
    else list.addSubnet(entry.address, entry.prefix, type);
    return list.check(host, type);
  });
}

/** Whether the target goes through a proxy, and which. */
export function routeFor(settings: ProxySettings, target: URL): ProxyRoute {
  const scheme = target.protocol === 'https:' ? 'https' : 'http';
  const proxy = settings[scheme];
  if (!proxy) return { kind: 'direct', reason: 'none' };
  const port = target.port ? Number(target.port) : scheme === 'https' ? 443 : 80;
  const match = settings.noProxy && noProxyMatch(settings.noProxy.entries, target.hostname, port);
  if (match) return { kind: 'direct', reason: 'no_proxy', variable: settings.noProxy!.variable, entry: match.text };
  return { kind: 'proxy', proxy };
}

/** What `-v` and `lms doctor` say about how a host is reached. */
export function describeRoute(route: ProxyRoute): string {
  if (route.kind === 'proxy') return `through the proxy ${route.proxy.shown} (from ${route.proxy.variable})`;
  if (route.reason === 'no_proxy') return `directly: bypassed by ${route.variable} ("${route.entry}")`;
  return 'directly (no proxy)';
}

/**
 * Whether an answer to a plain http request sent through a proxy is the proxy's own refusal rather
 * than the instance's answer carried back: a 403 or a 5xx the proxy marks as its own, with an RFC
 * 9209 `Proxy-Status` naming an error (Envoy, Fastly, Caddy, …) or Squid's `X-Squid-Error`. An
 * unmarked answer is the instance's (its own 403 or 503), as curl too takes it.
 */
export function ownRefusal(
  status: number,
  headers: Record<string, string | string[] | undefined>,
): { sent: boolean } | undefined {
  if (status !== 403 && status < 500) return undefined;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : (v ?? ''));
  const squid = /^\s*(ERR_[A-Z_]+)/.exec(one(headers['x-squid-error']))?.[1];
  const rfc = /;\s*error=("?)([a-z_]+)\1/i.exec(one(headers['proxy-status']))?.[2]?.toLowerCase();
  if (!squid && !rfc) return undefined;
  // What the proxy says happened before the request could reach the instance: safe to send again.
  const beforeSending = rfc
    ? /^(dns_|destination_|connection_refused|connection_timeout|http_request_denied|http_request_error|tls_|proxy_)/.test(
        rfc,
      )
    : /^ERR_(ACCESS_DENIED|CONNECT_FAIL|DNS_FAIL|CANNOT_FORWARD|FORWARDING_DENIED|INVALID_URL|TOO_BIG|UNSUP_REQ|SECURE_CONNECT_FAIL|ACL_TIME_QUOTA_EXCEEDED)$/.test(
        squid!,
      );
  return { sent: !beforeSending };
}

/**
 * Why the proxy could not take the request to `target` (`host:port`): a message naming the proxy, never its
 * credentials.
 */
export function proxyRefusal(proxy: ProxyServer, target: string, status: number, sent = false): NetworkError {
  const named = `the proxy ${proxy.shown} (from ${proxy.variable})`;
  const direct = `or, if ${target} can be reached without it, add the host to NO_PROXY`;
  if (status === 407) {
    return proxy.authorization
      ? new NetworkError(`${named} did not accept the credentials in ${proxy.variable} (407)`, {
          code: 'ERR_PROXY_AUTH',
          neverSent: true,
          hint: `check the user and password in ${proxy.variable} (special characters percent-encoded, e.g. %40 for @)`,
        })
      : new NetworkError(`${named} asks for credentials (407)`, {
          code: 'ERR_PROXY_AUTH',
          neverSent: true,
          hint:
            `put them in the proxy URL: ${proxy.variable}=http://USER:PASSWORD@${proxy.hostname}:${proxy.port} ` +
            '(special characters percent-encoded)',
        });
  }
  if (status === 403)
    return new NetworkError(`${named} refused to connect to ${target} (403)`, {
      code: 'ERR_PROXY_FORBIDDEN',
      neverSent: !sent,
      hint: `ask its administrators to allow ${target}, ${direct}`,
    });
  return new NetworkError(`${named} could not connect to ${target} (${status})`, {
    code: 'ERR_PROXY_CONNECT',
    neverSent: !sent,
    hint: `is ${target} up? Try again later, ${direct}`,
  });
}

/**
 * A failure to reach the proxy itself (refused, unresolvable, reset): the message names the proxy, never the instance.
 */
export function proxyUnreachable(proxy: ProxyServer, err: unknown, connectMs: number): NetworkError | undefined {
  const e = err as { code?: string; name?: string };
  const named = `the proxy ${proxy.shown} (from ${proxy.variable})`;
  const fix = `is the proxy up, and is ${proxy.variable} right?`;
  if (e.code === 'ECONNREFUSED')
    return new NetworkError(`${named} refused the connection`, {
      code: e.code,
      neverSent: true,
      cause: err,
      hint: fix,
    });
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return new NetworkError(`cannot resolve ${named}`, { code: e.code, neverSent: true, cause: err, hint: fix });
  if (e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH')
    return new NetworkError(`cannot reach ${named} (${e.code})`, {
      code: e.code,
      neverSent: true,
      cause: err,
      hint: fix,
    });
  const seconds = secondsOf(connectMs);
  if (e.code === 'ERR_PROXY_TIMEOUT')
    return new NetworkError(`${named} did not open a tunnel within ${seconds} s`, {
      code: 'ETIMEDOUT',
      neverSent: true,
      cause: err,
      hint: fix,
    });
  if (e.code === 'ERR_PROXY_CONNECT_TIMEOUT')
    return new NetworkError(`${named} did not take the connection within ${seconds} s`, {
      code: 'ETIMEDOUT',
      neverSent: true,
      cause: err,
      hint: fix,
    });
  return undefined;
}

interface TunnelOptions {
  timeoutMs: number;
  agent: {
    keepAlive: boolean;
    keepAliveMsecs: number;
    maxSockets: number;
    secureContext?: import('node:tls').SecureContext;
  };
}

/**
 * An https agent whose connections are CONNECT tunnels through the proxy, TLS running inside them
 * to the instance itself. It pools like any https agent: a kept-alive tunnel serves the next
 * request to the same host.
 */
export function tunnelAgent(proxy: ProxyServer, options: TunnelOptions): Agent {
  class TunnelAgent extends https.Agent {
    // The runtime's agents take the socket through the callback when it comes later (here, after the CONNECT).
    override createConnection(
      requested: import('node:http').ClientRequestArgs,
      callback?: (err: Error | null, stream: import('node:stream').Duplex) => void,
    ): undefined {
      const connectOptions = requested as Record<string, unknown>;
      const host = String(connectOptions.host ?? 'localhost');
      const port = Number(connectOptions.port ?? 443);
      const target = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
      let settled = false;
      const done = (err: Error | null, socket?: Socket) => {
        if (settled) return;
        settled = true;
        callback?.(err, socket!);
      };
      const connect: ClientRequest = http.request({
        host: proxy.hostname,
        port: proxy.port,
        method: 'CONNECT',
        path: target,
        headers: { host: target, ...(proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {}) },
        agent: false,
      });
      // The request's bound on connecting (./http.ts), else the timeout from now: one bound on reaching the proxy
      // and its whole answer, however slowly it trickles in (an idle timeout restarts at each byte).
      const deadline =
        typeof connectOptions.deadline === 'number' ? connectOptions.deadline : Date.now() + options.timeoutMs;
      const expire = () => connect.destroy(Object.assign(new Error('proxy timeout'), { code: 'ERR_PROXY_TIMEOUT' }));
      const timer = setTimeout(expire, Math.max(0, deadline - Date.now()));
      connect.once('close', () => clearTimeout(timer));
      connect.once('connect', (res: IncomingMessage, socket: Socket) => {
        clearTimeout(timer);
        if (res.statusCode !== 200) {
          socket.destroy();
          done(proxyRefusal(proxy, target, res.statusCode ?? 0));
          return;
        }
        const servername =
          typeof connectOptions.servername === 'string' && connectOptions.servername
            ? connectOptions.servername
            : net.isIP(host)
              ? undefined
              : host;
        const secure = tls.connect({ ...connectOptions, socket, servername } as import('node:tls').ConnectionOptions);
        done(null, secure);
      });
      // A proxy that answers CONNECT with anything but an upgrade of the connection ends it.
      connect.once('response', (res: IncomingMessage) => {
        clearTimeout(timer);
        res.resume();
        done(proxyRefusal(proxy, target, res.statusCode ?? 0));
      });
      connect.once('error', (err) => done(proxyUnreachable(proxy, err, options.timeoutMs) ?? err));
      connect.end();
      return undefined;
    }
  }
  return new TunnelAgent(options.agent);
}

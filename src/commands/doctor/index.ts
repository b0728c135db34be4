// `lms doctor`: one pass over what a command needs (Node and SQLite, the instance, its token and
// what the token may do, the files lms keeps), each check a line with what to do about it. Exits 1
// when any check fails.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { shownFormat, text, withFailure, type CommandResult, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command } from '../../model/define.js';
import { describeSource, resolveRemote } from '../../config/instance.js';
import { stateDirOf, stateToMove, userCacheDir } from '../../config/paths.js';
import { FailureError } from '../../errors.js';
import { pathOf } from '../../spec/routes.js';
import { runChecks, type Check, type DoctorProbe, type Writable } from './checks.js';

const COLUMNS = ['status', 'check', 'detail', 'fix'];
const selfPath = () => pathOf('users.get', { id: 'self' });

/**
 * The probe of this machine, through the context every command gets, so the checks see what a
 * command would. It asks as the token's own user (whose token it is) and tries --as-user by itself,
 * so its requests carry no as_user_id of the client's.
 */
export function systemProbe(ctx: Context): DoctorProbe {
  const asUser = ctx.globals.asUser;
  const send = async (path: string, query: Record<string, string>, label: (host: string) => string) => {
    const client = await ctx.client();
    return ctx.activity.track(
      client.send('GET', path, { query, masquerade: false }),
      label(new URL(client.baseUrl).host),
    );
  };
  return {
    node: process.versions.node,
    platform: process.platform,
    asUser,
    async sqlite() {
      const { driverName, openSqlite } = await import('../../mock/index.js');
      const driver = driverName();
      try {
        const db = openSqlite(':memory:');
        db.prepare('SELECT 1').get();
        db.close();
        return { driver };
      } catch (error) {
        return { driver, error: error instanceof Error ? error.message : String(error) };
      }
    },
    async instance() {
      const choice = ctx.instance;
      const overridden: string[] = [...choice.overridden];
      if (choice.kind === 'mock') {
        const { defaultMockDbPath } = await import('../../mock/index.js');
        // The mock that opened, or the one that would: if it cannot open, the checks after this say why.
        const where = await ctx.mock().then(
          (m) => m.path,
          () => ctx.globals.mockDb ?? defaultMockDbPath(ctx.env),
        );
        // As the client chooses it: LMS_TOKEN when set, else the seeded admin's.
        return {
          kind: 'mock',
          where,
          source: describeSource(choice),
          overridden,
          tokenSource: ctx.env.LMS_TOKEN ? 'LMS_TOKEN' : "the mock's seeded admin",
        };
      }
      const remote = resolveRemote(choice, ctx.env, await ctx.profiles());
      const { redactUrl } = await import('../../redact.js');
      // As the transport chooses it.
      const { caFileLabel, caFileOf } = await import('../../transport/ca-file.js');
      const chosen =
        URL.canParse(remote.baseUrl) && new URL(remote.baseUrl).protocol === 'https:'
          ? caFileOf(ctx.env, profileCaFile(remote))
          : undefined;
      const caFile = chosen ? caFileLabel(chosen) : undefined;
      if (remote.unusedToken) overridden.push(remote.unusedToken);
      return {
        kind: 'remote',
        url: redactUrl(remote.baseUrl),
        source: describeSource(choice, remote.profileName),
        overridden,
        tokenSource: remote.tokenSource,
        ...(caFile ? { caFile } : {}),
      };
    },
    async proxy() {
      if (ctx.instance.kind !== 'remote') throw new Error('the mock is reached through no proxy');
      const { baseUrl } = resolveRemote(ctx.instance, ctx.env, await ctx.profiles());
      // A URL that does not parse is the instance check's to report.
      if (!URL.canParse(baseUrl)) return { kind: 'none', host: '(no valid URL)' };
      const url = new URL(baseUrl);
      const { PROXY_VARIABLES } = await import('../../transport/http.js');
      if (!PROXY_VARIABLES.some((name) => ctx.env[name])) return { kind: 'none', host: url.host };
      const { readProxySettings, routeFor } = await import('../../transport/proxy.js');
      const route = routeFor(readProxySettings(ctx.env, [url.protocol === 'https:' ? 'https' : 'http']), url);
      if (route.kind === 'proxy')
        return { kind: 'proxy', host: url.host, proxy: route.proxy.shown, variable: route.proxy.variable };
      if (route.reason === 'no_proxy')
        return { kind: 'bypassed', host: url.host, variable: route.variable, entry: route.entry };
      return { kind: 'none', host: url.host };
    },
    async trust() {
      if (ctx.instance.kind !== 'remote') throw new Error('the mock is reached over no TLS');
      const remote = resolveRemote(ctx.instance, ctx.env, await ctx.profiles());
      // A URL that does not parse is the instance check's to report.
      if (!URL.canParse(remote.baseUrl)) return { kind: 'plain', host: '(no valid URL)' };
      const url = new URL(remote.baseUrl);
      if (url.protocol !== 'https:') return { kind: 'plain', host: url.host };
      const { CURL_CA_VARIABLES, caFileLabel, caFileOf } = await import('../../transport/ca-file.js');
      const given = profileCaFile(remote);
      const chosen = caFileOf(ctx.env, given);
      const extra = ctx.env.NODE_EXTRA_CA_CERTS || undefined;
      // Every source set, in the order the transport reads them: those after the chosen one are not read.
      const sources = [
        ctx.env.LMS_CA_FILE ? 'LMS_CA_FILE' : '',
        given?.source ?? '',
        ...CURL_CA_VARIABLES.filter((name) => ctx.env[name]),
      ].filter(Boolean);
      const unread = chosen
        ? sources
            .filter((source) => source !== chosen.source)
            .map((source) => `${source} (${chosen.source} comes first)`)
        : [];
      if (!chosen) return { kind: 'roots', host: url.host, unread, ...(extra ? { extra } : {}) };
      const { readCaFile } = await import('../../transport/trust.js');
      const certificates = readCaFile(chosen).length;
      return {
        kind: 'file',
        host: url.host,
        file: { label: caFileLabel(chosen), certificates },
        unread,
        ...(extra ? { extra } : {}),
      };
    },
    async configFile() {
      const { path } = await ctx.profiles();
      const [file, dir] = await Promise.all([
        stat(path).catch(() => undefined),
        stat(dirname(path)).catch(() => undefined),
      ]);
      return { path, mode: file?.mode, dirMode: dir?.mode };
    },
    async whoami() {
      const { readBody } = await import('../../client/parse.js');
      // Retries the transport made because the server throttled them show only in the limiter's count.
      const before = ctx.limiter().stats.throttled;
      const res = await send(selfPath(), {}, (host) => `Checking the token with ${host}`);
      return {
        user: readBody(res),
        date: res.headers.date,
        remaining: res.headers['x-rate-limit-remaining'],
        cost: res.headers['x-request-cost'],
        throttled: ctx.limiter().stats.throttled - before,
      };
    },
    async actAs(id) {
      const { readBody } = await import('../../client/parse.js');
      return readBody(
        await send(
          selfPath(),
          { as_user_id: id },
          (host) => `Checking with ${host} whether the token may act as user ${id}`,
        ),
      );
    },
    async accountUsers() {
      const { readBody } = await import('../../client/parse.js');
      return readBody(
        await send(
          pathOf('users.list', { account_id: 'self' }),
          { per_page: '2' },
          (host) => `Looking for a user to try acting as on ${host}`,
        ),
      );
    },
    now: () => Date.now(),
    // Where the launcher keeps Node's compile cache (bin/lms): LMS_CACHE_DIR, else the platform's cache directory.
    async cacheDir() {
      return ctx.env.LMS_CACHE_DIR ? resolve(ctx.env.LMS_CACHE_DIR) : userCacheDir();
    },
    // Named, not made: the move of an older lms's state waits for a command that uses it.
    stateDir: async () => stateDirOf(ctx.env),
    stateToMove: () => stateToMove(ctx.env),
    writable,
  };
}

/** The profile's CA file, named as the transport names it. */
const profileCaFile = (remote: { caFile?: string; profileName?: string }) =>
  remote.caFile ? { path: remote.caFile, source: `profile "${remote.profileName}"` } : undefined;

/** A directory, or the nearest one above it that exists, that this user may write to; nothing is created. */
export async function writable(dir: string): Promise<Writable> {
  let at = resolve(dir);
  for (;;) {
    const found = await stat(at).catch((e: NodeJS.ErrnoException) => e);
    if (!(found instanceof Error)) {
      if (!found.isDirectory()) return { writable: false, reason: `${at} is not a directory` };
      try {
        await access(at, constants.W_OK | constants.X_OK);
        return { writable: true, exists: at === resolve(dir) };
      } catch (e) {
        return {
          writable: false,
          reason:
            at === resolve(dir)
              ? ((e as NodeJS.ErrnoException).code ?? 'no access')
              : `${at} cannot be written to make it`,
        };
      }
    }
    if ((found.code !== 'ENOENT' && found.code !== 'ENOTDIR') || dirname(at) === at)
      return { writable: false, reason: found.code ?? found.message };
    at = dirname(at);
  }
}

/** A line a person reads: status, check, what was found and what to do. */
export function checkLines(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.check.length));
  return checks
    .map((c) => `${c.status.padEnd(4)}  ${c.check.padEnd(width)}  ${c.detail}${c.fix ? `; fix: ${c.fix}` : ''}\n`)
    .join('');
}

export const doctorVerbs: Verbs = [
  command({
    name: 'check',
    summary:
      'Check Node, SQLite, the instance, its token, the proxy, what its certificate is verified against, and what ' +
      'the token may do (rate limit, masquerading), the clock, and the files lms keeps; exit 1 when any check ' +
      'fails',
    isDefault: true,
    routes: ['users.get', 'users.list'],
    examples: ['lms doctor', 'lms doctor -o json'],
    async run({ ctx }) {
      const checks = await runChecks(systemProbe(ctx));
      const format = shownFormat(ctx);
      const result: CommandResult =
        format === 'table' ? text(checkLines(checks)) : { kind: 'list', items: checks, columns: COLUMNS };
      const failed = checks.filter((c) => c.status === 'fail').map((c) => c.check);
      if (!failed.length) return result;
      return withFailure(
        result,
        new FailureError(`${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.join(', ')}`),
      );
    },
  }),
] as Verbs;

import { item, list, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command } from '../../model/define.js';
import { noProfile } from '../../config/no-profile.js';
import { baseUrlOf, parseInstanceUrl } from '../../config/instance-url.js';
import { invalidProfileName, type Profile } from '../../config/profiles.js';
import { ApiError, ExitCode, LmsError, NetworkError, UsageError } from '../../errors.js';
import { readBoundedText, MAX_SECRET_BYTES } from '../../io/bounded.js';
import { err } from '../../io/streams.js';
import { isLoopbackHost } from '../../net.js';

/** What a profile shows of its token: where it is, never the token itself (nor is the keychain asked). */
function describeToken(profile: Profile): string {
  if (profile.keychain) return 'in the keychain';
  if (profile.oauth) return 'OAuth login, in this file';
  return profile.token ? `set (${profile.token.length} characters)` : 'not set';
}

/**
 * Who the token belongs to, asked of the instance itself (GET /api/v1/users/self), as `gh auth
 * login` does: a refused token is an auth error, an unreachable host a network error, and in both
 * cases nothing is saved. The client is a throwaway one: this profile does not exist yet.
 */
async function whoseToken(
  ctx: Context,
  baseUrl: string,
  token: string,
  caFile: string | undefined,
): Promise<{ id: number | string; name: string }> {
  const [{ ApiClient }, { httpTransport }] = await Promise.all([
    import('../../client/client.js'),
    import('../../transport/http.js'),
  ]);
  const client = new ApiClient({
    baseUrl,
    token,
    transport: httpTransport({
      timeoutMs: ctx.globals.timeoutSeconds * 1000,
      env: ctx.env,
      caFile: caFile ? { path: caFile, source: '--ca-file' } : undefined,
      insecure: ctx.globals.insecure,
    }),
    userAgent: `lms/${__LMS_VERSION__}`,
    plainHttp: ctx.globals.insecure ? 'warn' : 'refuse',
    warn: (message) => ctx.warn(message),
  });
  const host = new URL(baseUrl).host;
  const skip = 'pass --no-verify to save the profile without checking';
  let user: unknown;
  try {
    user = await ctx.activity.track(client.ops.users.get({ id: 'self' }), `Checking the token with ${host}`);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      throw new LmsError(
        `${host} did not accept the token (${error.status}); the profile was not saved`,
        ExitCode.auth,
        {
          cause: error,
          hint: 'check the token (a new one comes from your account settings on the instance)',
        },
      );
    }
    if (error instanceof NetworkError) {
      throw new NetworkError(
        `could not reach ${host} to check the token: ${error.message}; the profile was not saved`,
        { code: error.code, cause: error, hint: `check --url, or ${skip}` },
      );
    }
    if (error instanceof LmsError) {
      throw new LmsError(
        `${host} could not check the token: ${error.message}; the profile was not saved`,
        error.exitCode,
        { cause: error, hint: `is ${baseUrl} the instance's address? Or ${skip}` },
      );
    }
    throw error;
  }
  const record = (typeof user === 'object' && user !== null ? user : {}) as { id?: unknown; name?: unknown };
  if (typeof record.id !== 'number' && typeof record.id !== 'string') {
    throw new LmsError(
      `${host} answered GET /api/v1/users/self without a user; the profile was not saved`,
      ExitCode.failure,
      { hint: `is ${baseUrl} the instance's address? Or ${skip}` },
    );
  }
  return { id: record.id, name: typeof record.name === 'string' && record.name ? record.name : `user ${record.id}` };
}

export const profileVerbs: Verbs = [
  command({
    name: 'add',
    args: [{ name: 'name' }],
    summary:
      'Add or replace a profile, checking its token with the instance (token from a hidden prompt, or --token-stdin)',
    // The check asks the new instance who the token belongs to (unless --no-verify).
    routes: ['users.get'],
    options: {
      url: {
        long: 'url',
        value: 'url',
        description: 'base URL of the instance, e.g. https://lms.example.edu',
        required: true,
      },
      tokenStdin: { long: 'token-stdin', description: 'read the access token from standard input' },
      verify: { long: 'verify', negated: true, description: 'save without checking the token with the instance' },
      insecureStorage: {
        long: 'insecure-storage',
        description: 'keep the token in the profile file (readable only by you) instead of the keychain',
      },
      caFile: {
        file: 'read',
        long: 'ca-file',
        value: 'file',
        description:
          "trust the certificate authority in this PEM file (your organisation's own) for this instance, besides " +
          'the usual ones; LMS_CA_FILE overrides it',
      },
    },
    examples: [
      'lms profile add prod --url https://lms.example.edu',
      'printf %s "$TOKEN" | lms profile add ci --url https://lms.example.edu --token-stdin',
      'lms profile add local --url http://localhost:4010 --token-stdin --no-verify < token.txt',
      'lms profile add school --url https://lms.school.example --ca-file /etc/ssl/school-ca.pem',
    ],
    async run({ args, opts, ctx }) {
      const name = args[0];
      const invalid = invalidProfileName(name);
      if (invalid) throw new UsageError(invalid);
      const url = parseInstanceUrl(opts.url);
      const insecure = ctx.globals.insecure;
      if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
        throw new UsageError(`${url.host} is a remote host over plain http: the token would travel unencrypted`, {
          hint: 'use https://, or pass --insecure if you accept that',
        });
      }
      // Checked now, and kept by its absolute path: a command run from another directory finds it too.
      let caFile: string | undefined;
      if (opts.caFile !== undefined) {
        caFile = (await import('node:path')).resolve(opts.caFile);
        (await import('../../transport/trust.js')).readCaFile({ path: caFile, source: '--ca-file' });
      }
      let token: string;
      if (opts.tokenStdin)
        token = (await readBoundedText('-', ctx.io.stdin, { limit: MAX_SECRET_BYTES, what: '--token-stdin' })).trim();
      else if (ctx.interactive) token = (await (await ctx.prompter()).secret(`Access token for ${url.host}:`)).trim();
      else
        throw new UsageError('no token: pass --token-stdin and pipe the token in, or run in a terminal to be prompted');
      if (!token) throw new UsageError('the token is empty');
      const baseUrl = baseUrlOf(url);
      const user = opts.verify ? await whoseToken(ctx, baseUrl, token, caFile) : undefined;
      if (user) err(ctx.io, `Logged in to ${url.host} as ${user.name} (id ${user.id})\n`);
      const [store, keychain, { saveProfile, fallbackNotice }] = await Promise.all([
        ctx.profiles(),
        ctx.keychain(),
        import('../../config/credentials.js'),
      ]);
      const replaced = store.get(name);
      const profile: Profile = {
        url: baseUrl,
        ...(insecure ? { insecure: true } : {}),
        ...(user ? { user } : {}),
        ...(caFile ? { caFile } : {}),
      };
      const stored = await saveProfile(
        store,
        name,
        profile,
        { kind: 'token', token },
        { keychain: () => keychain, insecureStorage: opts.insecureStorage === true },
      );
      if (stored.unavailable && ctx.globals.verbose) err(ctx.io, `keychain: ${stored.unavailable.message}\n`);
      const notice = fallbackNotice(stored, store.path);
      if (notice) err(ctx.io, `${notice}\n`);
      // As `git remote set-url` or kubectl's set-cluster would, it replaces; said, never silently.
      const was = replaced ? `, replacing the one for ${new URL(replaced.url).host}` : '';
      err(
        ctx.io,
        `Saved profile "${name}" (${url.host}) in ${store.path}` +
          `${stored.storage === 'keychain' ? ', its token in the keychain' : ''}${was}\n`,
      );
      return undefined;
    },
  }),
  command({
    name: 'list',
    summary: 'List profiles (tokens are never shown)',
    examples: ['lms profile list'],
    aliases: ['ls'],
    columns: ['name', 'url', 'current'],
    async run({ ctx }) {
      const store = await ctx.profiles();
      return list(
        store
          .list()
          .map(({ name, profile, current }) => ({ name, url: profile.url, current, token: describeToken(profile) })),
      );
    },
  }),
  command({
    name: 'use',
    args: [{ name: 'profile' }],
    summary: 'Make a profile the default',
    examples: ['lms profile use prod'],
    async run({ args, ctx }) {
      await (await ctx.profiles()).use(args[0]);
      ctx.io.stderr.write(`Now using profile "${args[0]}".\n`);
      return undefined;
    },
  }),
  command({
    name: 'show',
    args: [{ name: 'profile', optional: true }],
    summary: 'Show a profile (default: the current one)',
    examples: ['lms profile show prod'],
    async run({ args, ctx }) {
      const store = await ctx.profiles();
      const name = args[0] ?? ctx.globals.profile ?? (ctx.env.LMS_PROFILE || undefined) ?? store.current();
      if (!name) throw new UsageError('no current profile', { hint: 'lms profile add NAME --url URL' });
      const profile = store.get(name);
      if (!profile)
        throw noProfile(
          name,
          store.list().map((p) => p.name),
        );
      return item({
        name,
        url: profile.url,
        current: store.current() === name,
        token: describeToken(profile),
        ...(profile.caFile ? { ca_file: profile.caFile } : {}),
        file: store.path,
      });
    },
  }),
  command({
    name: 'remove',
    args: [{ name: 'profile' }],
    summary: 'Remove a profile and its token',
    examples: ['lms profile remove prod'],
    aliases: ['rm'],
    async run({ args, ctx }) {
      const store = await ctx.profiles();
      // An unknown name is a mistake to report, not a removal to confirm.
      if (!store.get(args[0]))
        throw noProfile(
          args[0],
          store.list().map((p) => p.name),
        );
      // The token may exist nowhere else: losing it can mean making a new one on the instance.
      await ctx.confirm(`Remove profile "${args[0]}" and its token`);
      const entry = store.get(args[0])?.keychain;
      if (entry) {
        const { KEYCHAIN_SERVICE, KeychainUnavailableError } = await import('../../config/keychain.js');
        await (await ctx.keychain()).delete(entry).catch((error: unknown) => {
          if (!(error instanceof KeychainUnavailableError)) throw error;
          ctx.warn(
            `${error.message}: its entry for this profile stays there (service ${KEYCHAIN_SERVICE}, account ${entry})`,
          );
        });
      }
      await store.remove(args[0]);
      ctx.io.stderr.write(`Removed profile "${args[0]}".\n`);
      return undefined;
    },
  }),
];

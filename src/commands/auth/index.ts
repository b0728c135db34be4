import { item, text, withFailure, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command } from '../../model/define.js';
import { noProfile } from '../../config/no-profile.js';
import { resolveRemote } from '../../config/instance.js';
import { ApiError, ExitCode, LmsError, UsageError } from '../../errors.js';
import { err } from '../../io/streams.js';

/** Where the token a command sends comes from, as `auth status` names it. */
type TokenSource = 'env' | 'keychain' | 'file' | 'mock';

export const authVerbs: Verbs = [
  command({
    name: 'login',
    summary:
      'Log in through the browser (OAuth2 with PKCE) with a developer key, waiting --timeout seconds for it ' +
      '(default 300); the tokens go to the keychain',
    routes: ['oauth.authorize', 'oauth.token', 'users.get'],
    dryRun: false,
    options: {
      url: { long: 'url', value: 'url', description: "base URL of the instance (default: the profile's)" },
      clientId: {
        long: 'client-id',
        value: 'id',
        description: "the developer key's client id (default: the one the profile last logged in with)",
      },
      clientSecretStdin: {
        long: 'client-secret-stdin',
        description:
          "read a confidential developer key's client secret from standard input (a public key has none; otherwise " +
          'a hidden prompt asks if the instance wants one)',
      },
      caFile: {
        file: 'read',
        long: 'ca-file',
        value: 'file',
        description:
          "trust the certificate authority in this PEM file (your organisation's own) for this instance, besides " +
          'the usual ones; kept in the profile (LMS_CA_FILE overrides it)',
      },
      browser: { long: 'browser', negated: true, description: 'print the URL to open instead of opening a browser' },
      insecureStorage: {
        long: 'insecure-storage',
        description: 'keep the tokens in the profile file (readable only by you) instead of the keychain',
      },
    },
    examples: [
      'lms auth login -p prod --url https://lms.example.edu --client-id 170000000000123',
      'printf %s "$SECRET" | lms auth login -p ci --url https://lms.example.edu --client-id 170000000000123 ' +
        '--client-secret-stdin --no-browser --insecure-storage',
      'lms auth login -p prod --timeout 600',
    ],
    async run({ opts, ctx }) {
      await (await import('./login.js')).login(ctx, opts);
      return undefined;
    },
  }),
  command({
    name: 'status',
    summary:
      'Who the token belongs to, on which instance, where it is kept and when it expires (never the token itself)',
    routes: ['users.get'],
    examples: ['lms auth status', 'lms auth status -p prod -o json'],
    async run({ ctx }) {
      return status(ctx);
    },
  }),
  command({
    name: 'logout',
    summary: 'Revoke the token at the instance and forget it here (the profile and its URL stay)',
    // The token endpoint too: an expired access token is renewed before it can be revoked.
    routes: ['oauth.token', 'oauth.revoke'],
    dryRun: false,
    destroys: false,
    examples: ['lms auth logout -p prod'],
    async run({ ctx }) {
      await logout(ctx);
      return undefined;
    },
  }),
  command({
    name: 'token',
    summary: 'Print the access token a command would send (renewed first if it is about to expire), for other tools',
    examples: [
      'lms auth token',
      'curl -H "Authorization: Bearer $(lms auth token -p prod)" https://lms.example.edu/api/v1/users/self',
    ],
    async run({ ctx }) {
      if (ctx.instance.kind === 'mock') {
        const { MOCK_ADMIN_TOKEN } = await import('../../mock/index.js');
        return text(ctx.env.LMS_TOKEN || MOCK_ADMIN_TOKEN);
      }
      const remote = resolveRemote(ctx.instance, ctx.env, await ctx.profiles());
      const session = await ctx.tokenSession();
      const token = session ? await session.fresh() : remote.token;
      // No token at all: the client says why, as every command does (logged out, none configured).
      if (!token) await ctx.client();
      return text(token!);
    },
  }),
];

async function status(ctx: Context) {
  const client = await ctx.client();
  let where: string;
  let profile: string | null = null;
  let source: TokenSource;
  if (ctx.instance.kind === 'mock') {
    where = `the mock (${(await ctx.mock()).path})`;
    source = ctx.env.LMS_TOKEN ? 'env' : 'mock';
  } else {
    const remote = resolveRemote(ctx.instance, ctx.env, await ctx.profiles());
    const { redactUrl } = await import('../../redact.js');
    where = redactUrl(remote.baseUrl);
    profile = remote.profileName ?? null;
    source = remote.tokenSource === 'LMS_TOKEN' ? 'env' : remote.stored === 'keychain' ? 'keychain' : 'file';
  }
  const host = ctx.mockMode ? 'the mock' : new URL(client.baseUrl).host;
  let user: { id?: unknown; name?: unknown } = {};
  let failure: LmsError | undefined;
  try {
    user = (await ctx.activity.track(
      client.ops.users.get({ id: 'self' }),
      `Checking the token with ${host}`,
    )) as typeof user;
  } catch (error) {
    if (!(error instanceof LmsError) || error.exitCode !== ExitCode.auth) throw error;
    const why = error instanceof ApiError ? `(${error.status})` : `: ${error.message}`;
    failure = new LmsError(
      `${host} did not accept the token from ` +
        `${source === 'env' ? 'LMS_TOKEN' : source === 'mock' ? 'the mock' : `the ${source}`} ${why}`,
      ExitCode.auth,
      {
        cause: error,
        hint: profile ? `log in again: lms auth login -p ${profile}` : 'set LMS_TOKEN to a token the instance accepts',
      },
    );
  }
  // Read after the request: a token renewed on the way has its new expiry.
  const stored = (await ctx.tokenSession())?.stored;
  const oauth = stored?.kind === 'oauth' ? stored : undefined;
  const result = item({
    instance: where,
    profile,
    user_id: user.id ?? null,
    user_name: typeof user.name === 'string' ? user.name : null,
    token_source: source,
    expires_at: oauth?.expires_at ?? null,
    renewable: oauth?.refresh_token !== undefined,
  });
  return failure ? withFailure(result, failure) : result;
}

async function logout(ctx: Context): Promise<void> {
  if (ctx.mockMode)
    throw new UsageError('the mock has no login to end: its tokens are seeded (lms mock tokens lists them)');
  const store = await ctx.profiles();
  const name = ctx.globals.profile ?? (ctx.env.LMS_PROFILE || undefined) ?? store.current();
  if (!name) throw new UsageError('no profile to log out of', { hint: 'lms auth logout -p NAME' });
  const profile = store.get(name);
  if (!profile)
    throw noProfile(
      name,
      store.list().map((p) => p.name),
    );
  const [{ readCredential, forgetCredential }, keychain] = await Promise.all([
    import('../../config/credentials.js'),
    ctx.keychain(),
  ]);
  const where = profile.keychain ? 'the keychain' : store.path;
  const credential = await readCredential(name, profile, () => keychain);
  if (!credential) {
    await forgetCredential(store, name, () => keychain);
    err(ctx.io, `Profile "${name}" holds no token: there was nothing to log out of.\n`);
    return;
  }
  const host = new URL(profile.url).host;
  if (credential.kind === 'token') {
    // A pasted token is the user's own, made in their account settings: forgetting it is ours to
    // do, revoking it theirs (gh auth logout leaves a pasted token valid too).
    await forgetCredential(store, name, () => keychain);
    err(
      ctx.io,
      `Removed the token of profile "${name}" from ${where}. A token you pasted stays valid on ${host} until you ` +
        `delete it in your account settings there.\n`,
    );
    return;
  }
  let accepted = true;
  try {
    await ctx.activity.track(
      revoke(ctx, name, profile.url, profile.insecure === true, profile.caFile),
      `Revoking the token at ${host}`,
    );
  } catch (error) {
    // A token the instance no longer takes (expired and not renewable, revoked) is as good as revoked.
    if (!(error instanceof LmsError && error.exitCode === ExitCode.auth)) {
      if (error instanceof LmsError) {
        throw new LmsError(
          `could not revoke the token at ${host}: ${error.message}; it is still stored`,
          error.exitCode,
          {
            cause: error,
            hint: `retry when ${host} answers; \`lms profile remove ${name}\` forgets it without revoking`,
          },
        );
      }
      throw error;
    }
    accepted = false;
  }
  await forgetCredential(store, name, () => keychain);
  err(
    ctx.io,
    accepted
      ? `Logged out of ${host}: the token was revoked, and removed from ${where}.\n`
      : `Logged out of ${host}: it no longer accepted the token; removed it from ${where}.\n`,
  );
}

/** DELETE /login/oauth2/token with the profile's token, renewed first if it has expired. */
async function revoke(
  ctx: Context,
  name: string,
  baseUrl: string,
  profileInsecure: boolean,
  caFile: string | undefined,
): Promise<void> {
  const [{ openTokenSession }, { instanceClient }, { checkTokenTransport, revokeToken }, keychain, store] =
    await Promise.all([
      import('../../auth/session.js'),
      import('../../auth/instance-client.js'),
      import('../../auth/oauth.js'),
      ctx.keychain(),
      ctx.profiles(),
    ]);
  const insecure = ctx.globals.insecure || profileInsecure;
  const trace = ctx.globals.verbose ? (line: string) => err(ctx.io, `${line}\n`) : undefined;
  const common = {
    baseUrl,
    insecure,
    timeoutSeconds: ctx.globals.timeoutSeconds,
    trace,
    warn: (message: string) => ctx.warn(message),
    env: ctx.env,
    caFile: caFile ? { path: caFile, source: `profile "${name}"` } : undefined,
  };
  const session = await openTokenSession({
    name,
    store,
    keychain: () => keychain,
    trace,
    tokenClient: async () => {
      checkTokenTransport(baseUrl, insecure);
      return instanceClient(common);
    },
  });
  if (!session) return;
  const client = await instanceClient({ ...common, token: await session.fresh(), renewToken: session.renew });
  await revokeToken(client);
}

// `lms auth login`: the OAuth2 authorization-code flow of a native app (RFC 8252), as `gh auth login`
// runs it in a browser. A listener on 127.0.0.1 takes the one redirect; PKCE (S256) makes the code
// useless to anyone who sees it, and the state makes a redirect this run did not start worthless.
// The tokens go to the keychain (or, where none answers, the profile file) with the profile.
import type { Context } from '../../cli/context.js';
import { baseUrlOf, parseInstanceUrl } from '../../config/instance-url.js';
import { invalidProfileName, type Profile } from '../../config/profiles.js';
import { LmsError, UsageError } from '../../errors.js';
import { err, readAll } from '../../io/streams.js';
import { isLoopbackHost } from '../../net.js';

/** A person logs in, perhaps with a second factor: without --timeout, the wait is this long. */
export const LOGIN_WAIT_SECONDS = 300;

export interface LoginOptions {
  url?: string;
  clientId?: string;
  clientSecretStdin?: boolean;
  browser: boolean;
  insecureStorage?: boolean;
}

export async function login(ctx: Context, opts: LoginOptions): Promise<void> {
  const store = await ctx.profiles();
  const url = opts.url !== undefined ? parseInstanceUrl(opts.url) : undefined;
  const name = profileName(ctx, url, store.current());
  const existing = store.get(name);
  const baseUrl = url ? baseUrlOf(url) : existing?.url;
  if (!baseUrl) throw new UsageError(`profile "${name}" does not exist yet: give the instance's address with --url`, { hint: `lms auth login -p ${name} --url https://lms.example.edu --client-id ID` });
  const { host, hostname, protocol } = new URL(baseUrl);
  // The profile's consent to plain http holds for its own URL, as it does for its commands.
  const insecure = ctx.globals.insecure || (existing?.insecure === true && existing.url === baseUrl);
  if (protocol === 'http:' && !isLoopbackHost(hostname) && !insecure) {
    throw new UsageError(`${host} is a remote host over plain http: the client secret and tokens would travel unencrypted`, { hint: 'use https://, or pass --insecure if you accept that' });
  }
  const clientId = opts.clientId?.trim() || existing?.clientId;
  if (!clientId) throw new UsageError("give the developer key's client id with --client-id", { hint: 'your instance admin issues developer keys (Admin > Developer Keys)' });
  const clientSecret = await readClientSecret(ctx, clientId, opts);

  const [{ createPkce, createState }, { listenForRedirect }, { authorizeUrl, checkTokenTransport, exchangeCode }] = await Promise.all([
    import('../../auth/pkce.js'),
    import('../../auth/loopback.js'),
    import('../../auth/oauth.js'),
  ]);
  checkTokenTransport(baseUrl, insecure);
  const pkce = createPkce();
  const state = createState();
  const waitSeconds = ctx.globals.timeoutGiven ? ctx.globals.timeoutSeconds : LOGIN_WAIT_SECONDS;
  const listener = await listenForRedirect({ state, timeoutMs: waitSeconds * 1000, host });
  let code: string;
  try {
    const address = authorizeUrl(baseUrl, { clientId, redirectUri: listener.redirectUri, state, codeChallenge: pkce.challenge });
    const opened = opts.browser && (await (await import('../../auth/browser.js')).openBrowser(address, ctx.env));
    err(ctx.io, opened ? `Opening ${host} in your browser. If no page appears, open this URL:\n  ${address}\n` : `Open this URL in a browser to log in to ${host}:\n  ${address}\n`);
    code = await ctx.activity.track(listener.code, `Waiting for the browser (up to ${waitSeconds} s)`);
  } finally {
    listener.close();
  }

  const trace = ctx.globals.verbose ? (line: string) => err(ctx.io, `${line}\n`) : undefined;
  const { instanceClient } = await import('../../auth/instance-client.js');
  const common = { baseUrl, insecure, timeoutSeconds: ctx.globals.timeoutSeconds, trace, warn: (message: string) => ctx.warn(message) };
  const tokens = await ctx.activity.track(
    exchangeCode(await instanceClient(common), { clientId, clientSecret, redirectUri: listener.redirectUri, code, codeVerifier: pkce.verifier }, Date.now()),
    `Getting the tokens from ${host}`,
  );
  // Asked of the API itself, as `profile add` does: the token works, and the id is the one commands take.
  const client = await instanceClient({ ...common, token: tokens.access_token });
  const self = await ctx.activity.track(client.ops.users.get({ id: 'self' }), `Checking the token with ${host}`).catch((error: unknown) => {
    throw new LmsError(`${host} gave a token that its API does not accept: ${error instanceof Error ? error.message : String(error)}; nothing was saved`, error instanceof LmsError ? error.exitCode : 1, { cause: error });
  });
  const record = self as { id?: unknown; name?: unknown };
  const user = typeof record.id === 'number' || typeof record.id === 'string' ? { id: record.id, name: typeof record.name === 'string' && record.name ? record.name : `user ${record.id}` } : tokens.user;
  if (!user) throw new LmsError(`${host} answered GET /api/v1/users/self without a user; nothing was saved`, 1);

  const { saveProfile, fallbackNotice } = await import('../../config/credentials.js');
  const profile: Profile = { url: baseUrl, ...(insecure ? { insecure: true } : {}), user, clientId };
  const credential = {
    kind: 'oauth' as const,
    access_token: tokens.access_token,
    ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    ...(tokens.expires_at ? { expires_at: tokens.expires_at } : {}),
    client_id: clientId,
    client_secret: clientSecret,
  };
  const keychain = await ctx.keychain();
  const stored = await saveProfile(store, name, profile, credential, { keychain: () => keychain, insecureStorage: opts.insecureStorage === true });
  if (stored.unavailable) trace?.(`keychain: ${stored.unavailable.message}`);
  const notice = fallbackNotice(stored, store.path);
  if (notice) err(ctx.io, `${notice}\n`);
  err(ctx.io, `Logged in to ${host} as ${user.name} (id ${user.id})\n`);
}

/**
 * The profile a login is for: -p or LMS_PROFILE; else, with --url, one named after its host; else
 * the default profile, logged in again.
 */
function profileName(ctx: Context, url: URL | undefined, current: string | undefined): string {
  const named = ctx.globals.profile ?? (ctx.env.LMS_PROFILE || undefined);
  const name = named ?? (url ? url.host.replace(/[^\w.-]/g, '-') : current);
  if (!name) throw new UsageError('give the profile to log in with -p NAME, and the instance with --url', { hint: 'lms auth login -p prod --url https://lms.example.edu --client-id ID' });
  const invalid = invalidProfileName(name);
  if (invalid) throw new UsageError(invalid);
  return name;
}

/** The developer key's secret: from stdin or a hidden prompt, never a flag (`ps` and shell history would show it). */
async function readClientSecret(ctx: Context, clientId: string, opts: LoginOptions): Promise<string> {
  let secret: string;
  if (opts.clientSecretStdin) secret = (await readAll(ctx.io.stdin)).toString('utf8').trim();
  else if (ctx.interactive) secret = (await (await ctx.prompter()).secret(`Client secret of developer key ${clientId}:`)).trim();
  else throw new UsageError('no client secret: pass --client-secret-stdin and pipe it in, or run in a terminal to be prompted');
  if (!secret) throw new UsageError('the client secret is empty');
  return secret;
}

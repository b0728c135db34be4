// `lms auth login`: the OAuth2 authorization-code flow of a native app (RFC 8252), as `gh auth login`
// runs it in a browser. A listener on 127.0.0.1 takes the one redirect; PKCE (S256) makes the code
// useless to anyone who sees it, and the state makes a redirect this run did not start worthless.
// The tokens go to the keychain (or, where none answers, the profile file) with the profile.
//
// The developer keys instances provision for command-line tools are public clients: a client id
// and PKCE, no secret (as az and gcloud log in). So no secret is asked for up front: the code is
// exchanged without one, and only if the instance answers invalid_client (a confidential key) is
// the secret asked for, at a hidden prompt, and the same code exchanged again (instances check the
// client before the code, so it is still good). A script gives a confidential key's secret on
// stdin (--client-secret-stdin); without a terminal to ask at, the refusal says how.
import type { Context } from '../../model/context.js';
import type { Grant } from '../../auth/oauth.js';
import { baseUrlOf, parseInstanceUrl } from '../../config/instance-url.js';
import { invalidProfileName, type Profile } from '../../config/profiles.js';
import { ExitCode, LmsError, UsageError } from '../../errors.js';
import { readBoundedText, MAX_SECRET_BYTES } from '../../io/bounded.js';
import { err } from '../../io/streams.js';
import { isLoopbackHost } from '../../net.js';

/** A person logs in, perhaps with a second factor: without --timeout, the wait is this long. */
export const LOGIN_WAIT_SECONDS = 300;

export interface LoginOptions {
  url?: string;
  clientId?: string;
  clientSecretStdin?: boolean;
  caFile?: string;
  browser: boolean;
  insecureStorage?: boolean;
}

export async function login(ctx: Context, opts: LoginOptions): Promise<void> {
  const store = await ctx.profiles();
  const url = opts.url !== undefined ? parseInstanceUrl(opts.url) : undefined;
  const name = profileName(ctx, url, store.current());
  const existing = store.get(name);
  const baseUrl = url ? baseUrlOf(url) : existing?.url;
  if (!baseUrl)
    throw new UsageError(`profile "${name}" does not exist yet: give the instance's address with --url`, {
      hint: `lms auth login -p ${name} --url https://lms.example.edu --client-id ID`,
    });
  const { host, hostname, protocol } = new URL(baseUrl);
  // The profile's consent to plain http holds for its own URL, as it does for its commands.
  const insecure = ctx.globals.insecure || (existing?.insecure === true && existing.url === baseUrl);
  if (protocol === 'http:' && !isLoopbackHost(hostname) && !insecure) {
    throw new UsageError(
      `${host} is a remote host over plain http: the client's credentials and tokens would travel unencrypted`,
      { hint: 'use https://, or pass --insecure if you accept that' },
    );
  }
  // The certificate authority the instance needs trusting with: given now, or the profile's for the same URL.
  const caFile =
    opts.caFile !== undefined
      ? (await import('node:path')).resolve(opts.caFile)
      : existing?.url === baseUrl
        ? existing.caFile
        : undefined;
  if (opts.caFile !== undefined)
    (await import('../../transport/trust.js')).readCaFile({ path: caFile!, source: '--ca-file' });
  const clientId = opts.clientId?.trim() || existing?.clientId;
  if (!clientId)
    throw new UsageError("give the developer key's client id with --client-id", {
      hint: 'your instance admin issues developer keys (Admin > Developer Keys)',
    });
  let clientSecret = opts.clientSecretStdin ? await secretFromStdin(ctx) : undefined;

  const [
    { createPkce, createState },
    { listenForRedirect },
    { authorizeUrl, checkTokenTransport, exchangeCode, OAuthError },
  ] = await Promise.all([
    import('../../auth/pkce.js'),
    import('../../auth/loopback.js'),
    import('../../auth/oauth.js'),
  ]);
  checkTokenTransport(baseUrl, insecure);
  const pkce = createPkce();
  const state = createState();
  const waitSeconds = ctx.globals.timeoutGiven ? ctx.globals.timeoutSeconds : LOGIN_WAIT_SECONDS;
  const listener = await listenForRedirect({ state, timeoutMs: waitSeconds * 1000, host });
  // The browser that brings the code is answered once the login has ended, either way: the code may
  // not exchange, the token may be refused, and its page must not say "Logged in" then.
  try {
    const address = authorizeUrl(baseUrl, {
      clientId,
      redirectUri: listener.redirectUri,
      state,
      codeChallenge: pkce.challenge,
    });
    const opened = opts.browser && (await (await import('../../auth/browser.js')).openBrowser(address, ctx.env));
    err(
      ctx.io,
      opened
        ? `Opening ${host} in your browser. If no page appears, open this URL:\n  ${address}\n`
        : `Open this URL in a browser to log in to ${host}:\n  ${address}\n`,
    );
    const code = await ctx.activity.track(listener.code, `Waiting for the browser (up to ${waitSeconds} s)`);

    const trace = ctx.globals.verbose ? (line: string) => err(ctx.io, `${line}\n`) : undefined;
    const { instanceClient } = await import('../../auth/instance-client.js');
    const caSource = opts.caFile !== undefined ? '--ca-file' : `profile "${name}"`;
    const common = {
      baseUrl,
      insecure,
      timeoutSeconds: ctx.globals.timeoutSeconds,
      trace,
      warn: (message: string) => ctx.warn(message),
      env: ctx.env,
      caFile: caFile ? { path: caFile, source: caSource } : undefined,
    };
    const tokenClient = await instanceClient(common);
    const exchange = (secret: string | undefined) =>
      ctx.activity.track(
        exchangeCode(
          tokenClient,
          { clientId, clientSecret: secret, redirectUri: listener.redirectUri, code, codeVerifier: pkce.verifier },
          Date.now(),
        ),
        `Getting the tokens from ${host}`,
      );
    let tokens: Grant;
    try {
      tokens = await exchange(clientSecret);
    } catch (error) {
      // An unknown client is not helped by a secret: only a key the instance has, refused without one, is a
      // confidential key.
      if (
        clientSecret !== undefined ||
        !(error instanceof OAuthError && error.code === 'invalid_client') ||
        error.unknownClient
      )
        throw error;
      // A confidential key: the instance wants its secret.
      clientSecret = await askForSecret(ctx, { name, baseUrl, clientId, host, refused: error });
      tokens = await exchange(clientSecret);
    }
    // Asked of the API itself, as `profile add` does: the token works, and the id is the one commands take.
    const client = await instanceClient({ ...common, token: tokens.access_token });
    const self = await ctx.activity
      .track(client.ops.users.get({ id: 'self' }), `Checking the token with ${host}`)
      .catch((error: unknown) => {
        throw new LmsError(
          `${host} gave a token that its API does not accept: ` +
            `${error instanceof Error ? error.message : String(error)}; nothing was saved`,
          error instanceof LmsError ? error.exitCode : 1,
          { cause: error },
        );
      });
    const record = self as { id?: unknown; name?: unknown };
    const user =
      typeof record.id === 'number' || typeof record.id === 'string'
        ? { id: record.id, name: typeof record.name === 'string' && record.name ? record.name : `user ${record.id}` }
        : tokens.user;
    if (!user) throw new LmsError(`${host} answered GET /api/v1/users/self without a user; nothing was saved`, 1);

    const { saveProfile, fallbackNotice } = await import('../../config/credentials.js');
    const profile: Profile = {
      url: baseUrl,
      ...(insecure ? { insecure: true } : {}),
      user,
      clientId,
      ...(caFile ? { caFile } : {}),
    };
    const credential = {
      kind: 'oauth' as const,
      access_token: tokens.access_token,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      ...(tokens.expires_at ? { expires_at: tokens.expires_at } : {}),
      client_id: clientId,
      ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
    };
    const keychain = await ctx.keychain();
    const stored = await saveProfile(store, name, profile, credential, {
      keychain: () => keychain,
      insecureStorage: opts.insecureStorage === true,
    });
    if (stored.unavailable) trace?.(`keychain: ${stored.unavailable.message}`);
    const notice = fallbackNotice(stored, store.path);
    if (notice) err(ctx.io, `${notice}\n`);
    listener.finish({
      ok: true,
      message: `Logged in to ${host} as ${user.name}. You can close this window and return to the terminal.`,
    });
    err(ctx.io, `Logged in to ${host} as ${user.name} (id ${user.id})\n`);
  } catch (error) {
    listener.finish({
      ok: false,
      message:
        `The login did not finish: ${error instanceof Error ? error.message : String(error)}. The terminal ` +
        'says what to do next.',
    });
    throw error;
  } finally {
    listener.close();
  }
}

/**
 * The profile a login is for: -p or LMS_PROFILE; else, with --url, one named after its host; else
 * the default profile, logged in again.
 */
function profileName(ctx: Context, url: URL | undefined, current: string | undefined): string {
  const named = ctx.globals.profile ?? (ctx.env.LMS_PROFILE || undefined);
  const name = named ?? (url ? url.host.replace(/[^\w.-]/g, '-') : current);
  if (!name)
    throw new UsageError('give the profile to log in with -p NAME, and the instance with --url', {
      hint: 'lms auth login -p prod --url https://lms.example.edu --client-id ID',
    });
  const invalid = invalidProfileName(name);
  if (invalid) throw new UsageError(invalid);
  return name;
}

// A developer key's secret comes from stdin or a hidden prompt, never a flag (`ps` and shell history would show it).

async function secretFromStdin(ctx: Context): Promise<string> {
  const secret = (
    await readBoundedText('-', ctx.io.stdin, { limit: MAX_SECRET_BYTES, what: '--client-secret-stdin' })
  ).trim();
  if (!secret) throw new UsageError('--client-secret-stdin: the client secret on standard input is empty');
  return secret;
}

/**
 * The secret of a key the instance refused without one: asked for at a hidden prompt; in a script,
 * the refusal (exit 3, as any refused client) and how to give it. Nothing was saved either way.
 */
async function askForSecret(
  ctx: Context,
  k: { name: string; baseUrl: string; clientId: string; host: string; refused: LmsError },
): Promise<string> {
  const how =
    `printf %s "$CLIENT_SECRET" | lms auth login -p ${k.name} --url ${k.baseUrl} --client-id ${k.clientId}` +
    ' --client-secret-stdin';
  if (!ctx.interactive) {
    throw new LmsError(
      `${k.host} wants the client secret of developer key ${k.clientId}: it is a confidential client, not a public ` +
        'one; nothing was saved',
      ExitCode.auth,
      {
        cause: k.refused,
        hint: `give the secret on standard input: ${how}`,
      },
    );
  }
  const secret = (
    await (await ctx.prompter()).secret(`Developer key ${k.clientId} is a confidential client: its client secret:`)
  ).trim();
  if (!secret) throw new UsageError('the client secret is empty; nothing was saved', { hint: how });
  return secret;
}

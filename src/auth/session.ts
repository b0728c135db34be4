// The token of a profile whose secret is stored (in the keychain or the profile file), kept usable:
// an OAuth access token about to expire is renewed before it is sent, and one the server refuses
// (a 401 with WWW-Authenticate) is renewed once and the request sent again.
//
// Renewal happens once however many ask: requests of this process share one renewal, and other
// processes wait on the profile's lock file. Whoever holds the lock reads the stored credential
// afresh first: if its access token is no longer the one that was refused (or about to expire),
// someone renewed it meanwhile and that token is used as it is; otherwise this one renews and
// stores the result. Eight commands started together across an expiry send one refresh request.
import { dirname, join } from 'node:path';
import type { ApiClient } from '../client/client.js';
import { accessTokenOf, readCredential, updateCredential, type Credential } from '../config/credentials.js';
import type { Keychain } from '../config/keychain.js';
import { withFileLock } from '../config/lock.js';
import { invalidProfileName, type ProfileStore } from '../config/profiles.js';
import { ExitCode, LmsError } from '../errors.js';
import { type Grant, OAuthError, refreshAccessToken } from './oauth.js';

/** An access token with less than this left is renewed before it is sent. */
const RENEW_MARGIN_MS = 60_000;
/** Long enough for the holder's one request to time out, and then some. */
const LOCK_WAIT_MS = 90_000;
const LOCK_STALE_MS = 120_000;

export interface TokenSessionOptions {
  name: string;
  store: ProfileStore;
  keychain: () => Keychain;
  /** A client for the token endpoint, sending no token of its own. */
  tokenClient: () => Promise<ApiClient>;
  now?: () => number;
  trace?: (line: string) => void;
  lockWaitMs?: number;
}

export class TokenSession {
  private credential: Credential;
  private renewal: Promise<string | undefined> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly options: TokenSessionOptions,
    credential: Credential,
  ) {
    this.credential = credential;
    this.now = options.now ?? Date.now;
  }

  /** The token the client should send now. */
  get token(): string {
    return accessTokenOf(this.credential);
  }

  get stored(): Credential {
    return this.credential;
  }

  /** Whether the access token would be refused soon (by this machine's clock) and can be renewed. */
  expiringSoon(): boolean {
    const c = this.credential;
    return (
      c.kind === 'oauth' &&
      !!c.refresh_token &&
      !!c.expires_at &&
      Date.parse(c.expires_at) - this.now() < RENEW_MARGIN_MS
    );
  }

  /** The token to send, renewed first when it is about to expire. */
  async fresh(): Promise<string> {
    if (this.expiringSoon()) return (await this.renew(this.token)) ?? this.token;
    return this.token;
  }

  /** A token to use instead of `refused`, or undefined when there is none to be had (no refresh token). */
  renew = async (refused: string): Promise<string | undefined> => {
    if (this.token !== refused) return this.token;
    if (this.credential.kind !== 'oauth' || !this.credential.refresh_token) return undefined;
    this.renewal ??= this.renewLocked(refused).finally(() => {
      this.renewal = undefined;
    });
    return this.renewal;
  };

  private renewLocked(refused: string): Promise<string | undefined> {
    const { name, store, keychain } = this.options;
    const lockName = invalidProfileName(name) ? 'profile' : name;
    const lock = join(dirname(store.path), 'locks', `${lockName}.refresh.lock`);
    const what = `renewing the token of profile "${name}"`;
    return withFileLock(
      lock,
      { waitMs: this.options.lockWaitMs ?? LOCK_WAIT_MS, staleMs: LOCK_STALE_MS, what },
      async () => {
        const profile = store.get(name);
        const current = profile ? await readCredential(name, profile, keychain) : undefined;
        if (!current) {
          throw new LmsError(`profile "${name}" was logged out while this command ran`, ExitCode.auth, {
            hint: `lms auth login -p ${name}`,
          });
        }
        this.credential = current;
        // Another command renewed it while this one waited.
        if (accessTokenOf(current) !== refused) return accessTokenOf(current);
        if (current.kind !== 'oauth' || !current.refresh_token) return undefined;
        this.options.trace?.(`↻ renewing the access token of profile "${name}"`);
        const client = await this.options.tokenClient();
        let grant: Grant;
        try {
          // A public key's login has no secret: its refresh token alone renews it.
          grant = await refreshAccessToken(
            client,
            { clientId: current.client_id, clientSecret: current.client_secret, refreshToken: current.refresh_token },
            this.now(),
          );
        } catch (error) {
          if (error instanceof OAuthError && error.exitCode === ExitCode.auth) {
            throw new LmsError(
              `${new URL(client.baseUrl).host} no longer renews the token of profile "${name}" (${error.code}): run ` +
                'lms auth login again',
              ExitCode.auth,
              {
                cause: error,
                hint: `lms auth login -p ${name}`,
              },
            );
          }
          throw error;
        }
        const { expires_at: _expired, ...kept } = current;
        const renewed: Credential = {
          ...kept,
          access_token: grant.access_token,
          // Real instances keep the refresh token; one that sends a new one means it.
          refresh_token: grant.refresh_token ?? current.refresh_token,
          ...(grant.expires_at ? { expires_at: grant.expires_at } : {}),
        };
        await updateCredential(store, name, renewed, keychain);
        this.credential = renewed;
        return renewed.access_token;
      },
    );
  }
}

/** The session of a profile's stored credential, or undefined when nothing is stored (logged out). */
export async function openTokenSession(options: TokenSessionOptions): Promise<TokenSession | undefined> {
  const profile = options.store.get(options.name);
  const credential = profile ? await readCredential(options.name, profile, options.keychain) : undefined;
  return credential ? new TokenSession(options, credential) : undefined;
}

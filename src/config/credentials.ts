// Where a profile's secret lives: the OS keychain when one answers, else the profile file (0600).
// The profile file always says which: `keychain` names the keychain entry, `token` or `oauth` hold
// the secret in the file itself. So a command reads the keychain (and loads its binding) only for a
// profile whose secret is there, and a token pasted before the keychain existed keeps working.
import { ExitCode, LmsError } from '../errors.js';
import { KeychainUnavailableError, type Keychain } from './keychain.js';
import type { OAuthCredential, Profile, ProfileStore } from './profiles.js';

/** A profile's secret: a pasted access token, or what an OAuth login gave. */
export type Credential = { kind: 'token'; token: string } | ({ kind: 'oauth' } & OAuthCredential);

type Storage = 'keychain' | 'file';

/** The access token a credential sends. */
export const accessTokenOf = (credential: Credential): string =>
  credential.kind === 'token' ? credential.token : credential.access_token;

/** The keychain entry of a profile: readable in a keychain viewer, one per profile and instance. */
function keychainAccount(name: string, url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return `${name}@${parsed ? `${parsed.host}${parsed.pathname.replace(/\/+$/, '')}` : url}`;
}

/** The profile without any secret or pointer to one. */
function withoutSecret(profile: Profile): Profile {
  const { token: _token, oauth: _oauth, keychain: _keychain, ...rest } = profile;
  return rest;
}

/**
 * The profile's secret, from the keychain or the file. A keychain that does not answer, or has lost
 * the entry, is an authentication failure that says what to do: nothing could be sent without it.
 */
export async function readCredential(
  name: string,
  profile: Profile,
  keychain: () => Keychain,
): Promise<Credential | undefined> {
  if (profile.keychain) {
    let text: string | undefined;
    try {
      text = await keychain().get(profile.keychain);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      throw new LmsError(
        `the token of profile "${name}" is in the keychain, and ` +
          `${error.message.replace(/^no keychain answered/, 'the keychain did not answer')}`,
        ExitCode.auth,
        {
          cause: error,
          hint:
            `unlock the keychain and retry, or log in again with \`lms auth login -p ${name} ` +
            `--insecure-storage\` to keep the token in the profile file`,
        },
      );
    }
    if (text === undefined) return undefined;
    return parseStored(text, name, profile.url);
  }
  if (profile.oauth) return { kind: 'oauth', ...profile.oauth };
  if (profile.token) return { kind: 'token', token: profile.token };
  return undefined;
}

function parseStored(text: string, name: string, url: string): Credential {
  try {
    const value = JSON.parse(text) as Partial<Credential> | null;
    if (value?.kind === 'token' && typeof value.token === 'string') return { kind: 'token', token: value.token };
    // A public developer key's login keeps no client secret.
    if (
      value?.kind === 'oauth' &&
      typeof value.access_token === 'string' &&
      typeof value.client_id === 'string' &&
      (value.client_secret === undefined || typeof value.client_secret === 'string')
    ) {
      const { access_token, refresh_token, expires_at, client_id, client_secret } = value;
      return {
        kind: 'oauth',
        access_token,
        client_id,
        ...(client_secret !== undefined ? { client_secret } : {}),
        ...(refresh_token ? { refresh_token } : {}),
        ...(expires_at ? { expires_at } : {}),
      };
    }
  } catch {
    // Reported below, without the text: it is a secret, even when it is not ours.
  }
  throw new LmsError(`the keychain entry of profile "${name}" is not one lms wrote`, ExitCode.auth, {
    hint:
      `log in again: \`lms auth login -p ${name}\`, or store a token: \`lms profile add ${name} --url ${url} ` +
      `--token-stdin\``,
  });
}

function serialise(credential: Credential): string {
  return JSON.stringify(credential);
}

function inFile(profile: Profile, credential: Credential): Profile {
  if (credential.kind === 'token') return { ...profile, token: credential.token };
  const { kind: _kind, ...oauth } = credential;
  return { ...profile, oauth };
}

export interface StoreOptions {
  keychain: () => Keychain;
  /** Keep the secret in the profile file on purpose (--insecure-storage): the keychain is not tried. */
  insecureStorage: boolean;
}

export interface Stored {
  storage: Storage;
  /** Why the keychain was not used, when it was tried and did not answer. */
  unavailable?: KeychainUnavailableError;
}

/**
 * Saves a profile with its secret: in the keychain when one answers (the file then holds only where
 * it is), else in the file. A secret the profile kept elsewhere before is removed from there, so a
 * token pasted into the file before moves into the keychain with the next save.
 */
export async function saveProfile(
  store: ProfileStore,
  name: string,
  profile: Profile,
  credential: Credential,
  options: StoreOptions,
): Promise<Stored> {
  const before = store.get(name);
  const bare = withoutSecret(profile);
  let unavailable: KeychainUnavailableError | undefined;
  if (!options.insecureStorage) {
    const account = keychainAccount(name, profile.url);
    try {
      await options.keychain().set(account, serialise(credential));
      await store.set(name, { ...bare, keychain: account });
      // A profile renamed onto another instance leaves its old entry behind otherwise.
      if (before?.keychain && before.keychain !== account)
        await options
          .keychain()
          .delete(before.keychain)
          .catch(() => false);
      return { storage: 'keychain' };
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      unavailable = error;
    }
  }
  await store.set(name, inFile(bare, credential));
  if (before?.keychain)
    await options
      .keychain()
      .delete(before.keychain)
      .catch(() => false);
  return { storage: 'file', unavailable };
}

/**
 * Replaces the secret where the profile keeps it now (a refreshed access token): no move, no
 * notice. The caller holds the profile's refresh lock.
 */
export async function updateCredential(
  store: ProfileStore,
  name: string,
  credential: Credential,
  keychain: () => Keychain,
): Promise<void> {
  const profile = store.get(name);
  if (!profile) throw new LmsError(`profile "${name}" was removed while its token was being renewed`, ExitCode.auth);
  if (profile.keychain) {
    await keychain().set(profile.keychain, serialise(credential));
    return;
  }
  await store.set(name, inFile(withoutSecret(profile), credential));
}

/** Forgets the profile's secret, keychain entry included; the profile (its URL) stays. */
export async function forgetCredential(store: ProfileStore, name: string, keychain: () => Keychain): Promise<void> {
  const profile = store.get(name);
  if (!profile) return;
  if (profile.keychain) await keychain().delete(profile.keychain);
  const { user: _user, ...rest } = withoutSecret(profile);
  await store.set(name, rest);
}

/** The one line to print when a secret went to the file because no keychain answered. */
export function fallbackNotice(stored: Stored, path: string): string | undefined {
  if (stored.storage !== 'file' || !stored.unavailable) return undefined;
  return (
    `notice: no keychain answered, so the token is kept in ${path}, readable only by you (--insecure-storage ` +
    'chooses the file without asking)'
  );
}

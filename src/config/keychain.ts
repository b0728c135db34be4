// The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows)
// through @napi-rs/keyring. The binding is a native addon outside the bundle, required only here
// and only when a credential is read from or written to the keychain: no other command loads it.
//
// On Linux the entries are pinned to the Secret Service. Left to itself the binding falls back to
// the kernel's keyutils when no Secret Service answers, which keeps a secret only until the session
// ends (and in a container may be shared with whoever else runs there): a token that vanishes at
// the next login is worse than the plain file, so an absent Secret Service counts as no keychain.
import { FailureError } from '../errors.js';

/** Every entry lms keeps is under this service name; the account names the profile. */
export const KEYCHAIN_SERVICE = 'lms-cli';

/** A keychain lock prompt is answered by a person: give them time, but not forever. */
const KEYCHAIN_WAIT_MS = 30_000;

export interface Keychain {
  /** The secret stored under `account`, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** Whether there was an entry to delete. */
  delete(account: string): Promise<boolean>;
}

/** No keychain answered: none runs, it is locked, or the binding has no build for this platform. */
export class KeychainUnavailableError extends FailureError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`no keychain answered (${reason})`, options);
  }
}

type Binding = typeof import('@napi-rs/keyring');

/** The keychain of this machine; the binding is loaded on the first call, not before. */
export function osKeychain(): Keychain {
  let binding: Binding | undefined;
  const entry = (account: string) => {
    binding ??= loadBinding();
    return new binding.AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });
  };
  const call = async <T>(what: () => Promise<T>): Promise<T> => {
    try {
      return await what();
    } catch (error) {
      if (error instanceof KeychainUnavailableError) throw error;
      const e = error as { name?: string; message?: string };
      if (e.name === 'AbortError' || e.name === 'TimeoutError')
        throw new KeychainUnavailableError(`it did not answer within ${KEYCHAIN_WAIT_MS / 1000} s`, { cause: error });
      throw new KeychainUnavailableError(firstLine(e.message ?? String(error)), { cause: error });
    }
  };
  return {
    get: (account) =>
      call(async () => (await entry(account).getPassword(AbortSignal.timeout(KEYCHAIN_WAIT_MS))) ?? undefined),
    set: (account, secret) => call(() => entry(account).setPassword(secret, AbortSignal.timeout(KEYCHAIN_WAIT_MS))),
    delete: (account) => call(() => entry(account).deleteCredential(AbortSignal.timeout(KEYCHAIN_WAIT_MS))),
  };
}

function loadBinding(): Binding {
  try {
    // A require, not an import: the bundle keeps the package external and the launcher's require
    // finds it in node_modules beside the bundle.
    return require('@napi-rs/keyring') as Binding;
  } catch (error) {
    // An optional dependency: an install may have gone without it, or without a build for this platform.
    const missing =
      (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
      /'@napi-rs\/keyring'/.test((error as Error).message);
    const reason = missing
      ? '@napi-rs/keyring is not installed'
      : `@napi-rs/keyring has no build for ${process.platform}-${process.arch}`;
    throw new KeychainUnavailableError(reason, { cause: error });
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

// Keychains for tests that run in-process: one in memory, and one that never answers (no Secret
// Service, a locked keychain). No test in-process touches the machine's own keychain.
import { KeychainUnavailableError, type Keychain } from '../../src/config/keychain.js';

export interface MemoryKeychain extends Keychain {
  readonly entries: Map<string, string>;
  /** How many reads it answered. */
  reads: number;
}

export function memoryKeychain(): MemoryKeychain {
  const entries = new Map<string, string>();
  const keychain: MemoryKeychain = {
    entries,
    reads: 0,
    async get(account) {
      keychain.reads++;
      return entries.get(account);
    },
    async set(account, secret) {
      entries.set(account, secret);
    },
    async delete(account) {
      return entries.delete(account);
    },
  };
  return keychain;
}

export function absentKeychain(reason = 'Secret Service: no D-Bus session'): Keychain {
  const fail = async (): Promise<never> => {
    throw new KeychainUnavailableError(reason);
  };
  return { get: fail, set: fail, delete: fail };
}

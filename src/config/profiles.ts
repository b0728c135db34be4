// Named profiles: the base URL of each instance and its token (or where the keychain keeps it), in a
// conf file readable only by its owner.
// Reading is a plain JSON read: every command against a real instance reads its profile, and conf
// (with its schema validator) costs about as much to load as the rest of the command. conf is
// loaded only to write, which it does atomically.
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { noProfile } from './no-profile.js';
import { lmsPaths } from '../lms-paths.js';

export interface Profile {
  url: string;
  /** A pasted access token kept in this file (the keychain did not answer, or was not asked). */
  token?: string;
  /** The owner accepted sending the token over plain http to a remote host. */
  insecure?: boolean;
  /** The keychain entry (service "lms-cli", this account) that holds the profile's secret. */
  keychain?: string;
  /** An OAuth login kept in this file (the keychain did not answer, or --insecure-storage). */
  oauth?: OAuthCredential;
  /** Whose credential it is, as the instance said when it was stored. */
  user?: { id: number | string; name: string };
  /** The developer key an OAuth login used, for the next `lms auth login`. */
  clientId?: string;
  /**
   * A PEM file of the certificate authority the instance's certificate comes from, trusted besides Node's own (an
   * absolute path).
   */
  caFile?: string;
}

/** What an OAuth login stores: the tokens, when the access token expires, and the developer key. */
export interface OAuthCredential {
  access_token: string;
  refresh_token?: string;
  /** When the access token stops working (ISO 8601, by this machine's clock); absent when it does not expire. */
  expires_at?: string;
  client_id: string;
  /** A confidential developer key's secret; a public key (PKCE only) has none. */
  client_secret?: string;
}

interface Stored {
  current?: string;
  profiles: Record<string, Profile>;
}

export interface ProfileStore {
  readonly path: string;
  list(): { name: string; profile: Profile; current: boolean }[];
  get(name: string): Profile | undefined;
  current(): string | undefined;
  set(name: string, profile: Profile): Promise<void>;
  use(name: string): Promise<void>;
  remove(name: string): Promise<void>;
}

/** Names a profile may not have: they name properties of every JavaScript object. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Why `name` cannot name a profile, or undefined when it can. */
export function invalidProfileName(name: string): string | undefined {
  if (RESERVED_NAMES.has(name)) return `"${name}" is reserved and cannot name a profile`;
  if (!/^[A-Za-z0-9][\w.-]*$/.test(name) || name.length > 64) {
    return (
      `invalid profile name "${name}": use letters, digits, '.', '_' or '-' (at most 64, starting with a ` +
      'letter or digit)'
    );
  }
  return undefined;
}

export function openProfiles(configDir?: string): ProfileStore {
  const dir = configDir ?? lmsPaths().config;
  const path = join(dir, 'config.json');
  const read = (): Record<string, unknown> => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      throw new UsageError(`${path} is not valid JSON`, {
        hint: 'fix or remove the file, then add the profiles again',
      });
    }
  };
  const writer = async () => {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { default: Conf } = await import('conf');
    return new Conf<Stored>({
      projectName: 'lms',
      projectSuffix: '',
      cwd: dir,
      configName: 'config',
      defaults: { profiles: {} },
      configFileMode: 0o600,
    });
  };
  const protect = () => {
    // Tokens live in this file: only its owner may read it or list its directory.
    chmodSync(dirname(path), 0o700);
    if (existsSync(path)) chmodSync(path, 0o600);
  };
  // The profiles as a map, so a name is only ever a key: never `constructor` or `__proto__` of a
  // plain object, whatever the file (which its owner may have edited) holds.
  const all = (): Map<string, Profile> => {
    const stored: unknown = read().profiles;
    const profiles = new Map<string, Profile>();
    if (typeof stored !== 'object' || stored === null) return profiles;
    for (const [name, profile] of Object.entries(stored)) {
      if (typeof profile === 'object' && profile !== null && typeof (profile as Profile).url === 'string')
        profiles.set(name, profile as Profile);
    }
    return profiles;
  };
  const current = () => {
    const name: unknown = read().current;
    return typeof name === 'string' && all().has(name) ? name : undefined;
  };
  return {
    path,
    list: () => {
      const now = current();
      return [...all()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, profile]) => ({ name, profile, current: now === name }));
    },
    get: (name) => all().get(name),
    current,
    async set(name, profile) {
      const invalid = invalidProfileName(name);
      if (invalid) throw new UsageError(invalid);
      const profiles = all();
      profiles.set(name, profile);
      const conf = await writer();
      conf.set('profiles', Object.fromEntries(profiles));
      if (!current()) conf.set('current', name);
      protect();
    },
    async use(name) {
      if (!all().has(name)) throw noProfile(name, all().keys());
      (await writer()).set('current', name);
      protect();
    },
    async remove(name) {
      const profiles = all();
      if (!profiles.delete(name)) throw noProfile(name, all().keys());
      const wasCurrent = read().current === name;
      const conf = await writer();
      conf.set('profiles', Object.fromEntries(profiles));
      if (wasCurrent) conf.delete('current');
      protect();
    },
  };
}

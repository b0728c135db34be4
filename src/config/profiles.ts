// Named profiles: the base URL and token of each instance, in a conf file readable only by its owner.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';

export interface Profile {
  url: string;
  token?: string;
  /** The owner accepted sending the token over plain http to a remote host. */
  insecure?: boolean;
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
  set(name: string, profile: Profile): void;
  use(name: string): void;
  remove(name: string): void;
}

/** Names a profile may not have: they name properties of every JavaScript object. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Why `name` cannot name a profile, or undefined when it can. */
export function invalidProfileName(name: string): string | undefined {
  if (RESERVED_NAMES.has(name)) return `"${name}" is reserved and cannot name a profile`;
  if (!/^[A-Za-z0-9][\w.-]*$/.test(name) || name.length > 64) {
    return `invalid profile name "${name}": use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)`;
  }
  return undefined;
}

const noProfile = (name: string) => new UsageError(`no profile named "${name}"`, { hint: 'lms profile list shows the profiles' });

export function openProfiles(configDir?: string): ProfileStore {
  if (configDir && !existsSync(configDir)) mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const conf = new Conf<Stored>({
    projectName: 'lms',
    projectSuffix: '',
    cwd: configDir,
    configName: 'config',
    defaults: { profiles: {} },
    configFileMode: 0o600,
  });
  const protect = () => {
    // Tokens live in this file: only its owner may read it or list its directory.
    chmodSync(dirname(conf.path), 0o700);
    if (existsSync(conf.path)) chmodSync(conf.path, 0o600);
  };
  // The profiles as a map, so a name is only ever a key: never `constructor` or `__proto__` of a
  // plain object, whatever the file (which its owner may have edited) holds.
  const all = (): Map<string, Profile> => {
    const stored: unknown = conf.get('profiles');
    const profiles = new Map<string, Profile>();
    if (typeof stored !== 'object' || stored === null) return profiles;
    for (const [name, profile] of Object.entries(stored)) {
      if (typeof profile === 'object' && profile !== null && typeof (profile as Profile).url === 'string') profiles.set(name, profile as Profile);
    }
    return profiles;
  };
  const save = (profiles: Map<string, Profile>) => conf.set('profiles', Object.fromEntries(profiles));
  const current = () => {
    const name: unknown = conf.get('current');
    return typeof name === 'string' && all().has(name) ? name : undefined;
  };
  return {
    path: conf.path,
    list: () => {
      const now = current();
      return [...all()].sort(([a], [b]) => a.localeCompare(b)).map(([name, profile]) => ({ name, profile, current: now === name }));
    },
    get: (name) => all().get(name),
    current,
    set(name, profile) {
      const invalid = invalidProfileName(name);
      if (invalid) throw new UsageError(invalid);
      const profiles = all();
      profiles.set(name, profile);
      save(profiles);
      if (!current()) conf.set('current', name);
      protect();
    },
    use(name) {
      if (!all().has(name)) throw noProfile(name);
      conf.set('current', name);
      protect();
    },
    remove(name) {
      const profiles = all();
      if (!profiles.delete(name)) throw noProfile(name);
      save(profiles);
      if (conf.get('current') === name) conf.delete('current');
      protect();
    },
  };
}

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
  const all = () => conf.get('profiles') ?? {};
  return {
    path: conf.path,
    list: () => Object.entries(all()).sort(([a], [b]) => a.localeCompare(b)).map(([name, profile]) => ({ name, profile, current: conf.get('current') === name })),
    get: (name) => all()[name],
    current: () => conf.get('current'),
    set(name, profile) {
      if (!/^[\w.-]+$/.test(name)) throw new UsageError(`invalid profile name "${name}": use letters, digits, '.', '_' or '-'`);
      conf.set('profiles', { ...all(), [name]: profile });
      if (!conf.get('current')) conf.set('current', name);
      protect();
    },
    use(name) {
      if (!all()[name]) throw new UsageError(`no profile named "${name}"`, { hint: 'lms profile list shows the profiles' });
      conf.set('current', name);
      protect();
    },
    remove(name) {
      const profiles = { ...all() };
      if (!profiles[name]) throw new UsageError(`no profile named "${name}"`, { hint: 'lms profile list shows the profiles' });
      delete profiles[name];
      conf.set('profiles', profiles);
      if (conf.get('current') === name) conf.delete('current');
      protect();
    },
  };
}

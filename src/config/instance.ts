// Which instance a command talks to, and why. The sources, strongest first:
//   1. --mock / --no-mock (the last one given); --mock with --profile is refused by the parser
//   2. -p/--profile NAME
//   3. LMS_BASE_URL (with LMS_TOKEN)
//   4. LMS_MOCK=1
//   5. LMS_PROFILE
//   6. the default profile (`lms profile use`)
// A flag beats the environment, which beats the profile file, as with gh and aws. Within the
// environment, a variable that names an instance outright (an address, the mock) beats LMS_PROFILE,
// which only picks a saved profile and tends to live in a shell's start-up file: exporting LMS_MOCK=1
// for a session must not leave a long-exported LMS_PROFILE=prod in charge.
import { UsageError } from '../errors.js';
import { noProfile } from './no-profile.js';
import type { Profile, ProfileStore } from './profiles.js';

export interface InstanceFlags {
  /** true for --mock, false for --no-mock, undefined when neither was given. */
  mock?: boolean;
  profile?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A source that named an instance and lost to a stronger one: what -v reports as not used. */
type Overridden = 'LMS_MOCK' | 'LMS_BASE_URL' | 'LMS_PROFILE';

export type InstanceChoice =
  | { kind: 'mock'; from: '--mock' | 'LMS_MOCK'; overridden: Overridden[] }
  | {
      kind: 'remote';
      from: '--profile' | 'LMS_BASE_URL' | 'LMS_PROFILE' | 'default';
      /** The profile named by the flag or LMS_PROFILE; the default profile is looked up later. */
      profile?: string;
      overridden: Overridden[];
    };

/** `LMS_MOCK=0`, `false` or empty is off, as it was before any of this. */
const envFlag = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';

const named = (v: string | undefined): v is string => v !== undefined && v !== '';

/**
 * The source that wins, from flags and environment only: whether a command runs against the mock is
 * known before the profile file is read (the file matters only to the last source).
 */
export function chooseInstance(flags: InstanceFlags, env: Env): InstanceChoice {
  const mockEnv = envFlag(env.LMS_MOCK) && flags.mock !== false;
  const present = (names: Overridden[]) =>
    names.filter((n) => (n === 'LMS_MOCK' ? envFlag(env.LMS_MOCK) : named(env[n])));
  if (flags.mock === true)
    return { kind: 'mock', from: '--mock', overridden: present(['LMS_BASE_URL', 'LMS_PROFILE']) };
  if (named(flags.profile))
    return {
      kind: 'remote',
      from: '--profile',
      profile: flags.profile,
      overridden: present(['LMS_BASE_URL', 'LMS_MOCK', 'LMS_PROFILE']),
    };
  if (named(env.LMS_BASE_URL)) {
    // LMS_PROFILE still lends its token when LMS_TOKEN is not set (see resolveRemote).
    return {
      kind: 'remote',
      from: 'LMS_BASE_URL',
      profile: env.LMS_PROFILE || undefined,
      overridden: present(['LMS_MOCK']),
    };
  }
  if (mockEnv) return { kind: 'mock', from: 'LMS_MOCK', overridden: present(['LMS_PROFILE']) };
  // Reached with LMS_MOCK set only under --no-mock: then it is one more source that lost.
  if (named(env.LMS_PROFILE))
    return { kind: 'remote', from: 'LMS_PROFILE', profile: env.LMS_PROFILE, overridden: present(['LMS_MOCK']) };
  return { kind: 'remote', from: 'default', overridden: present(['LMS_MOCK']) };
}

export interface RemoteInstance {
  baseUrl: string;
  /** Where the URL came from, for messages: `LMS_BASE_URL` or `the URL of profile "prod"`. */
  urlSource: string;
  fromEnv: boolean;
  /** The token itself, when it is at hand: LMS_TOKEN, or a token pasted into the profile file. */
  token?: string;
  /** `LMS_TOKEN`, `profile "prod"`, or `the keychain (profile "prod")`. */
  tokenSource?: string;
  /**
   * The token at hand that lost to the one used, for -v: `LMS_TOKEN` when a profile named with -p
   * keeps its own, `the token of profile "prod"` when LMS_TOKEN beats the token of the profile
   * whose URL is used.
   */
  unusedToken?: string;
  /**
   * The token is the profile's stored credential, to be read (from the keychain, or an OAuth login
   * in the profile file) and kept fresh: see src/auth/session.ts. `token` is then not set.
   */
  stored?: 'keychain' | 'file';
  /** The profile that supplied the URL or the token, if any. */
  profileName?: string;
  /** The profile's consent to plain http, which holds only for the profile's own URL. */
  insecure: boolean;
  /** The profile's CA file, which, like its consent to plain http, holds only for its own URL. */
  caFile?: string;
}

/**
 * A remote choice made concrete from the profile file. The token (pasted or from a login, in the
 * keychain or the file): an explicitly named profile (`-p`) keeps its own, so a token exported for one instance is
 * never sent to another the user picked by flag; otherwise LMS_TOKEN beats the profile's, as GH_TOKEN beats gh's stored
 * token. With LMS_BASE_URL and no LMS_TOKEN, the profile that would otherwise be used lends its token.
 */
export function resolveRemote(
  choice: Extract<InstanceChoice, { kind: 'remote' }>,
  env: Env,
  store: Pick<ProfileStore, 'get' | 'current' | 'list'>,
): RemoteInstance {
  const name =
    choice.profile ?? (choice.from === 'default' || choice.from === 'LMS_BASE_URL' ? store.current() : undefined);
  const profile: Profile | undefined = name ? store.get(name) : undefined;
  if (name && !profile && choice.from !== 'LMS_BASE_URL') {
    throw noProfile(
      name,
      store.list().map((p) => p.name),
      choice.from === 'LMS_PROFILE' ? 'LMS_PROFILE' : undefined,
    );
  }
  const fromEnv = choice.from === 'LMS_BASE_URL';
  const baseUrl = fromEnv ? env.LMS_BASE_URL! : profile?.url;
  if (!baseUrl) {
    throw new UsageError('no instance configured', {
      hint: 'add one with `lms profile add NAME --url https://lms.example.edu`, set LMS_BASE_URL, or use --mock',
    });
  }
  const envToken = env.LMS_TOKEN || undefined;
  // Read off the file alone: the keychain is asked only once the profile's token is the one used.
  const storage = !profile
    ? undefined
    : profile.keychain
      ? 'keychain'
      : profile.oauth || profile.token
        ? 'file'
        : undefined;
  const useProfile = storage !== undefined && (choice.from === '--profile' || !envToken);
  const stored = useProfile && (storage === 'keychain' || profile?.oauth) ? storage : undefined;
  const token = useProfile ? (stored ? undefined : profile?.token) : envToken;
  const tokenSource = useProfile
    ? storage === 'keychain'
      ? `the keychain (profile "${name}")`
      : `profile "${name}"`
    : envToken
      ? 'LMS_TOKEN'
      : undefined;
  // With LMS_BASE_URL a profile only lends its token, when LMS_TOKEN is unset: it lost nothing else.
  const unusedToken = useProfile
    ? envToken
      ? 'LMS_TOKEN'
      : undefined
    : storage !== undefined && !fromEnv
      ? `the token of profile "${name}"`
      : undefined;
  return {
    baseUrl,
    urlSource: fromEnv ? 'LMS_BASE_URL' : `the URL of profile "${name}"`,
    fromEnv,
    token,
    tokenSource,
    ...(unusedToken ? { unusedToken } : {}),
    ...(stored ? { stored } : {}),
    profileName: profile ? name : undefined,
    insecure: !fromEnv && profile?.insecure === true,
    ...(!fromEnv && profile?.caFile ? { caFile: profile.caFile } : {}),
  };
}

/**
 * What to do when the instance refuses the token itself (expired, revoked, mistyped), by where the
 * token came from: an OAuth login is renewed by logging in again, a pasted token by storing a new
 * one, LMS_TOKEN by whoever set it.
 */
export function refusedTokenHint(
  remote: Pick<RemoteInstance, 'tokenSource' | 'profileName' | 'baseUrl' | 'caFile' | 'insecure'>,
  loggedIn: boolean,
): string {
  if (remote.tokenSource === 'LMS_TOKEN')
    return 'LMS_TOKEN was refused: set it to a valid token, or unset it to use a profile';
  const name = remote.profileName ?? 'NAME';
  if (loggedIn) return `log in again: lms auth login -p ${name}`;
  // The whole command that stores it again: `profile add` replaces the profile, so it is given
  // everything the profile had that the command line can say.
  const kept = [
    `--url ${shellWord(remote.baseUrl)}`,
    remote.caFile ? `--ca-file ${shellWord(remote.caFile)}` : '',
    remote.insecure ? '--insecure' : '',
  ];
  return (
    'make a new token in your account settings on the instance, then store it: lms profile add ' +
    `${shellWord(name)} ${kept.filter(Boolean).join(' ')} --token-stdin`
  );
}

/** A word as a POSIX shell reads it back: quoted only when it must be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Where the winning choice came from, as -v names it. */
export function describeSource(choice: InstanceChoice, defaultProfile?: string): string {
  switch (choice.from) {
    case '--mock':
      return '--mock';
    case 'LMS_MOCK':
      return 'LMS_MOCK in the environment';
    case '--profile':
      return `--profile ${choice.profile}`;
    case 'LMS_BASE_URL':
      return 'LMS_BASE_URL in the environment';
    case 'LMS_PROFILE':
      return `profile "${choice.profile}" from LMS_PROFILE in the environment`;
    case 'default':
      return `the default profile "${defaultProfile}"`;
  }
}

/** The -v line: which instance, from where, with whose token, and what lost (a token that lost too). */
export function describeInstance(
  choice: InstanceChoice,
  where: string,
  tokenSource: string,
  defaultProfile?: string,
  unusedToken?: string,
): string {
  const unused = [...choice.overridden, ...(unusedToken ? [unusedToken] : [])];
  const lost = unused.length ? `; not used: ${unused.join(', ')}` : '';
  return `instance: ${where} (from ${describeSource(choice, defaultProfile)}); token from ${tokenSource}${lost}`;
}

// The checks of `lms doctor`, over a probe of the machine and the instance, so each check's every
// outcome can be tried with a fake one. Each says what it found and, when that is not fine, what to do.
import { ApiError, LmsError, NetworkError } from '../../errors.js';

export type Status = 'ok' | 'warn' | 'fail';

export interface Check {
  check: string;
  status: Status;
  detail: string;
  fix?: string;
}

/** The instance the flags, environment and profiles choose, as src/config/instance.ts resolves it. */
export type InstanceReport =
  | { kind: 'mock'; where: string; source: string; overridden: string[]; tokenSource: string }
  | { kind: 'remote'; url: string; source: string; overridden: string[]; tokenSource?: string };

/** A directory lms writes to: whether it may, and whether it is there yet. */
export type Writable = { writable: true; exists: boolean } | { writable: false; reason: string };

export interface DoctorProbe {
  /** `process.versions.node`. */
  node: string;
  platform: NodeJS.Platform;
  /** The driver the mock would use, and why it would not open, if it would not. */
  sqlite(): Promise<{ driver: string; error?: string }>;
  /** Throws the error a command would (no instance configured, no such profile). */
  instance(): Promise<InstanceReport>;
  /** The profile file and its directory; no mode when there is no file. */
  configFile(): Promise<{ path: string; mode?: number; dirMode?: number }>;
  /** `GET /api/v1/users/self`: the user, and the server's `Date`. Throws as the client does. */
  whoami(): Promise<{ user: unknown; date?: string }>;
  now(): number;
  cacheDir(): Promise<string>;
  stateDir(): Promise<string>;
  writable(dir: string): Promise<Writable>;
}

/** Above this, what lms prints relative to now ("due in 2 days") is visibly off. */
export const CLOCK_SKEW_WARN_SECONDS = 60;

/** Node's supported floor, as the launcher checks it. */
const NODE_FLOOR = [20, 18, 1] as const;

export async function runChecks(probe: DoctorProbe): Promise<Check[]> {
  const checks: Check[] = [nodeCheck(probe.node)];
  const instance = await settle(probe.instance());
  checks.push(await sqliteCheck(probe, instance.value?.kind === 'mock'));
  checks.push(instanceCheck(instance));
  checks.push(await configCheck(probe));
  checks.push(tokenCheck(instance));
  const canAsk = instance.value !== undefined && (instance.value.kind === 'mock' || instance.value.tokenSource !== undefined);
  const asked = canAsk ? await settle(probe.whoami()) : undefined;
  checks.push(authCheck(instance.value, asked));
  checks.push(clockCheck(probe, instance.value, asked));
  checks.push(await directoryCheck(probe, 'code cache', await probe.cacheDir(), 'warn', 'commands compile from scratch on every run, which makes each start slower'));
  checks.push(await directoryCheck(probe, 'state', await probe.stateDir(), 'fail', 'bulk imports, grade --csv and apply keep their journals there, so a re-run cannot skip the rows already done'));
  return checks;
}

interface Settled<T> {
  value?: T;
  error?: unknown;
}

async function settle<T>(work: Promise<T>): Promise<Settled<T>> {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const hintOf = (error: unknown) => (error instanceof LmsError ? error.hint : undefined);

export function nodeCheck(version: string): Check {
  const [major, minor, patch] = version.split('.').map(Number);
  const shown = `Node.js ${version}`;
  const [fm, fn, fp] = NODE_FLOOR;
  if (major < fm || (major === fm && (minor < fn || (minor === fn && patch < fp)))) {
    return { check: 'node', status: 'fail', detail: `${shown}: lms needs ${NODE_FLOOR.join('.')} or newer`, fix: 'install Node.js 22 or 24, the LTS lines' };
  }
  if (major === 20) return { check: 'node', status: 'warn', detail: `${shown}: Node 20's support ends in April 2026`, fix: 'move to Node.js 22 or 24, the LTS lines' };
  if (major % 2 === 1) return { check: 'node', status: 'warn', detail: `${shown}: not a long-term support line`, fix: 'use Node.js 22 or 24, the LTS lines' };
  return { check: 'node', status: 'ok', detail: `${shown}, a long-term support line` };
}

async function sqliteCheck(probe: DoctorProbe, mockInUse: boolean): Promise<Check> {
  const { driver, error } = await probe.sqlite();
  const which = driver === 'node:sqlite' ? 'node:sqlite, built into this Node' : `better-sqlite3, as Node ${probe.node} has no SQLite of its own`;
  if (!error) return { check: 'sqlite', status: 'ok', detail: `the mock would use ${which}; it opens` };
  // Only the mock needs SQLite: against a real instance it is a warning about --mock, not a fault.
  return {
    check: 'sqlite',
    status: mockInUse ? 'fail' : 'warn',
    detail: `the mock would use ${which}, and it does not open: ${error}`,
    fix: driver === 'node:sqlite' ? 'use Node.js 22.13 or newer' : 'use Node.js 22.13 or newer, or reinstall lms where npm can build native addons (a C++ toolchain and Python)',
  };
}

function instanceCheck(instance: Settled<InstanceReport>): Check {
  const report = instance.value;
  if (!report) return { check: 'instance', status: 'fail', detail: messageOf(instance.error), fix: hintOf(instance.error) ?? 'add a profile with `lms profile add NAME --url URL --token-stdin`, set LMS_BASE_URL, or use --mock' };
  const lost = report.overridden.length ? `; not used: ${report.overridden.join(', ')}` : '';
  const where = report.kind === 'mock' ? `the mock (${report.where})` : report.url;
  return { check: 'instance', status: 'ok', detail: `${where}, from ${report.source}${lost}` };
}

async function configCheck(probe: DoctorProbe): Promise<Check> {
  const { path, mode, dirMode } = await probe.configFile();
  if (mode === undefined) return { check: 'config', status: 'ok', detail: `no profile file yet (${path})` };
  if (probe.platform === 'win32') return { check: 'config', status: 'ok', detail: `${path} (Windows: file modes do not apply; your user profile protects it)` };
  const octal = (m: number) => (m & 0o777).toString(8).padStart(4, '0');
  // The file holds tokens: anyone else who can read it can act as its owner on every instance in it.
  if ((mode & 0o077) !== 0) {
    return { check: 'config', status: 'fail', detail: `${path} holds tokens and others may read or write it (mode ${octal(mode)})`, fix: `chmod 600 ${path}` };
  }
  if (dirMode !== undefined && (dirMode & 0o077) !== 0) {
    const dir = path.replace(/[/\\][^/\\]+$/, '');
    return { check: 'config', status: 'warn', detail: `${path} is 0600, but others may list or change its directory (mode ${octal(dirMode)})`, fix: `chmod 700 ${dir}` };
  }
  return { check: 'config', status: 'ok', detail: `${path} (mode ${octal(mode)})` };
}

function tokenCheck(instance: Settled<InstanceReport>): Check {
  const report = instance.value;
  if (!report) return { check: 'token', status: 'warn', detail: 'not checked: no instance' };
  if (report.kind === 'mock' || report.tokenSource) return { check: 'token', status: 'ok', detail: `present, from ${report.tokenSource} (never shown)` };
  return {
    check: 'token',
    status: 'fail',
    detail: `no token for ${report.url}`,
    fix: report.source.startsWith('--profile') ? 'store one with `lms profile add NAME --url URL --token-stdin`, or set LMS_TOKEN' : 'set LMS_TOKEN, or store one with `lms profile add NAME --url URL --token-stdin`',
  };
}

function authCheck(report: InstanceReport | undefined, asked: Settled<{ user: unknown; date?: string }> | undefined): Check {
  if (!asked) return { check: 'auth', status: 'warn', detail: `not checked: ${report ? 'no token' : 'no instance'}` };
  const host = report?.kind === 'remote' ? hostOf(report.url) : 'the mock';
  if (asked.value) {
    const user = (typeof asked.value.user === 'object' && asked.value.user !== null ? asked.value.user : {}) as { id?: unknown; name?: unknown; login_id?: unknown };
    if (user.id === undefined) return { check: 'auth', status: 'fail', detail: `${host} answered GET /api/v1/users/self without a user`, fix: "is the URL the instance's address, not a page in front of it?" };
    const login = typeof user.login_id === 'string' ? `, ${user.login_id}` : '';
    return { check: 'auth', status: 'ok', detail: `accepted by ${host}: ${typeof user.name === 'string' ? user.name : 'a user'} (user ${String(user.id)}${login})` };
  }
  const error = asked.error;
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    return { check: 'auth', status: 'fail', detail: `${host} did not accept the token (${error.status})`, fix: 'make a new token in your account settings on the instance and store it with `lms profile add NAME --url URL --token-stdin` (or set LMS_TOKEN)' };
  }
  if (error instanceof NetworkError) {
    return { check: 'auth', status: 'fail', detail: `could not reach ${host}: ${error.message}`, fix: error.hint ?? 'check the URL, the network (a proxy, a VPN), and that the instance is up; --timeout waits longer' };
  }
  if (error instanceof ApiError) {
    return { check: 'auth', status: 'fail', detail: `${host} answered GET /api/v1/users/self with ${error.status}`, fix: error.hint ?? "is the URL the instance's address (https://lms.example.edu, without a path)?" };
  }
  return { check: 'auth', status: 'fail', detail: messageOf(error), fix: hintOf(error) };
}

/**
 * Only a warning: the API takes a bearer token whatever the time, and a clock wrong enough to break
 * TLS fails the auth check already. What drifts is what lms works out against this machine's clock.
 */
function clockCheck(probe: DoctorProbe, report: InstanceReport | undefined, asked: Settled<{ user: unknown; date?: string }> | undefined): Check {
  if (report?.kind === 'mock') return { check: 'clock', status: 'ok', detail: "the mock runs in this process, on this machine's clock" };
  if (!asked?.value) return { check: 'clock', status: 'warn', detail: 'not checked: no answer from the instance' };
  const date = asked.value.date === undefined ? NaN : Date.parse(asked.value.date);
  if (Number.isNaN(date)) return { check: 'clock', status: 'warn', detail: 'not checked: the instance sent no Date header' };
  // The header has whole seconds: a second either way is no skew.
  const skew = Math.round((probe.now() - date) / 1000);
  const off = Math.abs(skew) <= 1 ? 'in step with' : `${describeSeconds(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'}`;
  if (Math.abs(skew) <= CLOCK_SKEW_WARN_SECONDS) return { check: 'clock', status: 'ok', detail: `this machine's clock is ${off} the instance's` };
  return { check: 'clock', status: 'warn', detail: `this machine's clock is ${off} the instance's: relative times and dates lms works out will be off`, fix: 'turn on network time (timedatectl set-ntp true; on macOS, Date & Time settings)' };
}

function describeSeconds(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

async function directoryCheck(probe: DoctorProbe, name: string, dir: string, severity: 'warn' | 'fail', consequence: string): Promise<Check> {
  const found = await probe.writable(dir);
  if (found.writable) return { check: name, status: 'ok', detail: `${dir} is writable${found.exists ? '' : ' (made on first use)'}` };
  return { check: name, status: severity, detail: `${dir} is not writable (${found.reason}): ${consequence}`, fix: `make it writable (chown/chmod), or point ${name === 'state' ? 'LMS_STATE_DIR' : 'LMS_CACHE_DIR'} at a directory that is` };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

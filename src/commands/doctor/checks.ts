// The checks of `lms doctor`, over a probe of the machine and the instance, so each check's every
// outcome can be tried with a fake one. Each says what it found and, when that is not fine, what to do.
import { DEFAULT_CONCURRENCY } from '../../model/context.js';
import { ApiError, ExitCode, LmsError, NetworkError } from '../../errors.js';
import { CERTIFICATE_ERROR } from '../../net.js';

type Status = 'ok' | 'warn' | 'fail';

export interface Check {
  check: string;
  status: Status;
  detail: string;
  fix?: string;
}

/** The instance the flags, environment and profiles choose, as src/config/instance.ts resolves it. */
export type InstanceReport =
  | { kind: 'mock'; where: string; source: string; overridden: string[]; tokenSource: string }
  | {
      kind: 'remote';
      url: string;
      source: string;
      overridden: string[];
      tokenSource?: string;
      /**
       * The CA file trusted besides Node's roots, as messages name it:
       * `the CA file /etc/school.pem (from LMS_CA_FILE)`.
       */
      caFile?: string;
    };

/** What the instance said to `GET /api/v1/users/self`. */
interface SelfAnswer {
  user: unknown;
  /** The `Date` header. */
  date?: string;
  /** `X-Rate-Limit-Remaining` and `X-Request-Cost`, as sent (float strings on real instances). */
  remaining?: string;
  cost?: string;
  /** How many of its tries were throttled before it was answered. */
  throttled?: number;
}

/** How the instance's host is reached, as src/transport/proxy.ts decides it. */
type ProxyReport =
  | { kind: 'none'; host: string }
  | { kind: 'proxy'; host: string; proxy: string; variable: string }
  | { kind: 'bypassed'; host: string; variable: string; entry: string };

/** What an https instance's certificate is verified against, as src/transport/http.ts chooses it. */
type TrustReport =
  | { kind: 'plain'; host: string }
  | {
      kind: 'roots' | 'file';
      host: string;
      /** NODE_EXTRA_CA_CERTS, when set: Node adds it to whatever is trusted. */
      extra?: string;
      /**
       * The file chosen, as messages name it (`the CA bundle /etc/ssl/cert.pem (from SSL_CERT_FILE)`), and how many
       * certificates it holds.
       */
      file?: { label: string; certificates: number };
      /** Sources set but not read, each with the one that comes first: `SSL_CERT_FILE (CURL_CA_BUNDLE comes first)`. */
      unread: string[];
    };

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
  /**
   * How requests reach a remote instance: directly, through a proxy (credentials masked), or
   * directly because NO_PROXY names it. Throws the usage error a malformed proxy variable is.
   */
  proxy(): Promise<ProxyReport>;
  /** What the instance's certificate is verified against; throws the usage error an unreadable CA file is. */
  trust(): Promise<TrustReport>;
  /** `GET /api/v1/users/self` as the token's own user, whatever --as-user says. Throws as the client does. */
  whoami(): Promise<SelfAnswer>;
  /** The id --as-user gave, if any. */
  asUser?: string;
  /** `GET /api/v1/users/self?as_user_id=ID`: the user the instance let the token act as. Throws as the client does. */
  actAs(id: string): Promise<unknown>;
  /** The first page (two users) of the root account's users. Throws as the client does. */
  accountUsers(): Promise<unknown>;
  now(): number;
  cacheDir(): Promise<string>;
  stateDir(): Promise<string>;
  /** The cache directory, when an older lms's state is still there, to be moved into the state directory. */
  stateToMove(): Promise<string | undefined>;
  writable(dir: string): Promise<Writable>;
}

/** Above this, what lms prints relative to now ("due in 2 days") is visibly off. */
const CLOCK_SKEW_WARN_SECONDS = 60;

/**
 * What a real instance charges up front for each request in flight (Canvas's pre-flight penalty),
 * refunded when it completes: a request is throttled when the bucket has no room for it.
 */
const PREFLIGHT_PENALTY = 50;

/**
 * Below this much X-Rate-Limit-Remaining, lms's own requests in flight at once (bulk jobs, apply,
 * lookups) no longer fit in the bucket: the next command is slowed to one request at a time or
 * throttled outright. In a bucket of 600-700 (Canvas's defaults) that is the bottom third or so,
 * near where the client's own limiter drops to one request at a time.
 */
const RATE_LIMIT_LOW = DEFAULT_CONCURRENCY * PREFLIGHT_PENALTY;

/** Node's supported floor, as the launcher checks it. */
const NODE_FLOOR = [20, 18, 1] as const;

export async function runChecks(probe: DoctorProbe): Promise<Check[]> {
  const checks: Check[] = [nodeCheck(probe.node)];
  const instance = await settle(probe.instance());
  checks.push(await sqliteCheck(probe, instance.value?.kind === 'mock'));
  checks.push(instanceCheck(instance));
  checks.push(await configCheck(probe));
  checks.push(tokenCheck(instance));
  checks.push(proxyCheck(instance.value, instance.value?.kind === 'remote' ? await settle(probe.proxy()) : undefined));
  checks.push(trustCheck(instance.value, instance.value?.kind === 'remote' ? await settle(probe.trust()) : undefined));
  const canAsk =
    instance.value !== undefined && (instance.value.kind === 'mock' || instance.value.tokenSource !== undefined);
  const asked = canAsk ? await settle(probe.whoami()) : undefined;
  checks.push(reachableCheck(instance.value, asked));
  checks.push(authCheck(instance.value, asked));
  checks.push(clockCheck(probe, instance.value, asked));
  checks.push(rateLimitCheck(instance.value, asked));
  checks.push(await masqueradeCheck(probe, instance.value, asked));
  checks.push(
    await directoryCheck(
      probe,
      'code cache',
      await probe.cacheDir(),
      'warn',
      'commands compile from scratch on every run, which makes each start slower',
    ),
  );
  checks.push(await stateCheck(probe));
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

function nodeCheck(version: string): Check {
  const [major, minor, patch] = version.split('.').map(Number);
  const shown = `Node.js ${version}`;
  const [fm, fn, fp] = NODE_FLOOR;
  if (major < fm || (major === fm && (minor < fn || (minor === fn && patch < fp)))) {
    return {
      check: 'node',
      status: 'fail',
      detail: `${shown}: lms needs ${NODE_FLOOR.join('.')} or newer`,
      fix: 'install Node.js 22 or 24, the LTS lines',
    };
  }
  if (major === 20)
    return {
      check: 'node',
      status: 'warn',
      detail: `${shown}: Node 20's support ended on 30 April 2026`,
      fix: 'move to Node.js 22 or 24, the LTS lines',
    };
  if (major % 2 === 1)
    return {
      check: 'node',
      status: 'warn',
      detail: `${shown}: not a long-term support line`,
      fix: 'use Node.js 22 or 24, the LTS lines',
    };
  return { check: 'node', status: 'ok', detail: `${shown}, a long-term support line` };
}

async function sqliteCheck(probe: DoctorProbe, mockInUse: boolean): Promise<Check> {
  const { driver, error } = await probe.sqlite();
  const which =
    driver === 'node:sqlite'
      ? 'node:sqlite, built into this Node'
      : `@photostructure/sqlite, as Node ${probe.node} has no SQLite of its own`;
  if (!error) return { check: 'sqlite', status: 'ok', detail: `the mock would use ${which}; it opens` };
  // Only the mock needs SQLite: against a real instance it is a warning about --mock, not a fault.
  return {
    check: 'sqlite',
    status: mockInUse ? 'fail' : 'warn',
    detail: `the mock would use ${which}, and it does not open: ${error}`,
    fix:
      driver === 'node:sqlite'
        ? 'use Node.js 22.13 or newer'
        : 'use Node.js 22.13 or newer, or reinstall lms with its optional dependencies (npm ls ' +
          '@photostructure/sqlite shows whether it installed)',
  };
}

function instanceCheck(instance: Settled<InstanceReport>): Check {
  const report = instance.value;
  if (!report)
    return {
      check: 'instance',
      status: 'fail',
      detail: messageOf(instance.error),
      fix:
        hintOf(instance.error) ??
        'add a profile with `lms profile add NAME --url URL --token-stdin`, set LMS_BASE_URL, or use --mock',
    };
  const lost = report.overridden.length ? `; not used: ${report.overridden.join(', ')}` : '';
  const where = report.kind === 'mock' ? `the mock (${report.where})` : report.url;
  return { check: 'instance', status: 'ok', detail: `${where}, from ${report.source}${lost}` };
}

async function configCheck(probe: DoctorProbe): Promise<Check> {
  const { path, mode, dirMode } = await probe.configFile();
  if (mode === undefined) return { check: 'config', status: 'ok', detail: `no profile file yet (${path})` };
  if (probe.platform === 'win32')
    return {
      check: 'config',
      status: 'ok',
      detail: `${path} (Windows: file modes do not apply; your user profile protects it)`,
    };
  const octal = (m: number) => (m & 0o777).toString(8).padStart(4, '0');
  // The file holds tokens: anyone else who can read it can act as its owner on every instance in it.
  if ((mode & 0o077) !== 0) {
    return {
      check: 'config',
      status: 'fail',
      detail: `${path} holds tokens and others may read or write it (mode ${octal(mode)})`,
      fix: `chmod 600 ${path}`,
    };
  }
  if (dirMode !== undefined && (dirMode & 0o077) !== 0) {
    const dir = path.replace(/[/\\][^/\\]+$/, '');
    return {
      check: 'config',
      status: 'warn',
      detail: `${path} is 0600, but others may list or change its directory (mode ${octal(dirMode)})`,
      fix: `chmod 700 ${dir}`,
    };
  }
  return { check: 'config', status: 'ok', detail: `${path} (mode ${octal(mode)})` };
}

function tokenCheck(instance: Settled<InstanceReport>): Check {
  const report = instance.value;
  if (!report) return { check: 'token', status: 'warn', detail: 'not checked: no instance' };
  if (report.kind === 'mock' || report.tokenSource)
    return { check: 'token', status: 'ok', detail: `present, from ${report.tokenSource} (never shown)` };
  return {
    check: 'token',
    status: 'fail',
    detail: `no token for ${report.url}`,
    fix: report.source.startsWith('--profile')
      ? 'store one with `lms profile add NAME --url URL --token-stdin`, or set LMS_TOKEN'
      : 'set LMS_TOKEN, or store one with `lms profile add NAME --url URL --token-stdin`',
  };
}

/** The proxy the instance's requests go through, if any; a malformed proxy variable fails every request. */
function proxyCheck(report: InstanceReport | undefined, proxy: Settled<ProxyReport> | undefined): Check {
  if (report?.kind === 'mock')
    return { check: 'proxy', status: 'ok', detail: 'not used: the mock runs in this process' };
  if (!proxy) return { check: 'proxy', status: 'warn', detail: 'not checked: no instance' };
  const found = proxy.value;
  if (!found) return { check: 'proxy', status: 'fail', detail: messageOf(proxy.error), fix: hintOf(proxy.error) };
  if (found.kind === 'none') return { check: 'proxy', status: 'ok', detail: `none: ${found.host} is reached directly` };
  if (found.kind === 'bypassed')
    return {
      check: 'proxy',
      status: 'ok',
      detail: `bypassed by ${found.variable} ("${found.entry}"): ${found.host} is reached directly`,
    };
  return {
    check: 'proxy',
    status: 'ok',
    detail: `${found.host} is reached through ${found.proxy} (from ${found.variable})`,
  };
}

/** Where the trust in an https instance's certificate comes from; a CA file that cannot be read fails every request. */
function trustCheck(report: InstanceReport | undefined, trust: Settled<TrustReport> | undefined): Check {
  if (report?.kind === 'mock')
    return { check: 'trust', status: 'ok', detail: 'not used: the mock runs in this process' };
  if (!trust) return { check: 'trust', status: 'warn', detail: 'not checked: no instance' };
  const found = trust.value;
  if (!found) return { check: 'trust', status: 'fail', detail: messageOf(trust.error), fix: hintOf(trust.error) };
  if (found.kind === 'plain') return { check: 'trust', status: 'ok', detail: `not used: ${found.host} is plain HTTP` };
  const roots = `Node's own roots${found.extra ? ` and NODE_EXTRA_CA_CERTS (${found.extra})` : ''}`;
  const file = found.file
    ? `${found.file.label}, ` +
      `${found.file.certificates === 1 ? 'one certificate' : `${found.file.certificates} certificates`}, besides ` +
      `${roots}`
    : roots;
  const unread = found.unread.length ? `; not read: ${found.unread.join(', ')}` : '';
  return { check: 'trust', status: 'ok', detail: `${found.host}'s certificate is verified against ${file}${unread}` };
}

/** Whether anything answered at the URL, over TLS the runtime trusts; what it answered is the auth check's. */
function reachableCheck(report: InstanceReport | undefined, asked: Settled<SelfAnswer> | undefined): Check {
  if (!asked)
    return { check: 'reachable', status: 'warn', detail: `not checked: ${report ? 'no token' : 'no instance'}` };
  const error = asked.error;
  if (error === undefined || error instanceof ApiError) {
    if (report?.kind !== 'remote')
      return { check: 'reachable', status: 'ok', detail: 'the mock answers in this process' };
    const answered = `${hostOf(report.url)} answered${error ? ` (${error.status})` : ''}`;
    const trusted = report.caFile ? `trusts through ${report.caFile}` : 'trusts';
    return {
      check: 'reachable',
      status: 'ok',
      detail: report.url.startsWith('https:')
        ? `${answered} over HTTPS, with a certificate this machine ${trusted}`
        : `${answered} over plain HTTP`,
    };
  }
  if (error instanceof NetworkError && error.code && CERTIFICATE_ERROR.test(error.code)) {
    // The transport says what to do where it can (which CA file was used, the variables that add one).
    if (error.hint) return { check: 'reachable', status: 'fail', detail: error.message, fix: error.hint };
    // An expired or not-yet-valid certificate is as often this machine's date as the server's.
    const clock = /^CERT_(HAS_EXPIRED|NOT_YET_VALID)$/.test(error.code) ? "; check this machine's date too" : '';
    return {
      check: 'reachable',
      status: 'fail',
      detail:
        `the TLS certificate of ${report?.kind === 'remote' ? hostOf(report.url) : 'the instance'} is not ` +
        `trusted here (${error.code}): ${error.message}`,
      fix:
        `if the instance uses your organisation's own certificate authority, point LMS_CA_FILE (or the profile's ` +
        '--ca-file, or NODE_EXTRA_CA_CERTS) at its PEM file; otherwise its certificate needs fixing on the ' +
        `server${clock}`,
    };
  }
  if (error instanceof NetworkError) {
    return {
      check: 'reachable',
      status: 'fail',
      detail: `not reachable: ${error.message}`,
      fix:
        error.hint ??
        'check the URL, the network (a proxy, a VPN), and that the instance is up; --timeout waits longer',
    };
  }
  // Nothing was sent: the client refused first (plain http to another host, a malformed URL).
  return { check: 'reachable', status: 'fail', detail: `not asked: ${messageOf(error)}`, fix: hintOf(error) };
}

function authCheck(report: InstanceReport | undefined, asked: Settled<SelfAnswer> | undefined): Check {
  if (!asked) return { check: 'auth', status: 'warn', detail: `not checked: ${report ? 'no token' : 'no instance'}` };
  const host = hostLabel(report);
  if (asked.value) {
    const user = userOf(asked.value.user);
    if (!user)
      return {
        check: 'auth',
        status: 'fail',
        detail: `${host} answered GET /api/v1/users/self without a user`,
        fix: "is the URL the instance's address, not a page in front of it?",
      };
    const login = typeof user.login_id === 'string' ? `, ${user.login_id}` : '';
    return {
      check: 'auth',
      status: 'ok',
      detail: `accepted by ${host}: ${user.name ?? 'a user'} (user ${String(user.id)}${login})`,
    };
  }
  const error = asked.error;
  // A throttled 403 says nothing about the token; the rate limit check reports it.
  if (error instanceof ApiError && error.throttled)
    return { check: 'auth', status: 'warn', detail: `not checked: ${host} throttled the request` };
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    // The client's hint for a refused token knows where the token came from (a login, a pasted token, LMS_TOKEN).
    const fix =
      error.tokenRefused && error.hint
        ? error.hint
        : 'make a new token in your account settings on the instance and store it with `lms profile add NAME --url ' +
          'URL --token-stdin` (or set LMS_TOKEN)';
    return { check: 'auth', status: 'fail', detail: `${host} did not accept the token (${error.status})`, fix };
  }
  // Refused before the request could go (a login that can no longer be renewed): its own words say what to do.
  if (error instanceof LmsError && !(error instanceof ApiError) && error.exitCode === ExitCode.auth) {
    return { check: 'auth', status: 'fail', detail: messageOf(error), fix: error.hint };
  }
  if (error instanceof ApiError) {
    return {
      check: 'auth',
      status: 'fail',
      detail: `${host} answered GET /api/v1/users/self with ${error.status}`,
      fix: error.hint ?? "is the URL the instance's address (https://lms.example.edu, without a path)?",
    };
  }
  // The reachable check says why there was no answer.
  return { check: 'auth', status: 'warn', detail: `not checked: no answer from ${host}` };
}

/**
 * Only a warning: the API takes a bearer token whatever the time, and a clock wrong enough to break
 * TLS fails the reachable check already. What drifts is what lms works out against this machine's clock.
 */
function clockCheck(
  probe: DoctorProbe,
  report: InstanceReport | undefined,
  asked: Settled<SelfAnswer> | undefined,
): Check {
  if (report?.kind === 'mock')
    return { check: 'clock', status: 'ok', detail: "the mock runs in this process, on this machine's clock" };
  if (!asked?.value) return { check: 'clock', status: 'warn', detail: 'not checked: no answer from the instance' };
  const date = asked.value.date === undefined ? NaN : Date.parse(asked.value.date);
  if (Number.isNaN(date))
    return { check: 'clock', status: 'warn', detail: 'not checked: the instance sent no Date header' };
  // The header has whole seconds: a second either way is no skew.
  const skew = Math.round((probe.now() - date) / 1000);
  const off =
    Math.abs(skew) <= 1 ? 'in step with' : `${describeSeconds(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'}`;
  if (Math.abs(skew) <= CLOCK_SKEW_WARN_SECONDS)
    return { check: 'clock', status: 'ok', detail: `this machine's clock is ${off} the instance's` };
  return {
    check: 'clock',
    status: 'warn',
    detail: `this machine's clock is ${off} the instance's: relative times and dates lms works out will be off`,
    fix: 'turn on network time (timedatectl set-ntp true; on macOS, Date & Time settings)',
  };
}

const RATE_LIMIT_FIX =
  'wait a minute for the bucket to refill; run fewer lms commands or scripts at once with this token, give bulk ' +
  'jobs a lower --concurrency, and lists a smaller --per-page (each request costs less)';

/**
 * From the headers of the token check's own answer. An instance that sends no
 * X-Rate-Limit-Remaining (one that does not throttle this token, a proxy that drops it) is not
 * measured, which is no fault.
 */
function rateLimitCheck(report: InstanceReport | undefined, asked: Settled<SelfAnswer> | undefined): Check {
  if (!asked)
    return { check: 'rate limit', status: 'warn', detail: `not checked: ${report ? 'no token' : 'no instance'}` };
  const host = hostLabel(report);
  if (asked.error instanceof ApiError && asked.error.throttled) {
    return {
      check: 'rate limit',
      status: 'fail',
      detail:
        `${host} is throttling this token now: it answered ${asked.error.status} (Rate Limit Exceeded) to ` +
        'every try',
      fix: RATE_LIMIT_FIX,
    };
  }
  if (!asked.value) return { check: 'rate limit', status: 'warn', detail: 'not checked: no answer from the instance' };
  const { remaining, cost, throttled = 0 } = asked.value;
  const left = remaining === undefined || remaining.trim() === '' ? NaN : Number(remaining);
  const waited = throttled
    ? `${host} throttled this check ${throttled === 1 ? 'once' : `${throttled} times`} before it answered`
    : '';
  if (!Number.isFinite(left)) {
    if (waited) return { check: 'rate limit', status: 'fail', detail: waited, fix: RATE_LIMIT_FIX };
    const why =
      report?.kind === 'mock'
        ? 'the mock sent no X-Rate-Limit-Remaining (it sends one with every answer: a proxy in between drops it?)'
        : `${host} sent no X-Rate-Limit-Remaining (it does not throttle this token, or a proxy in between drops the ` +
          'header)';
    return { check: 'rate limit', status: 'ok', detail: `not measured: ${why}` };
  }
  const spent =
    cost !== undefined && cost.trim() !== '' && Number.isFinite(Number(cost))
      ? `; this check cost ${units(Number(cost))}`
      : '';
  const figure = `${units(left)} left in the rate-limit bucket (X-Rate-Limit-Remaining${spent})`;
  if (left < RATE_LIMIT_LOW) {
    return {
      check: 'rate limit',
      status: 'fail',
      detail:
        `only ${figure}${waited ? `, and ${waited}` : ''}: under ${RATE_LIMIT_LOW}, what lms's ` +
        `${DEFAULT_CONCURRENCY} requests at once are charged up front, so commands now are slowed to one request at ` +
        'a time or throttled',
      fix: RATE_LIMIT_FIX,
    };
  }
  if (waited) return { check: 'rate limit', status: 'fail', detail: `${waited}; ${figure} now`, fix: RATE_LIMIT_FIX };
  return {
    check: 'rate limit',
    status: 'ok',
    detail: `${figure}: room for about ${Math.floor(left / PREFLIGHT_PENALTY)} requests at once`,
  };
}

/** Whole units, or two decimals for the small costs real instances report ("0.0152"). */
function units(n: number): string {
  return Math.abs(n) >= 10 ? String(Math.round(n)) : String(Number(n.toFixed(2)));
}

const MASQUERADE_NEEDS =
  'acting as others needs an admin of the root account whose role has "Users - act as" (become_user), and, to act ' +
  'as another admin, every permission that admin has';

/**
 * Whether the token's user may act as another (`--as-user`). The probe has to name someone else: a
 * real instance lets anyone "act as" themselves, so that would prove nothing. With --as-user, the
 * user it names is tried, and a refusal fails, since every command of this run would fail the same
 * way; without it, one other user of the account is tried and either answer is information, as most
 * tokens (teachers', students') have no business acting as others.
 */
async function masqueradeCheck(
  probe: DoctorProbe,
  report: InstanceReport | undefined,
  asked: Settled<SelfAnswer> | undefined,
): Promise<Check> {
  const self = userOf(asked?.value?.user);
  if (!asked || !self)
    return {
      check: 'masquerade',
      status: 'warn',
      detail: `not checked: ${!report ? 'no instance' : !asked ? 'no token' : 'no user to start from'}`,
    };
  const host = hostLabel(report);
  const who = describeUser(self);
  const flag = probe.asUser;
  if (flag !== undefined) {
    const tried = await settle(probe.actAs(flag));
    const target = userOf(tried.value);
    if (target)
      return {
        check: 'masquerade',
        status: 'ok',
        detail: `allowed: --as-user ${flag} acts as ${describeUser(target)}`,
      };
    // A real instance answers 401 for a user it cannot find as well as for one the caller may not become; the
    // mock, 404.
    if (isRefusal(tried.error, [401, 403, 404])) {
      return {
        check: 'masquerade',
        status: 'fail',
        detail:
          `not allowed: ${host} refused to let ${who} act as user ${flag} (${tried.error.status}), so every ` +
          `command with --as-user ${flag} fails`,
        fix: `check the id (lms users get ${flag}); ${MASQUERADE_NEEDS}; or drop --as-user`,
      };
    }
    return {
      check: 'masquerade',
      status: 'warn',
      detail:
        'not checked: ' +
        `${tried.value === undefined ? messageOf(tried.error) : `${host} answered as_user_id=${flag} without a user`}`,
    };
  }
  const listed = await settle(probe.accountUsers());
  if (isRefusal(listed.error, [401, 403])) {
    return {
      check: 'masquerade',
      status: 'ok',
      detail:
        `not allowed: ${who} may not list the root account's users (${listed.error.status}), so is no admin ` +
        `there; ${MASQUERADE_NEEDS}`,
    };
  }
  if (listed.error !== undefined)
    return { check: 'masquerade', status: 'warn', detail: `not checked: ${messageOf(listed.error)}` };
  const other = (Array.isArray(listed.value) ? listed.value : [])
    .map(userOf)
    .find((u) => u !== undefined && String(u.id) !== String(self.id));
  if (!other)
    return {
      check: 'masquerade',
      status: 'ok',
      detail: 'not measured: the account has no other user to try acting as',
    };
  const tried = await settle(probe.actAs(String(other.id)));
  if (userOf(tried.value))
    return {
      check: 'masquerade',
      status: 'ok',
      detail: `allowed: ${who} may act as other users with --as-user (tried as ${describeUser(other)})`,
    };
  if (isRefusal(tried.error, [401, 403])) {
    return {
      check: 'masquerade',
      status: 'ok',
      detail:
        `not allowed: ${host} refused to let ${who} act as ${describeUser(other)} (${tried.error.status}); ` +
        `${MASQUERADE_NEEDS}`,
    };
  }
  return {
    check: 'masquerade',
    status: 'warn',
    detail:
      'not checked: ' +
      `${tried.value === undefined ? messageOf(tried.error) : `${host} answered as_user_id without a user`}`,
  };
}

/** The instance said no (not: it was throttled, or did not answer). */
function isRefusal(error: unknown, statuses: number[]): error is ApiError {
  return error instanceof ApiError && !error.throttled && statuses.includes(error.status);
}

interface UserSeen {
  id: unknown;
  name?: string;
  login_id?: unknown;
}

function userOf(value: unknown): UserSeen | undefined {
  if (typeof value !== 'object' || value === null || (value as { id?: unknown }).id === undefined) return undefined;
  const { id, name, login_id } = value as { id: unknown; name?: unknown; login_id?: unknown };
  return { id, name: typeof name === 'string' ? name : undefined, login_id };
}

function describeUser(user: UserSeen): string {
  return `${user.name ?? 'a user'} (user ${String(user.id)})`;
}

function hostLabel(report: InstanceReport | undefined): string {
  return report?.kind === 'remote' ? hostOf(report.url) : 'the mock';
}

function describeSeconds(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

async function stateCheck(probe: DoctorProbe): Promise<Check> {
  const dir = await probe.stateDir();
  const check = await directoryCheck(
    probe,
    'state',
    dir,
    'fail',
    'bulk imports, grade --csv and apply keep their journals there, so a re-run cannot skip the rows already done, ' +
      'and writes go in no audit log',
  );
  const old = await probe.stateToMove();
  if (old === undefined || check.status !== 'ok') return check;
  return {
    ...check,
    detail:
      `${check.detail}; the audit log, journals and apply's keys an older lms kept in ${old} move here when a ` +
      'command next uses them',
  };
}

async function directoryCheck(
  probe: DoctorProbe,
  name: string,
  dir: string,
  severity: 'warn' | 'fail',
  consequence: string,
): Promise<Check> {
  const found = await probe.writable(dir);
  if (found.writable)
    return { check: name, status: 'ok', detail: `${dir} is writable${found.exists ? '' : ' (made on first use)'}` };
  return {
    check: name,
    status: severity,
    detail: `${dir} is not writable (${found.reason}): ${consequence}`,
    fix:
      `make it writable (chown/chmod), or point ${name === 'state' ? 'LMS_STATE_DIR' : 'LMS_CACHE_DIR'} at a ` +
      'directory that is',
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

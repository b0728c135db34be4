// What commands get instead of globals: IO, environment, parsed global flags, and lazy getters for
// the client, profiles, the mock, prompts and the command tree. Nothing is opened until a command
// asks for it.
import { resolve } from 'node:path';
import type { AuditEntry } from '../audit/log.js';
import type { AuditScope, AuditTrail } from '../audit/trail.js';
import type { TokenSession } from '../auth/session.js';
import type { ApiClient, ClientOptions, PageCursor } from '../client/client.js';
import {
  chooseInstance,
  describeInstance,
  refusedTokenHint,
  resolveRemote,
  type InstanceChoice,
  type RemoteInstance,
} from '../config/instance.js';
import type { Keychain } from '../config/keychain.js';
import type { Profile, ProfileStore } from '../config/profiles.js';
import { showControls } from '../controls.js';
import { CancelledError, LmsError, UsageError, ExitCode } from '../errors.js';
import { createActivity, spinnerAllowed, type Activity, type SpinnerFactory } from '../io/activity.js';
import { err, type IOStreams } from '../io/streams.js';
import type { InputSource } from '../io/bounded.js';
import type { MockRuntime } from '../mock/runtime.js';
import type { Format } from '../output/formats.js';
import type { DryRun } from '../transport/dry-run.js';
import { RateLimiter } from '../transport/limiter.js';
import type { Transport } from '../transport/types.js';
import type { Prompter } from './prompter.js';
import { keepYoungGenerationSmall } from './young-generation.js';
import { canonicalDestructions, PlanChangedError, type Destruction } from './destructions.js';

/** Deps take a Prompter, so whoever builds Deps finds the type here too. */
export type { Prompter };

/** Real instances punish more parallelism with throttling; a few at once is the useful ceiling. */
export const DEFAULT_CONCURRENCY = 4;

export interface GlobalOptions {
  profile?: string;
  /** true for --mock, false for --no-mock, undefined when neither was given (the environment decides). */
  mock?: boolean;
  mockDb?: string;
  output?: Format;
  fields?: string[];
  all: boolean;
  limit?: number;
  perPage: number;
  asUser?: string;
  verbose: boolean;
  color: boolean;
  input: boolean;
  yes: boolean;
  timeoutSeconds: number;
  /** --timeout was given (a wait that is not one request's, such as a login's, has its own default). */
  timeoutGiven?: boolean;
  /** Allow a token over plain http to a host that is not this machine. */
  insecure: boolean;
  /** --raw: CSV without the guard against spreadsheet formulas. */
  raw?: boolean;
}

/** What tests (and the launcher) may replace. */
export interface Deps {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  /** Where a command that ends on Ctrl-C hands its way of ending (the entry's interrupt handler). */
  claimInterrupt?: (stop: () => void) => void;
  /** An already-open mock (tests pass an in-memory one). */
  mock?: MockRuntime;
  /** Directory of the profile file (tests pass a temporary one). */
  configDir?: string;
  /** Where tokens are kept: the OS keychain unless given (tests pass one of their own). */
  keychain?: Keychain;
  prompter?: Prompter;
  /** Makes the activity spinner (tests pass a fake; by default ora, loaded when first shown). */
  spinner?: SpinnerFactory;
  /** Lists a page at a time and hands out where the next starts (`lms mcp`'s cursors). */
  pageCursor?: PageCursor;
  /** The process's limiter, when a context is derived from another (each call of `lms mcp`). */
  limiter?: RateLimiter;
  /**
   * false: whoever runs the command is not the user at this machine (`lms mcp`'s assistant), and it
   * reads no local file but what it was handed (a course file given as text names no roster).
   */
  localFiles?: false;
  /**
   * The text of the inputs a surface hands over instead of files (`lms mcp`'s `csv_text`), by the
   * name the verb is given in the file's place (`csv`): what `ctx.input` reads that name as.
   */
  inputs?: ReadonlyMap<string, string>;
  /**
   * Answers confirmations instead of a prompt or --yes, for a surface whose caller has no terminal
   * (`lms mcp`): it throws to refuse. `destructive` is false for a confirmation that asks about
   * changes but destroys nothing.
   */
  consent?: (action: string, destructive: boolean, changes?: readonly Destruction[]) => Promise<void>;
  /** Which surface and verb the audit log names for this run's writes (the CLI's command path unless given). */
  audit?: AuditScope;
  /**
   * The plan a person was shown and confirmed before this run (`lms mcp`'s confirmation tokens):
   * the tool, its arguments, the dry run it answered and when, for whatever records the writes.
   */
  confirmed?: ConfirmedPlan;
}

/**
 * What a confirmation destroys, from the planner that asks (the bulk engine, apply): the changes as
 * planned for the question, and the plan made again. A person's "yes" holds for those changes only:
 * the plan is made again after it, and if it destroys anything else nothing runs (PlanChangedError).
 * A surface's consent (`lms mcp`) is handed the changes to check against the plan it confirmed.
 */
interface PlannedDestruction {
  changes: readonly Destruction[];
  again(): Promise<{ action: string; changes: readonly Destruction[] }>;
}

export interface ConfirmedPlan {
  tool: string;
  arguments: Record<string, unknown>;
  /** The dry run's result as the call that handed out the token answered it. */
  plan: Record<string, unknown>;
  /** The digest of what the plan destroys (or of its JSON), which the token carries: see mcp/confirm.ts planDigest. */
  planDigest: string;
  issuedAt: string;
}

export interface Context {
  readonly io: IOStreams;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  /** Which instance the flags and environment chose, and from where (the profile file decides the rest). */
  readonly instance: InstanceChoice;
  readonly mockMode: boolean;
  /** The command may read the local files its input names (see Deps.localFiles). */
  readonly localFiles: boolean;
  /**
   * What a file flag or argument names (`-` for stdin): the text handed over under that name (Deps.inputs), else the
   * path.
   */
  input(path: string): InputSource;
  /** The plan a person confirmed for this run, when one was (see Deps.confirmed). */
  readonly confirmed?: ConfirmedPlan;
  /**
   * The spinner on stderr while something slow is pending: `ctx.activity.track(promise, label)`.
   * Prompts pause it themselves; a progress bar calls `const resume = ctx.activity.pause()` first.
   */
  readonly activity: Activity;
  client(): Promise<ApiClient>;
  /**
   * Says the command is a long job (a bulk import, grading from a file, apply, export): from now
   * on each try of a request has --timeout to itself, and retries keep their full count, rather
   * than each request having --timeout in all, its retries included, as a one-shot command's does.
   */
  longJob(): void;
  /** One limiter per process: every request of a command, bulk rows included, is paced by it. */
  limiter(): RateLimiter;
  profiles(): Promise<ProfileStore>;
  /** The keychain; asking for it loads nothing, its binding loads on the first read or write. */
  keychain(): Promise<Keychain>;
  /**
   * The chosen profile's stored credential (in the keychain, or an OAuth login in the profile file),
   * renewed when it expires; undefined when the token is not a stored one (LMS_TOKEN, a pasted token
   * in the file, the mock) or the profile is logged out. The client sends its token.
   */
  tokenSession(): Promise<TokenSession | undefined>;
  mock(): Promise<MockRuntime>;
  /** Paging from --all / --limit: the first page unless told otherwise. */
  pageLimit(): number | undefined;
  /** Prompts only when both ends are a terminal and --no-input was not given. */
  readonly interactive: boolean;
  prompter(): Promise<Prompter>;
  /**
   * Makes this run a dry run (`--dry-run` on a verb that writes), before the client is first built:
   * reads are sent as usual, the first write is kept rather than sent and stops the command, and
   * nothing asks for confirmation, since nothing will be destroyed.
   */
  startDryRun(): Promise<DryRun>;
  /**
   * A context for a verb that another surface runs (`lms mcp`, a call at a time): its own streams,
   * globals and hooks, on the same instance, profile file and (opened once) mock.
   */
  derive(over: Partial<Deps>, globals: GlobalOptions): Promise<Context>;
  /**
   * Asks before a destructive action; `--yes` skips, and in scripts it is required. A verb that asks
   * about changes that destroy nothing (apply without deletions) says `destructive: false`.
   * `describe` names the target for a person at the prompt ("user 17 (Sam Student, sam)"): asked
   * only when there is a person to ask, so a script's --yes costs no extra request.
   */
  confirm(
    action: string,
    options?: { destructive?: boolean; describe?: () => Promise<string | undefined>; plan?: PlannedDestruction },
  ): Promise<void>;
  warn(message: string): void;
  /**
   * Ctrl-C is how this command ends (a server), not an interruption of it: the first one calls
   * `stop`, and the run ends as the command returns; a second ends the process as usual.
   */
  stopOnInterrupt(stop: () => void): void;
  /**
   * Writes a bulk job's outcome (its counts and journal) to the audit log, under this run's surface
   * and verb, when the job sent any write; every write itself is logged as it is sent.
   */
  auditJob(job: NonNullable<AuditEntry['job']>): Promise<void>;
}

export function createContext(deps: Deps, globals: GlobalOptions): Context {
  const { io, env } = deps;
  const instance = chooseInstance({ mock: globals.mock, profile: globals.profile }, env);
  const mockMode = instance.kind === 'mock';
  let clientPromise: Promise<ApiClient> | undefined;
  let pace: RateLimiter | undefined = deps.limiter;
  let dryRun: DryRun | undefined;
  // One deadline a request, its retries included, until the command says it is a long job.
  const timing = { callDeadlineMs: (): number | undefined => globals.timeoutSeconds * 1000 };
  // Set when the client is built (it knows the instance and whose token it sends); none on a dry run.
  const trail: { current?: AuditTrail } = {};

  const ctx: Context = {
    io,
    env,
    globals,
    instance,
    mockMode,
    localFiles: deps.localFiles !== false,
    input: (path) => {
      const text = deps.inputs?.get(path);
      return text === undefined ? path : { name: path, text };
    },
    confirmed: deps.confirmed,
    interactive: io.stdoutIsTTY && io.stdinIsTTY && globals.input,
    activity: createActivity(io, { enabled: spinnerAllowed(io, env, globals.color), spinner: deps.spinner }),
    profiles: once(() =>
      import('../config/profiles.js').then((m) => m.openProfiles(deps.configDir ?? env.LMS_CONFIG_DIR)),
    ),
    keychain: once(() =>
      deps.keychain ? Promise.resolve(deps.keychain) : import('../config/keychain.js').then((m) => m.osKeychain()),
    ),
    tokenSession: once(() => openSession(ctx)),
    mock: once(() =>
      deps.mock
        ? Promise.resolve(deps.mock)
        : import('../mock/index.js').then(async (m) =>
            saidIfRebuilt(await m.loadMock(globals.mockDb ?? (await m.defaultMockDbPath(env)), env), ctx.warn),
          ),
    ),
    // The dry run, if any, has started by now: it refuses to start once this has been asked.
    client: () =>
      (clientPromise ??= buildClient(ctx, { pageCursor: deps.pageCursor, dryRun, audit: deps.audit, trail, timing })),
    longJob: () => {
      timing.callDeadlineMs = () => undefined;
    },
    limiter: () => (pace ??= new RateLimiter({ maxConcurrency: DEFAULT_CONCURRENCY })),
    pageLimit: () => (globals.all ? undefined : (globals.limit ?? globals.perPage)),
    prompter: async () =>
      pausingActivity(
        deps.prompter ?? (await import('./prompter.js')).terminalPrompter(io.color && globals.color),
        ctx.activity,
      ),

    async derive(over, derived) {
      const mock = mockMode ? await ctx.mock() : deps.mock;
      // The instance's throttle sees one client: the calls of a session share this process's pace.
      return createContext({ ...deps, mock, limiter: ctx.limiter(), ...over }, derived);
    },

    async startDryRun() {
      // A client built already would send the writes this is meant to keep.
      if (clientPromise) throw new Error('a dry run starts before the client is built');
      dryRun ??= (await import('../transport/dry-run.js')).createDryRun();
      return dryRun;
    },

    async confirm(action, options) {
      if (dryRun) return;
      if (deps.consent) return deps.consent(action, options?.destructive !== false, options?.plan?.changes);
      // A script's --yes runs what the command planned as it ran: no one was shown another plan.
      if (globals.yes) return;
      if (!ctx.interactive) throw new UsageError(`${action}: pass --yes to confirm when not running interactively`);
      const described = await options?.describe?.().catch(() => undefined);
      const ok = await (await ctx.prompter()).confirm(showControls(`${described ?? action}?`, '\n'));
      if (!ok) throw new CancelledError();
      // The answer may come long after the question: it holds only for the plan it was asked about.
      const plan = options?.plan;
      if (plan) {
        const now = await plan.again();
        const same = canonicalDestructions(now.changes) === canonicalDestructions(plan.changes);
        if (!same) throw new PlanChangedError(action, now.action, plan.changes, now.changes);
      }
    },

    warn: (message) => err(io, showControls(`warning: ${message}\n`, '\n')),
    stopOnInterrupt: (stop) => deps.claimInterrupt?.(stop),
    auditJob: async (job) => trail.current?.job(job),
  };
  return ctx;
}

/** The first call starts the work; every call, that one included, gets the same promise. */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= start());
}

/** A prompt owns the terminal while it is open: no spinner over it. */
function pausingActivity(prompter: Prompter, activity: Activity): Prompter {
  const paused = async <T>(ask: () => Promise<T>): Promise<T> => {
    const resume = activity.pause();
    try {
      return await ask();
    } finally {
      resume();
    }
  };
  return {
    secret: (message) => paused(() => prompter.secret(message)),
    confirm: (message) => paused(() => prompter.confirm(message)),
  };
}

/** --verbose: one line per request and response on stderr. */
const tracer = (ctx: Context) => (ctx.globals.verbose ? (line: string) => err(ctx.io, `${line}\n`) : undefined);

/**
 * What the client needs beyond the options every instance shares; its transport is still bare.
 * `who` names the instance and where the token came from, for the audit log.
 */
type Connect = (
  options: Pick<ClientOptions, 'baseUrl' | 'token' | 'tokenHint' | 'transport' | 'plainHttp' | 'warn' | 'renewToken'>,
  who: { instance: string; via: string },
) => ApiClient;

interface BuildOptions {
  pageCursor: PageCursor | undefined;
  dryRun: DryRun | undefined;
  audit: AuditScope | undefined;
  trail: { current?: AuditTrail };
  /** The deadline of each request, read as it starts (see Context.longJob). */
  timing: { callDeadlineMs: () => number | undefined };
}

async function buildClient(
  ctx: Context,
  { pageCursor, dryRun, audit, trail, timing }: BuildOptions,
): Promise<ApiClient> {
  const [{ ApiClient }, { resilient }, { trackedTransport }, { auditTrail }] = await Promise.all([
    import('../client/client.js'),
    import('../transport/resilient.js'),
    import('../transport/tracked.js'),
    import('../audit/trail.js'),
  ]);
  const { globals } = ctx;
  const trace = tracer(ctx);
  const common = {
    asUser: globals.asUser,
    perPage: globals.perPage,
    userAgent: `lms/${__LMS_VERSION__}`,
    trace,
    onLongList: keepYoungGenerationSmall,
    pageCursor,
  };
  // The spinner wraps the retries, so a request that backs off still shows as one wait. A dry run's
  // write stops next to the wire, so it is traced, paced and encoded as if it were sent.
  // Every write that is sent is logged once, with the status it ended on after its retries; a dry
  // run sends none, so it has no log.
  const connect: Connect = (options, who) => {
    const paced = resilient(dryRun ? dryRun.wrap(options.transport) : options.transport, {
      limiter: ctx.limiter(),
      trace,
      callDeadlineMs: () => timing.callDeadlineMs(),
    });
    if (!dryRun) {
      const open = async () => {
        const { AuditLog, auditLogPath, keepDaysOf } = await import('../audit/log.js');
        const keepDays = keepDaysOf(ctx.env);
        return new AuditLog(await auditLogPath(ctx), { keepDays });
      };
      trail.current = auditTrail({
        scope: audit ?? { surface: 'cli' },
        ...who,
        asUser: globals.asUser,
        open,
        warn: ctx.warn,
      });
    }
    const audited = trail.current ? trail.current.wrap(paced) : paced;
    return new ApiClient({ ...common, ...options, transport: trackedTransport(audited, ctx.activity) });
  };
  return ctx.instance.kind === 'mock' ? mockClient(ctx, connect) : remoteClient(ctx, ctx.instance, connect);
}

/** The mock, as the seeded admin unless LMS_TOKEN names another of its users. */
async function mockClient(ctx: Context, connect: Connect): Promise<ApiClient> {
  const { env, instance } = ctx;
  const { MOCK_BASE_URL, MOCK_ADMIN_TOKEN } = await import('../mock/index.js');
  const mock = await ctx.mock();
  tracer(ctx)?.(
    describeInstance(instance, `the mock (${mock.path})`, env.LMS_TOKEN ? 'LMS_TOKEN' : 'the seeded admin'),
  );
  const tokenHint = env.LMS_TOKEN
    ? 'LMS_TOKEN is not a token of the mock: lms mock tokens lists them; unset it to act as the seeded admin'
    : undefined;
  return connect(
    { baseUrl: MOCK_BASE_URL, token: env.LMS_TOKEN || MOCK_ADMIN_TOKEN, tokenHint, transport: mock.handler },
    {
      instance: `mock:${mock.path === ':memory:' ? mock.path : resolve(mock.path)}`,
      via: env.LMS_TOKEN ? 'LMS_TOKEN' : 'seeded admin',
    },
  );
}

type RemoteChoice = Extract<InstanceChoice, { kind: 'remote' }>;

async function remoteClient(ctx: Context, instance: RemoteChoice, connect: Connect): Promise<ApiClient> {
  const { env, globals } = ctx;
  const remote = resolveRemote(instance, env, await ctx.profiles());
  const { baseUrl, tokenSource, profileName: name, insecure, caFile } = remote;
  await checkBaseUrl(remote);
  const session = remote.stored ? await ctx.tokenSession() : undefined;
  const token = await remoteToken(instance, remote, session);
  const { redactUrl } = await import('../redact.js');
  const trace = tracer(ctx);
  trace?.(
    describeInstance(
      instance,
      redactUrl(baseUrl),
      tokenSource!,
      instance.from === 'default' ? name : undefined,
      remote.unusedToken,
    ),
  );
  // The client refuses (or, with consent, warns once about) the token over plain http to a host
  // other than this machine, on every request it sends.
  const plainHttp = globals.insecure || insecure ? 'warn' : 'refuse';
  let warned = false;
  const warn = (message: string) => {
    if (warned) return;
    warned = true;
    ctx.warn(message);
  };
  const { httpTransport } = await import('../transport/http.js');
  const transport = httpTransport({
    timeoutMs: globals.timeoutSeconds * 1000,
    env,
    trace,
    caFile: caFile ? { path: caFile, source: `profile "${name}"` } : undefined,
    insecure: plainHttp === 'warn',
  });
  const tokenHint = refusedTokenHint(remote, session?.stored.kind === 'oauth');
  const origin = URL.canParse(baseUrl) ? new URL(baseUrl).origin : redactUrl(baseUrl);
  const via = tokenSource === 'LMS_TOKEN' || !name ? 'LMS_TOKEN' : name;
  return connect(
    { baseUrl, token, plainHttp, warn, renewToken: session?.renew, tokenHint, transport },
    { instance: origin, via },
  );
}

/** An instance address that is not an http(s) URL is a usage error that says where it was set. */
async function checkBaseUrl({ baseUrl, urlSource: source, fromEnv, profileName: name }: RemoteInstance): Promise<void> {
  const { redactUrl } = await import('../redact.js');
  // `localhost:4010` would parse as a URL of the scheme `localhost:`: say what was meant.
  if (fromEnv && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(baseUrl) && URL.canParse(`http://${baseUrl}`)) {
    const { parseInstanceUrl } = await import('../config/instance-url.js');
    parseInstanceUrl(baseUrl, 'LMS_BASE_URL');
  }
  const parsed = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new UsageError(`${source} is not ${parsed ? 'an http(s) URL' : 'a URL'}: "${redactUrl(baseUrl)}"`, {
      hint: fromEnv
        ? 'set LMS_BASE_URL to the instance address, e.g. https://lms.example.edu'
        : `fix it with \`lms profile add ${name} --url https://lms.example.edu\``,
    });
  }
}

/**
 * The token to send: the stored session's, fresh, else the one at hand; none is an auth error that says how to get one.
 */
async function remoteToken(
  instance: RemoteChoice,
  remote: RemoteInstance,
  session: TokenSession | undefined,
): Promise<string> {
  const { baseUrl, stored, profileName: name } = remote;
  const { redactUrl } = await import('../redact.js');
  if (stored && !session) {
    throw new LmsError(`no token for ${redactUrl(baseUrl)}: profile "${name}" is logged out`, ExitCode.auth, {
      hint: `log in with \`lms auth login -p ${name}\`, or set LMS_TOKEN`,
    });
  }
  const token = session ? await session.fresh() : remote.token;
  if (token) return token;
  const hint =
    instance.from === '--profile'
      ? `store one with \`lms profile add ${name} --url ${redactUrl(baseUrl)} --token-stdin\`, or set LMS_TOKEN`
      : 'store one with `lms profile add NAME --url URL --token-stdin`, or set LMS_TOKEN';
  throw new LmsError(`no token for ${redactUrl(baseUrl)}`, ExitCode.auth, { hint });
}

/** The chosen profile's stored credential, kept fresh; undefined for the mock or a token not stored. */
async function openSession(ctx: Context): Promise<TokenSession | undefined> {
  const { instance } = ctx;
  if (instance.kind !== 'remote') return undefined;
  const store = await ctx.profiles();
  const remote = resolveRemote(instance, ctx.env, store);
  if (!remote.stored || !remote.profileName) return undefined;
  const name = remote.profileName;
  const profile = store.get(name)!;
  const [{ openTokenSession }, keychain] = await Promise.all([import('../auth/session.js'), ctx.keychain()]);
  return openTokenSession({
    name,
    store,
    keychain: () => keychain,
    trace: tracer(ctx),
    tokenClient: () => profileTokenClient(ctx, name, profile),
  });
}

/**
 * The token endpoint of the profile's own instance (LMS_BASE_URL may name another), outside any
 * dry run: renewing a token is not the command's write.
 */
async function profileTokenClient(ctx: Context, name: string, profile: Profile) {
  const [{ resilient }, { trackedTransport }, { checkTokenTransport }, { instanceClient }] = await Promise.all([
    import('../transport/resilient.js'),
    import('../transport/tracked.js'),
    import('../auth/oauth.js'),
    import('../auth/instance-client.js'),
  ]);
  const { globals, env } = ctx;
  const trace = tracer(ctx);
  const insecure = globals.insecure || profile.insecure === true;
  checkTokenTransport(profile.url, insecure);
  // A token's renewal is one request a command waits on, whatever the command: one deadline for it.
  const callDeadlineMs = () => globals.timeoutSeconds * 1000;
  const wrap = (transport: Transport) =>
    trackedTransport(resilient(transport, { limiter: ctx.limiter(), trace, callDeadlineMs }), ctx.activity);
  const caFile = profile.caFile ? { path: profile.caFile, source: `profile "${name}"` } : undefined;
  return instanceClient({
    baseUrl: profile.url,
    insecure,
    timeoutSeconds: globals.timeoutSeconds,
    trace,
    wrap,
    env,
    caFile,
  });
}

/** Once, as the mock opens: a database another lms made was rebuilt, and what became of its rows. */
function saidIfRebuilt(mock: MockRuntime, warn: (message: string) => void): MockRuntime {
  if (mock.rebuilt === 'carried')
    warn(
      `the mock database ${mock.path} was made by another version of lms; its rows were carried into this version's ` +
        'schema',
    );
  if (mock.rebuilt === 'reseeded')
    warn(
      `the mock database ${mock.path} was made by another version of lms whose rows do not fit this version's ` +
        'schema, so the seeded school was loaded in their place',
    );
  return mock;
}

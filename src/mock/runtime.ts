// Where the mock lives on disk and how a process opens it: the shared state behind `--mock`,
// `lms mock …` and `lms mock serve`.
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { isoNow } from './clock.js';
import { openDatabase, resetDatabase, type Db } from './db/open.js';
import { hasFaults, inProcess, parseFaultsEnv, withFaults, type FaultOptions } from './faults.js';
import { createMockHandler, type MockHandler } from './handler.js';
import { createJobRunner, DEFAULT_JOB_TICK_MS, type JobRunner } from './jobs.js';
import { mockSchema } from './areas/index.js';
import { clientIdOf, developerKeys } from './areas/oauth/repo.js';
import { allTokens } from './school/users/repo.js';
import { loadSeed, seedToken, seedUsers, type SchoolOptions, type SeedSchool } from './seed.js';
import { requireUserAgent } from './user-agent.js';

export const MOCK_BASE_URL = 'http://lms.mock';
/** In mock mode with no token configured, the CLI acts as the seeded account admin. */
export const MOCK_ADMIN_TOKEN = seedToken(seedUsers[0]);

/**
 * Where the mock lives when neither --mock-db nor LMS_MOCK_DB says. The platform's directories are
 * loaded only then: finding them reads the home and temporary directories, which a run given its
 * database has no use for.
 */
export async function defaultMockDbPath(env: NodeJS.ProcessEnv): Promise<string> {
  return env.LMS_MOCK_DB || join((await import('../lms-paths.js')).lmsPaths().data, 'mock.db');
}

export interface MockRuntime {
  db: Db;
  path: string;
  /** Opening created and seeded the database: it holds nothing anyone could lose. */
  created: boolean;
  /**
   * Opening rebuilt a database another lms made (see openDatabase): its rows carried over, or the school seeded again.
   */
  rebuilt?: 'carried' | 'reseeded';
  /**
   * What in-process callers use: the mock, with the faults of LMS_MOCK_FAULTS if set (and the User-Agent rule, when
   * opened with it).
   */
  handler: MockHandler;
  /** The mock without injected faults or the User-Agent rule (`lms mock serve` applies its own on top). */
  base?: MockHandler;
  /** The faults from LMS_MOCK_FAULTS, when set. */
  faults?: FaultOptions;
  /** Background jobs started by requests to this process. */
  jobs: JobRunner;
  /** The mock's clock (LMS_MOCK_NOW, or the real time). */
  now(): string;
}

/**
 * Opens the mock at `path`, creating and seeding it when it is new or of another schema version.
 * The seed (every area's seed module) is loaded only then: opening an existing database, what
 * nearly every `--mock` command does, does not pay for it.
 */
export async function loadMock(path: string, env: NodeJS.ProcessEnv): Promise<MockRuntime> {
  // The CLI's own requests meet the rule real instances apply: lms sends a User-Agent on every one.
  let runtime: MockRuntime;
  try {
    runtime = openMock(path, env, undefined, { requireUserAgent: true });
  } catch (error) {
    if (!(error instanceof SeedNeeded)) throw error;
    runtime = openMock(path, env, await loadSeed(), { requireUserAgent: true });
  }
  closeAtExit(runtime.db);
  return runtime;
}

/** The databases this process opened for its commands, closed as it exits (closeAtExit). */
const openAtExit = new Set<WeakRef<Db>>();

/**
 * SQLite folds its write-ahead log into the database file as the last connection closes: a process
 * that ends with the database open leaves every row it wrote in mock.db-wal, and a copy of mock.db
 * alone (a seeded school kept for CI) is empty. However the command ends (its work done, an error,
 * Ctrl-C, a reader gone), the log is folded in and the database closed as the process exits. Held
 * weakly: a process that runs many commands (a test's) does not keep every one's connection.
 */
function closeAtExit(db: Db): void {
  if (openAtExit.size === 0) process.once('exit', closeAll);
  openAtExit.add(new WeakRef(db));
}

function closeAll(): void {
  for (const ref of openAtExit) {
    const db = ref.deref();
    try {
      // Closing folds the log in only once every statement is finalised, which a process ending
      // mid-command (its reader gone, a completion answered) has not done: the checkpoint does it
      // whatever is still prepared.
      db?.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      db?.close();
    } catch {
      // Closed already (a test that closes what it opened), or SQLite could not: the log remains
      // beside the database, which SQLite reads as before.
    }
  }
  openAtExit.clear();
}

/** The database had to be created, and no seed was given: load it (`loadSeed`) and open again. */
class SeedNeeded extends Error {}

export interface OpenOptions {
  /** A request with no User-Agent header is refused (403), as real instances refuse it. */
  requireUserAgent?: boolean;
}

/**
 * Opens the mock with the seed at hand (synchronous: tests make many databases); without one, only an existing database
 * opens.
 */
export function openMock(
  path: string,
  env: NodeJS.ProcessEnv,
  seed?: SeedSchool,
  options: OpenOptions = {},
): MockRuntime {
  // Checked before anything is opened: a bad value is a usage error, not a half-open mock.
  const faults = env.LMS_MOCK_FAULTS ? parseFaultsEnv(env.LMS_MOCK_FAULTS) : undefined;
  const viewRebuildMs = parseViewDelay(env.LMS_MOCK_VIEW_DELAY_MS);
  const tickMs = jobTick(env);
  const now = env.LMS_MOCK_NOW || undefined;
  const clock = () => now ?? isoNow();
  const { db, created, rebuilt } = openDatabase(path, mockSchema, (d) => {
    if (!seed) throw new SeedNeeded();
    seed(d, { clock: clock() });
  });
  const jobs = createJobRunner(db, { now: clock, tickMs });
  const base = createMockHandler({ db, now, jobs, viewRebuildMs });
  const faulty = faults && hasFaults(faults) ? inProcess(withFaults(base, faults)) : base;
  const handler = options.requireUserAgent ? requireUserAgent(faulty) : faulty;
  return { db, path, created, rebuilt, handler, base, faults, jobs, now: clock };
}

/** LMS_MOCK_JOB_TICK_MS: the pause between slices of a background job (0 runs them back to back). */
function jobTick(env: NodeJS.ProcessEnv): number {
  const raw = env.LMS_MOCK_JOB_TICK_MS;
  if (raw === undefined || raw === '') return DEFAULT_JOB_TICK_MS;
  if (!/^\d{1,6}$/.test(raw))
    throw new UsageError(`LMS_MOCK_JOB_TICK_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** LMS_MOCK_VIEW_DELAY_MS: how long the full topic view answers 503 after a write (0, the default, never). */
function parseViewDelay(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,7}$/.test(raw.trim()))
    throw new UsageError(`LMS_MOCK_VIEW_DELAY_MS must be a number of milliseconds, not "${raw}"`);
  return Number(raw.trim());
}

/** Back to the seeded school, or with `minimal` to an empty instance with only its admin. */
export async function reseed(db: Db, options: SchoolOptions = {}): Promise<void> {
  const seed = await loadSeed();
  resetDatabase(db, mockSchema, (d) => seed(d, options));
}

export type TokenListing =
  | { user_id: number; name: string; role: string; token: string }
  /** A public key (PKCE only) has no secret: `client_secret` is null. */
  | {
      user_id: null;
      name: string;
      role: 'developer_key';
      token: null;
      client_id: string;
      client_secret: string | null;
    };

/** Every user's token, then the instance's developer keys: the OAuth2 clients `lms auth login` may name. */
export function listTokens(db: Db): TokenListing[] {
  const keys = developerKeys(db).map((k) => ({
    user_id: null,
    name: k.name,
    role: 'developer_key' as const,
    token: null,
    client_id: clientIdOf(k),
    client_secret: k.api_key,
  }));
  return [...allTokens(db), ...keys];
}

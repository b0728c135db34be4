// One apply at a time per instance and course on this machine. Two runs of one file at once would
// each plan from an instance without the other's objects and make everything twice, whatever state
// directory each keeps: so the lock lives outside it, in a folder of this user's under the system's
// temporary directory, one lock per course named by a hash of the instance (its origin, or the
// mock's database file) and the course's SIS id. It is taken before the plan is read, so a run that
// waited plans from what the other made.
//
// proper-lockfile makes each lock a directory (created atomically) whose time the holder refreshes;
// a holder that died (kill -9, a lost machine) stops refreshing it, and after STALE_MS the next run
// takes it over. Beside it, a small file names the holder's pid for the message of a run that waits.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, LmsError } from '../errors.js';

/** How long a lock no live holder refreshes stays taken. */
const STALE_MS = 10_000;

/** Another apply holds a course for longer than this run would wait. */
export class LockTimeoutError extends LmsError {
  constructor(message: string, hint: string) {
    super(message, ExitCode.unavailable, { hint });
  }
}

/** Where this user's apply locks live: the same folder whatever LMS_STATE_DIR a run names. */
function lockDir(): string {
  const who = process.getuid?.() ?? userInfo().username;
  return join(tmpdir(), `lms-${who}`, 'apply-locks');
}

/** The folder, made private; one that is not this user's own directory is refused, not used. */
function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const parent = join(dir, '..');
  for (const d of [parent, dir]) {
    const st = lstatSync(d);
    const uid = process.getuid?.();
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
      throw new LmsError(`${d} is not a directory of this user's: lms apply keeps its locks there`, ExitCode.failure);
  }
}

export interface LockOptions {
  /** The instance: its origin, or `mock:<database file>`. */
  where: string;
  /** The SIS ids of the courses the run applies. */
  courses: string[];
  /** How long to wait for a course another run holds, in ms; 0: not at all. */
  waitMs: number;
  /** Told once per course another run holds, before waiting for it. */
  onWait: (message: string) => void;
  /** Told when a held lock could not be kept (its folder removed, the machine stalled). */
  onLost: (message: string) => void;
  dir?: string;
}

/** Takes every course's lock, in one order for every run so that two never wait on each other; answers the release. */
export async function lockCourses(options: LockOptions): Promise<() => Promise<void>> {
  // A mock in this process's memory is reached by nothing else.
  if (options.where === 'mock::memory:') return async () => undefined;
  const { lock } = await import('proper-lockfile');
  const dir = options.dir ?? lockDir();
  ensureDir(dir);
  // SIS ids match without regard to case, as the plan matches them.
  const courses = [...new Map(options.courses.map((c) => [c.toLowerCase(), c])).entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const releases: (() => Promise<void>)[] = [];
  const releaseAll = async () => {
    for (const release of releases.reverse()) await release().catch(() => undefined);
  };
  try {
    for (const [id, course] of courses) {
      const name = createHash('sha256').update(options.where).update('\0').update(id).digest('hex').slice(0, 32);
      const target = join(dir, name);
      const owner = `${target}.owner`;
      const deadline = Date.now() + options.waitMs;
      let told = false;
      for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
        try {
          const release = await lock(target, {
            realpath: false,
            stale: STALE_MS,
            retries: 0,
            onCompromised: (e) =>
              options.onLost(
                `the lock of course ${course} on this instance was lost (${e.message}); another apply may start on it`,
              ),
          });
          writeFileSync(owner, `${process.pid}\n`, { mode: 0o600 });
          releases.push(async () => {
            rmSync(owner, { force: true });
            await release();
          });
          break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
          const holder = holderOf(owner);
          if (Date.now() >= deadline) {
            throw new LockTimeoutError(
              `another lms apply${holder} is applying course ${course} on this ` +
                `instance${options.waitMs ? `; waited ${seconds(options.waitMs)} s` : ''}; nothing was changed`,
              'run it again when the other ends, or wait longer with --lock-timeout SECONDS',
            );
          }
          if (!told)
            options.onWait(
              `waiting for another lms apply${holder} of course ${course} on this instance (up to ` +
                `${seconds(options.waitMs)} s)`,
            );
          told = true;
          await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
        }
      }
    }
  } catch (e) {
    await releaseAll();
    throw e;
  }
  return releaseAll;
}

const seconds = (ms: number) => (ms % 1000 ? (ms / 1000).toFixed(1) : String(ms / 1000));

function holderOf(owner: string): string {
  try {
    const pid = Number(readFileSync(owner, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
}

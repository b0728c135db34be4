/**
 * Where lms keeps what one run leaves for the next: bulk journals, apply's keys and the audit log,
 * under the state directory (LMS_STATE_DIR, else the platform's state directory), so a re-run can
 * skip the work already done. It is not a cache: a cache cleaner must not take the audit trail or
 * apply's keys, so none of it is kept in the cache directory, which older versions used.
 */
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { lmsPaths } from '../lms-paths.js';
import { awaitsMove, moveStateOnce } from './state-move.js';

/** What a state directory is asked with: the environment, and where a file left behind is told. */
export interface StateContext {
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
}

/**
 * The state directory: LMS_STATE_DIR, else the platform's, into which the state an older version
 * kept in the cache directory is moved on first use.
 */
export async function stateDir(ctx: StateContext): Promise<string> {
  if (ctx.env.LMS_STATE_DIR) return ctx.env.LMS_STATE_DIR;
  const dir = platformStateDir(ctx.env);
  moveStateOnce(await userCacheDir(), dir, ctx.warn);
  return dir;
}

/** The state directory as it is named, with nothing moved or made: what lms doctor looks at. */
export function stateDirOf(env: NodeJS.ProcessEnv): string {
  return env.LMS_STATE_DIR || platformStateDir(env);
}

/**
 * The cache directory, when it still holds state that an older lms kept there and the next use of the state directory
 * moves.
 */
export async function stateToMove(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.LMS_STATE_DIR) return undefined;
  const cache = await userCacheDir();
  return awaitsMove(cache, platformStateDir(env)) ? cache : undefined;
}

/** Where bulk jobs (imports, grade --csv) keep their journals. */
export async function journalDir(ctx: StateContext): Promise<string> {
  return join(await stateDir(ctx), 'journals');
}

/**
 * The platform's state directory for lms: $XDG_STATE_HOME/lms (~/.local/state/lms),
 * ~/Library/Application Support/lms on macOS, %LOCALAPPDATA%\lms on Windows. env-paths names no
 * state directory, and its data and config directories are other things.
 */
export function platformStateDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'lms');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'lms');
  // The specification's own rule: a relative XDG_STATE_HOME is not one, and is ignored.
  const xdg = env.XDG_STATE_HOME;
  return posix.join(xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.local', 'state'), 'lms');
}

/** The platform's cache directory for lms (~/.cache/lms, ~/Library/Caches/lms, %LOCALAPPDATA%\lms\Cache). */
export async function userCacheDir(): Promise<string> {
  return lmsPaths().cache;
}

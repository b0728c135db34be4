/**
 * Where lms keeps what one run leaves for the next: bulk journals and apply's keys under the state
 * directory (LMS_STATE_DIR, else the user's cache directory), so a re-run can skip the work already done.
 */
import { join } from 'node:path';
import { lmsPaths } from '../lms-paths.js';

/** The state directory: LMS_STATE_DIR, else the user's cache directory. */
export async function stateDir(env: NodeJS.ProcessEnv): Promise<string> {
  if (env.LMS_STATE_DIR) return env.LMS_STATE_DIR;
  return userCacheDir();
}

/** Where bulk jobs (imports, grade --csv) keep their journals. */
export async function journalDir(env: NodeJS.ProcessEnv): Promise<string> {
  return join(await stateDir(env), 'journals');
}

/** The platform's cache directory for lms (~/.cache/lms, ~/Library/Caches/lms, %LOCALAPPDATA%\lms\Cache). */
export async function userCacheDir(): Promise<string> {
  return lmsPaths().cache;
}

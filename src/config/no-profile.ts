// The one message for a profile name that names none, wherever a name is looked up (-p,
// LMS_PROFILE, profile use|show|remove, auth logout). A module of its own: the instance is chosen
// at every start, and profiles.ts is read only by a command that needs the file.
import { closest } from '../closest.js';
import { UsageError } from '../errors.js';

/**
 * The error for a profile name that names none: the saved name nearest it as a suggestion, or where
 * to see them all. `from` says where the name came from, when not the command line (LMS_PROFILE).
 */
export function noProfile(name: string, known: Iterable<string>, from?: string): UsageError {
  const near = closest(name, known);
  return new UsageError(`no profile named "${name}"${from ? ` (from ${from})` : ''}`, {
    hint: near ? `did you mean ${near}?` : 'lms profile list shows the profiles',
  });
}

// What a user reference means — on a command line (`--user sam`) or in a file's `user` column — is
// decided here and nowhere else, so a student named one way works in every command that takes one.
//
// Digits are an id; `sis_user_id:X`, `sis_login_id:X` and `self` are what the API reads in a path;
// `email:X` is an email address; anything else is a login (`sis_login_id:X`). A bare word is never
// also tried as a SIS id: one word would then name two people (one's login, another's SIS id) and a
// path could only tell which by asking twice; exports write SIS ids as `sis_user_id:X`, so nothing
// this tool writes needs it.
//
// The API takes no email in a path, so an address is found by a search (resolveUserPath): a course's
// people where the command works in a course (a teacher may search those), else an account's users.
// A bare address is a login to the API, and many schools' logins are addresses: it names whoever has
// it as a login or as an email, when that is one person.
import { pool } from '../pool.js';
import type { ApiClient } from './client.js';
import { ApiError, ExitCode, LmsError, UsageError } from '../errors.js';
import type { Id } from '../spec/types/common.js';

type UserRefKind = 'id' | 'sis_user_id' | 'sis_login_id' | 'self' | 'email';

export interface UserRef {
  kind: UserRefKind;
  /** The id, SIS id, login or email address, without its prefix. */
  value: string;
  /**
   * The form a path (or `student_ids[]`) takes: `42`, `sis_user_id:S-1`, `sis_login_id:sam`, `self`.
   * An email address has none (`email:X` here): resolveUserPath finds the id it stands for.
   */
  path: string;
  /** A bare login that is an address: someone's login, or someone's email (resolveUserPath tells which). */
  address?: true;
}

const PREFIXED = /^(sis_user_id|sis_login_id|email):(.*)$/i;
/** An email address, as a search can find it: something, an @, something; no spaces. */
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

const PREFIX_WORDS = { sis_user_id: 'SIS id', sis_login_id: 'login', email: 'email address' } as const;

/** The reference `raw` makes, or a problem in words when it names no one (empty, a bare prefix). */
export function parseUserRef(raw: string): UserRef | { problem: string } {
  const v = raw.trim();
  if (v === '') return { problem: 'names no user' };
  if (/^\d+$/.test(v)) return { kind: 'id', value: v, path: v };
  if (v.toLowerCase() === 'self') return { kind: 'self', value: 'self', path: 'self' };
  const m = PREFIXED.exec(v);
  if (m) {
    const kind = m[1].toLowerCase() as keyof typeof PREFIX_WORDS;
    const value = m[2].trim();
    if (value === '') return { problem: `"${v}" names no user: put the ${PREFIX_WORDS[kind]} after the colon` };
    if (kind === 'email' && !ADDRESS.test(value)) return { problem: `"${v}" is no email address` };
    return { kind, value, path: `${kind}:${value}` };
  }
  return {
    kind: 'sis_login_id',
    value: v,
    path: `sis_login_id:${v}`,
    ...(ADDRESS.test(v) ? { address: true as const } : {}),
  };
}

/** Whether the reference is found by a search (an email address, or a bare login that is one), not read in a path. */
export const searchedFor = (ref: UserRef): boolean => ref.kind === 'email' || ref.address === true;

/** The path form of `raw`; a reference that names no one is left as given, for the API to refuse. */
export function userPath(raw: string): string {
  const ref = parseUserRef(raw);
  return 'problem' in ref ? raw : ref.path;
}

/**
 * A key two references to the same user by the same kind share: logins match whatever their case,
 * as the API matches them; ids and SIS ids as written.
 */
export function userRefKey(ref: UserRef): string {
  return ref.kind === 'sis_login_id' || ref.kind === 'email' ? `${ref.kind}:${ref.value.toLowerCase()}` : ref.path;
}

/**
 * A person as every import resolves them: `sis_user_id:X` when their SIS id is visible, else
 * `sis_login_id:X`, else the id. Prefixed, because a bare value is read as an id when it is all
 * digits and as a login otherwise — an SIS id of digits would name someone else.
 */
export function personRef(user: { id: number; sis_user_id?: string | null; login_id?: string | null }): string {
  if (user.sis_user_id) return `sis_user_id:${user.sis_user_id}`;
  if (user.login_id) return `sis_login_id:${user.login_id}`;
  return String(user.id);
}

// ---- references found by a search ---------------------------------------------------------------

/** Where an address is looked for: a course's people, or an account's users (`self`: the instance's root account). */
type UserScope = { course_id: Id } | { account_id: Id };

/** A scope, or how to find it (a section's course, read only when an address needs it). */
type ScopeOf = UserScope | (() => Promise<UserScope>);

/** What a search made of an address: the ids of those it names, or that the caller may not search. */
type Found = { ids: number[] } | { refused: ApiError };

const inWords = (scope: UserScope) =>
  'course_id' in scope
    ? `course ${scope.course_id}`
    : scope.account_id === 'self'
      ? 'the instance'
      : `account ${scope.account_id}`;

/**
 * The ids of the users the address names: an email address of theirs, matched whole (any case), and
 * for a bare address their login too. The search matches parts of names, logins and addresses; only
 * a whole match counts.
 */
async function findByAddress(client: ApiClient, ref: UserRef, scope: UserScope): Promise<Found> {
  const address = ref.value.toLowerCase();
  const search = { search_term: ref.value, include: ['email' as const] };
  const users =
    'course_id' in scope
      ? client.ops.courses.users({ course_id: scope.course_id, ...search })
      : client.ops.users.list({ account_id: scope.account_id, ...search });
  const ids = new Set<number>();
  try {
    for await (const u of users) {
      const email = typeof u.email === 'string' ? u.email.toLowerCase() : undefined;
      const login = typeof u.login_id === 'string' ? u.login_id.toLowerCase() : undefined;
      if (email === address || (ref.address && login === address)) ids.add(u.id);
    }
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403) && !e.throttled && !e.tokenRefused)
      return { refused: e };
    throw e;
  }
  return { ids: [...ids].sort((a, b) => a - b) };
}

/** No one the caller may see has the email address (exit 4, as a path naming no one is). */
class UnknownEmailError extends LmsError {
  constructor(address: string, scope: UserScope) {
    super(`no user in ${inWords(scope)} has the email address ${address}`, ExitCode.notFound, {
      hint: 'name them by id, sis_user_id:X or login',
    });
  }
}

/** What an address names, for one reference: the path of the one person, or why there is none. */
function outcome(ref: UserRef, found: Found, scope: UserScope): { path: string } | { error: LmsError } {
  const what = ref.kind === 'email' ? 'the email address' : 'the login or email address';
  if ('refused' in found) {
    // A bare address is still a login, which the API reads in a path; an email address can only be searched for.
    if (ref.address) return { path: ref.path };
    return {
      error: new LmsError(
        `cannot look up the email address ${ref.value} in ${inWords(scope)}: ${found.refused.message}`,
        found.refused.exitCode,
        { cause: found.refused, hint: 'name them by id, sis_user_id:X or login' },
      ),
    };
  }
  if (found.ids.length === 1) return { path: String(found.ids[0]) };
  if (found.ids.length > 1)
    return {
      error: new UsageError(
        `${ref.value} is ${what} of ${found.ids.length} users in ${inWords(scope)} (${found.ids.join(', ')}): name ` +
          'one by id',
      ),
    };
  // A login the search does not show (another account's, one the caller may not see) is the API's to find.
  return ref.address ? { path: ref.path } : { error: new UnknownEmailError(ref.value, scope) };
}

const scopeNow = async (scope: ScopeOf) => (typeof scope === 'function' ? scope() : scope);

/**
 * The path form of `raw`, as userPath gives it, with an email address (or a bare login that is one)
 * found by a search in `scope`: the one user it names, by id. No one: exit 4; several, or a
 * reference that names no one (`email:` alone, an address with no @): exit 2.
 */
export async function resolveUserPath(client: ApiClient, raw: string, scope: ScopeOf): Promise<string> {
  const ref = parseUserRef(raw);
  if ('problem' in ref) throw new UsageError(ref.problem.startsWith('"') ? ref.problem : `"${raw}" ${ref.problem}`);
  if (!searchedFor(ref)) return ref.path;
  const where = await scopeNow(scope);
  const result = outcome(ref, await findByAddress(client, ref, where), where);
  if ('error' in result) throw result.error;
  return result.path;
}

/**
 * For a file's rows: what each address among `refs` names (by userRefKey), found by a search each,
 * a few at a time. A row takes its problem from `error`'s message; the rest read `path` as they read
 * any reference's.
 */
export async function resolveAddresses(
  client: ApiClient,
  refs: Iterable<UserRef>,
  scope: ScopeOf,
  concurrency: number,
): Promise<Map<string, { path: string } | { error: LmsError }>> {
  const searched = new Map<string, UserRef>();
  for (const ref of refs) if (searchedFor(ref)) searched.set(userRefKey(ref), ref);
  if (searched.size === 0) return new Map();
  const where = await scopeNow(scope);
  // A few searches at a time, as the bulk jobs look references up.
  const keys = [...searched.keys()];
  const results = new Map<string, { path: string } | { error: LmsError }>();
  await pool(keys, concurrency, async (key) => {
    results.set(key, outcome(searched.get(key)!, await findByAddress(client, searched.get(key)!, where), where));
  });
  return results;
}

/** The scope of a command that works in a course or a section: the course, the section's read only when asked. */
export function courseScope(client: ApiClient, where: { course_id?: Id; section_id?: Id }): ScopeOf {
  if (where.course_id !== undefined) return { course_id: where.course_id };
  const section = where.section_id!;
  let course: Promise<UserScope> | undefined;
  return () => (course ??= client.ops.sections.get({ id: section }).then((s) => ({ course_id: s.course_id })));
}

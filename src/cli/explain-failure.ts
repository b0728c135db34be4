// What a failed request was about, asked of the instance or read off the route once a verb has
// failed: the one place that turns the API's terse refusals into what to do.
//
// A 404 of a request that names several ids says only that something was not found: Canvas answers
// `The specified resource does not exist.` whether the course, the user to enrol or the section is
// the one missing, and the path names only one of them. So each id the line gave that can be read
// on its own is read, as the same caller: one the instance answers 404 for is what was missing; one
// it shows, or will not show (401, 403), is not said to be.
//
// An id that is not a number is no id a path takes (Canvas reads bare ids as digits only): `lms
// courses get BIO-101` meant the SIS id. When the SIS form of the missing id finds the object,
// the error says so (`did you mean sis_course_id:BIO-101?`).
//
// A 401 or 403 for what the caller's role may not ask (an account's users, of a teacher) names the
// command that role can use for the same need, from one table by the route refused (INSTEAD).
import type { ApiClient } from '../client/client.js';
import { userPath } from '../client/user-ref.js';
import { ApiError, type Alternative } from '../errors.js';
import type { RouteId } from '../spec/routes.js';
import { argumentsOf, type CommandSpec, type IdKind } from '../model/command.js';
import { compileOption } from '../model/options.js';

/** How an id of a kind is read by itself: a GET of the object, given the other ids of the line. */
const READ: Partial<
  Record<IdKind, (client: ApiClient, id: string, given: ReadonlyMap<IdKind, string>) => Promise<unknown> | undefined>
> = {
  course: (client, id) => client.ops.courses.get({ id }),
  section: (client, id) => client.ops.sections.get({ id }),
  account: (client, id) => client.ops.accounts.get({ id }),
  user: (client, id) => client.ops.users.get({ id: userPath(id) }),
  assignment: (client, id, given) => {
    const course = given.get('course');
    return course === undefined ? undefined : client.ops.assignments.get({ course_id: course, id });
  },
};

/** The SIS prefix of each kind that has one (a user's bare word is a login already: see user-ref.ts). */
const SIS_PREFIX: Partial<Record<IdKind, string>> = {
  course: 'sis_course_id',
  section: 'sis_section_id',
  account: 'sis_account_id',
  user: 'sis_user_id',
};

/** Neither an id (digits), nor a form the API reads (`sis_course_id:X`, `self`). */
const looksLikeSisId = (id: string) => !/^\d+$/.test(id) && !id.includes(':') && id.toLowerCase() !== 'self';

/** The ids a verb's line gives, by kind: its flags' and arguments' that declare one. */
function idsGiven(
  spec: CommandSpec<never>,
  args: readonly unknown[],
  opts: Record<string, unknown>,
): Map<IdKind, string> {
  const given = new Map<IdKind, string>();
  for (const option of spec.options ?? []) {
    const value = opts[compileOption(option).attribute];
    if (option.ids && typeof value === 'string' && value !== '') given.set(option.ids, value);
  }
  argumentsOf(spec).forEach((argument, i) => {
    const kind = spec.argIds?.[argument.name];
    if (kind && typeof args[i] === 'string' && args[i] !== '') given.set(kind, args[i] as string);
  });
  return given;
}

/**
 * Whether reading it answers 404 (true), shows it or refuses to (false); undefined when the kind cannot be read alone.
 */
async function absent(
  api: ApiClient,
  kind: IdKind,
  id: string,
  given: ReadonlyMap<IdKind, string>,
): Promise<boolean | undefined> {
  const read = READ[kind]?.(api, id, given);
  if (!read) return undefined;
  return read.then(
    () => false,
    (failure: unknown) => failure instanceof ApiError && failure.status === 404,
  );
}

/**
 * What a caller without rights in an account (a teacher, a TA, a student) can ask instead, by the
 * route refused. `{user}` (or any kind of id) is the line's own; COURSE is for the caller to fill.
 */
const INSTEAD: Partial<Record<RouteId, Alternative>> = {
  'users.list': { gives: 'the people of a course of yours', command: 'lms enrollments list --course COURSE' },
  'courses.listAccount': { gives: 'the courses you are enrolled in', command: 'lms courses list' },
  'enrollments.listUser': {
    gives: "a user's enrollments in a course of yours",
    command: 'lms enrollments list --course COURSE --user {user}',
  },
  'outcomes.rootGroup@accounts': { gives: "a course's outcomes", command: 'lms outcomes tree --course COURSE' },
};

/** The alternatives, as a test runs them: each command with its placeholders. */
export const alternatives = (): readonly Alternative[] => Object.values(INSTEAD);

/** The error, or the same error saying what it was about (see the top of this file). */
export async function explainFailure(
  error: unknown,
  spec: CommandSpec<never>,
  args: readonly unknown[],
  opts: Record<string, unknown>,
  client: () => Promise<ApiClient>,
): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const given = idsGiven(spec, args, opts);
  if (error.status === 404) return explainNotFound(error, given, client);
  if ((error.status === 401 || error.status === 403) && !error.tokenRefused && !error.throttled)
    return explainRefusal(error, given);
  return error;
}

/** A refusal of a route the table knows, with what to ask instead. */
async function explainRefusal(error: ApiError, given: ReadonlyMap<IdKind, string>): Promise<ApiError> {
  const { matchRoute } = await import('../spec/match.js');
  const found = matchRoute(error.method, new URL(error.url).pathname);
  const instead = found && INSTEAD[found.route.id];
  if (!instead) return error;
  const command = instead.command.replace(
    /\{(\w+)\}/g,
    (_placeholder, kind: string) => given.get(kind as IdKind) ?? kind.toUpperCase(),
  );
  return new ApiError({
    status: error.status,
    method: error.method,
    url: error.url,
    messages: error.messages,
    body: error.body,
    instead: { ...instead, command },
  });
}

/**
 * For a 404, what was missing: of a line with several ids, the ones the instance does not have; of
 * an id that looks like a SIS id, its SIS form when that finds it.
 */
async function explainNotFound(
  error: ApiError,
  given: ReadonlyMap<IdKind, string>,
  client: () => Promise<ApiClient>,
): Promise<ApiError> {
  if (error.missing || given.size === 0) return error;
  const api = await client();
  // One id is what the 404 is about; of several, the ones read and found missing.
  const several = given.size > 1;
  const checked = several
    ? await Promise.all(
        [...given].map(async ([kind, id]) =>
          (await absent(api, kind, id, given)) ? ([kind, id] as const) : undefined,
        ),
      )
    : [...given];
  const missing = checked.filter((entry) => entry !== undefined);
  if (missing.length === 0) return error;
  let meant: string | undefined;
  for (const [kind, id] of missing) {
    const prefix = SIS_PREFIX[kind];
    if (!prefix || !looksLikeSisId(id)) continue;
    if ((await absent(api, kind, `${prefix}:${id}`, given)) === false) meant = `${prefix}:${id}`;
    break;
  }
  if (!several && !meant) return error;
  return new ApiError({
    status: error.status,
    method: error.method,
    url: error.url,
    messages: error.messages,
    body: error.body,
    missing: missing.map(([kind, id]) => `${kind} ${id}`),
    meant,
  });
}

// `lms enrollments import --course C FILE.csv`: the roster sync admins run from a shell. Each row is
// one enrollment — a user, a role (a type or a role name), optionally a section and a state — matched
// against the course's enrollments of that user, role and section. `--sync` also concludes the
// course's enrollments, of the roles the file names, that the file no longer lists.
import type { FinishedRow } from '../../bulk/command.js';
import type { BulkRow, BulkTask, Difference, RowResult } from '../../bulk/job.js';
import { bulkFlags, resultColumns } from '../../bulk/options.js';
import { command } from '../../model/define.js';
import type { ApiClient } from '../../client/client.js';
import type { Enrollment, EnrollmentState, Role } from '../../spec/types/roster.js';
import type { Course } from '../../spec/types/school.js';
import { enrollmentTypeOf } from '../../spec/vocabulary.js';
import type { Problem } from '../../bulk/csv-input.js';
import {
  parseUserRef,
  resolveAddresses,
  searchedFor,
  userPath,
  userRefKey,
  type UserRef,
} from '../../client/user-ref.js';
import { ApiError, ExitCode, UsageError } from '../../errors.js';
import { destroysWith } from '../../model/command.js';
import { ENDING_STATES, stateFlag } from './state.js';
import type { Delimiter, Parsed } from '../../bulk/csv-input.js';
import { SIS_FILES, SIS_ROLES, sisKindOf, sisRowKey, sisRowProblems } from '../../spec/sis-csv.js';

export const COLUMNS = ['user', 'type', 'role', 'section', 'state'] as const;
/** The state column is `enrollments add --state`: its values, and the ones that destroy, are declared there. */
const STATES: readonly string[] = stateFlag.choices;
/** States a live enrollment is in: what the file is matched against, and what --sync may conclude. */
export const LIVE = ['active', 'invited', 'inactive'] as const;

/** What a roster row must be, by itself (apply checks its inline enrollments and rosters by it too). */
export function checkRow(v: Record<string, string>): string[] {
  const problems: string[] = [];
  const user = v.user ? parseUserRef(v.user) : undefined;
  if (user && 'problem' in user) problems.push(`user ${user.problem}`);
  if (!v.type && !v.role) problems.push('give a type or a role');
  if (v.type && !enrollmentTypeOf(v.type))
    problems.push(`type "${v.type}" is not student, teacher, ta, designer or observer`);
  if (v.state && !STATES.includes(v.state)) problems.push(`state "${v.state}" is not one of ${STATES.join(', ')}`);
  return problems;
}

interface EnrollmentRow extends BulkRow {
  user: string;
  /** The role name: a built-in role is named after its type (StudentEnrollment). */
  role: string;
  section?: string;
  state?: string;
  /** A SIS row's course (sis_course_id:X); else the course comes from its section, or from --course. */
  course?: string;
  role_id?: string;
  /**
   * A SIS row's observee, as the API's path reads a user; null when its associated_user_id is empty. An
   * observer enrollment is one per user, section and observee, so a SIS row matches only the one of its
   * observee (or of none); a plain roster, which has no such column, matches whichever it finds.
   */
  associated?: string | null;
  limit?: boolean;
  /** A SIS row's completed, deleted or inactive status: ended through the enrollments end route. */
  ending?: 'completed' | 'deleted' | 'inactive';
}

/** How an ending status is reached through `DELETE .../enrollments/:id`, and the state it leaves. */
const END_TASKS = { completed: 'conclude', deleted: 'delete', inactive: 'deactivate' } as const;

/**
 * Canvas's SIS enrollments.csv (canvas-lms doc/api/sis_csv.md), told by its header: read and checked
 * in its own columns (so failed rows go back out in them), each row then taken as a roster row whose
 * ids are SIS ids and whose course may be its own.
 */
function parseEnrollments(
  csv: typeof import('../../bulk/csv-input.js'),
  bytes: Buffer,
  options: { delimiter?: Delimiter } = {},
): Parsed & { sis: boolean } {
  const read = csv.readCsvRecords(bytes, { columns: [], relaxColumnCount: true, ...options });
  const sis = !('problem' in read) && sisKindOf(read.header) === 'enrollment';
  if (!sis) return { ...csv.parseCsv(bytes, PLAIN_SCHEMA, options), sis };
  const parsed = csv.parseCsv(bytes, SIS_SCHEMA, options);
  // The result's user column: the row's user as the API's path reads it.
  for (const r of parsed.rows) r.values = { ...r.values, user: `sis_user_id:${r.values.user_id ?? ''}` };
  return { ...parsed, sis };
}

const PLAIN_SCHEMA = { columns: COLUMNS, required: ['user'], check: checkRow };

/** A SIS enrollments.csv's cells the enrollments API this import writes through has no field for. */
const SIS_ONLY = ['start_date', 'end_date', 'notify', 'root_account'] as const;

const SIS_SCHEMA = {
  columns: SIS_FILES.enrollment.columns,
  required: ['status'],
  check: (v: Record<string, string>) => {
    const problems = sisRowProblems('enrollment', v);
    const status = v.status?.toLowerCase();
    if (v.user_integration_id && !v.user_id)
      problems.push('user_integration_id: lms enrollments import needs user_id; run the file with lms sis import');
    if (status === 'deleted_last_completed')
      problems.push(`status "${v.status}": lms enrollments import cannot tell; run the file with lms sis import`);
    if (v.associated_user_id && (v.role || '').toLowerCase() !== 'observer' && !v.role_id)
      problems.push('associated_user_id is for an observer row');
    // Read by the instance's SIS import only: refused rather than dropped.
    const why = 'lms enrollments import cannot set it; run the file with lms sis import';
    for (const c of SIS_ONLY) if (v[c]) problems.push(`${c} "${v[c]}": ${why}`);
    return problems;
  },
};

/** A SIS row as a roster row. */
function sisToRow(line: number, v: Record<string, string>): EnrollmentRow {
  const status = v.status.toLowerCase();
  const builtIn = SIS_ROLES[(v.role ?? '').toLowerCase()];
  return {
    line,
    key: sisRowKey('enrollment', v).toLowerCase(),
    user: `sis_user_id:${v.user_id}`,
    role: builtIn ?? v.role ?? '',
    ...(v.role_id ? { role_id: v.role_id } : {}),
    ...(v.section_id ? { section: `sis_section_id:${v.section_id}` } : {}),
    ...(v.course_id ? { course: `sis_course_id:${v.course_id}` } : {}),
    associated: v.associated_user_id ? `sis_user_id:${v.associated_user_id}` : null,
    ...(v.limit_section_privileges ? { limit: v.limit_section_privileges.toLowerCase() === 'true' } : {}),
    ...(status === 'active' ? { state: 'active' } : { ending: status as EnrollmentRow['ending'], state: status }),
  };
}

/** A SIS file's cells that an apply file's roster, which enrolls through `enrollments add`, cannot hold. */
const ROSTER_UNSUPPORTED = [
  'associated_user_id',
  'role_id',
  'limit_section_privileges',
  'user_integration_id',
] as const;

/**
 * A roster file as an apply file's `{ csv: FILE }` reads it: lms's columns, or a SIS enrollments.csv
 * read as this import reads it, each row then in lms's columns. A row of another course, a status
 * that ends an enrollment or a cell the roster cannot set is a problem with its line, never dropped.
 */
export async function parseRoster(bytes: Buffer, course: string): Promise<Parsed> {
  const parsed = parseEnrollments(await import('../../bulk/csv-input.js'), bytes);
  if (!parsed.sis) return parsed;
  const problems = [...parsed.problems];
  const rows: Parsed['rows'] = [];
  for (const r of parsed.rows) {
    const v = r.values;
    const row = sisToRow(r.line, v);
    const wrong = ROSTER_UNSUPPORTED.filter((c) => v[c]).map(
      (c) => `${c} "${v[c]}": an apply file's roster cannot set it; run the file with lms enrollments import`,
    );
    if (v.course_id && v.course_id !== course)
      wrong.push(`course_id "${v.course_id}" is not the course ${course} the roster is listed in`);
    if (row.ending && row.ending !== 'inactive')
      wrong.push(`status "${v.status}": a roster lists who is enrolled; run the file with lms enrollments import`);
    if (wrong.length) {
      problems.push(...wrong.map((message) => ({ line: r.line, message })));
      continue;
    }
    const type = enrollmentTypeOf(row.role);
    const values: Record<string, string> = {
      user: row.user,
      ...(type ? { type } : { role: row.role }),
      ...(row.section ? { section: row.section } : {}),
      ...(row.state ? { state: row.state } : {}),
    };
    rows.push({ ...r, values });
  }
  return { ...parsed, rows, problems };
}

/** What a row asks for: two rows of one key are one enrollment asked for twice. */
export function rowKey(v: Record<string, string>): string {
  // An exported enrollment may name neither a known type nor a role (an instance left both out).
  const role = v.role || enrollmentTypeOf(v.type) || '';
  return [v.user.toLowerCase(), role.toLowerCase(), (v.section ?? '').toLowerCase()].join('|');
}

function toRow(line: number, v: Record<string, string>): EnrollmentRow {
  const role = v.role || enrollmentTypeOf(v.type)!;
  return { line, key: rowKey(v), user: v.user, role, section: v.section || undefined, state: v.state || undefined };
}

/** The roles a course of the account may enrol with, or undefined when the caller may not read them. */
async function rolesOf(client: ApiClient, account: number): Promise<Role[] | undefined> {
  const roles: Role[] = [];
  try {
    for await (const r of client.ops.roles.list({ account_id: account, show_inherited: true })) roles.push(r);
  } catch (e) {
    // Reading roles takes "Permissions - manage", which a teacher lacks: the instance then refuses an
    // unknown role itself, as before.
    if (e instanceof ApiError && [401, 403, 404].includes(e.status)) return undefined;
    throw e;
  }
  return roles;
}

/**
 * Rows whose custom role (a name or a role_id) their course's account does not have: refused with
 * their line before anything is sent, rather than failing at their POST after other rows were made.
 */
async function roleProblems(
  client: ApiClient,
  rows: EnrollmentRow[],
  courseOfLine: Map<number, number>,
  known: Course[],
  concurrency: number,
): Promise<Problem[]> {
  const custom = rows.filter((r) => r.role_id || !enrollmentTypeOf(r.role));
  if (!custom.length) return [];
  const { lookupEach, orMissing } = await import('../../bulk/resolve.js');
  const accountOf = new Map(known.map((c) => [c.id, c.account_id]));
  const unknownCourses = custom.flatMap((r) => {
    const id = courseOfLine.get(r.line);
    return id === undefined || accountOf.has(id) ? [] : [id];
  });
  const more = await lookupEach(unknownCourses, (id) => orMissing(client.ops.courses.get({ id })), concurrency);
  for (const [id, c] of more) if (c) accountOf.set(id, c.account_id);
  const accountOfRow = (r: EnrollmentRow) => accountOf.get(courseOfLine.get(r.line) ?? Number.NaN);
  const accounts = custom.flatMap((r) => accountOfRow(r) ?? []);
  const roles = await lookupEach(accounts, (account) => rolesOf(client, account), concurrency);
  const problems: Problem[] = [];
  for (const row of custom) {
    const account = accountOfRow(row);
    const held = account === undefined ? undefined : roles.get(account);
    if (!held) continue;
    const found = row.role_id
      ? held.some((r) => String(r.id) === row.role_id)
      : held.some((r) => r.role === row.role && r.base_role_type !== 'AccountMembership');
    const named = row.role_id ? `role_id ${row.role_id}` : `role "${row.role}"`;
    if (!found) problems.push({ line: row.line, message: `${named} is not an active role of account ${account}` });
  }
  return problems;
}

/** A lookup made once per key, however many rows ask (and however many at once). */
function cached<T>(lookup: (key: string) => Promise<T>) {
  const cache = new Map<string, Promise<T>>();
  const get = (key: string) => {
    let found = cache.get(key);
    if (!found) {
      found = lookup(key);
      cache.set(key, found);
    }
    return found;
  };
  return Object.assign(get, { set: (key: string, value: T) => void cache.set(key, Promise.resolve(value)) });
}

function enrollmentsTask(client: ApiClient, course: string | undefined): BulkTask<EnrollmentRow, Enrollment> {
  // The file's users as the API's paths read them (`sam` is a login), resolved to the ids enrollments carry.
  const userId = cached(async (path) => (await client.ops.users.get({ id: path })).id);
  const sectionId = cached(async (raw) => (await client.ops.sections.get({ id: raw })).id);
  // A row's user as the API's path reads it: an address as the check found it (by id), else as written.
  const found = new Map<string, string>();
  const pathOf = (raw: string) => found.get(raw) ?? userPath(raw);
  // Each row's course as an id: its own (a SIS row's course_id or its section's course), else --course.
  const courseOfLine = new Map<number, number>();
  const courseOf = (row: EnrollmentRow) => String(courseOfLine.get(row.line) ?? course);
  // Deleted rows whose user, course or section the instance no longer has.
  const absentLines = new Set<number>();
  return {
    lookupFirst: true,
    async resolve(rows, { concurrency }) {
      const { lookupEach, orMissing } = await import('../../bulk/resolve.js');
      const courses = await lookupEach(
        [...new Set([...(course ? [course] : []), ...rows.flatMap((r) => (r.course ? [r.course] : []))])],
        (raw) => orMissing(client.ops.courses.get({ id: raw })),
        concurrency,
      );
      // --course that does not exist fails the run with the API's own error, as before.
      if (course && !courses.get(course)) await client.ops.courses.get({ id: course });
      const refs = new Map(rows.map((r) => [r.line, parseUserRef(r.user)]));
      // Who is enrolled need not be in the course yet: an address is looked for among the instance's users.
      const addressed = await resolveAddresses(
        client,
        [...refs.values()].filter((ref): ref is UserRef => !('problem' in ref)),
        { account_id: 'self' },
        concurrency,
      );
      const problems: Problem[] = [];
      for (const row of rows) {
        const ref = refs.get(row.line)!;
        if ('problem' in ref || !searchedFor(ref)) continue;
        const outcome = addressed.get(userRefKey(ref))!;
        if ('path' in outcome) {
          found.set(row.user, outcome.path);
          refs.set(row.line, parseUserRef(outcome.path));
        } else if (outcome.error.exitCode === ExitCode.auth) throw outcome.error;
        else refs.set(row.line, { problem: `"${row.user}": ${outcome.error.message}` });
      }
      const paths = [
        ...[...refs.values()].flatMap((ref) => ('problem' in ref ? [] : [ref.path])),
        ...rows.flatMap((r) => (r.associated ? [r.associated] : [])),
      ];
      const users = await lookupEach(paths, (path) => orMissing(client.ops.users.get({ id: path })), concurrency);
      const sections = await lookupEach(
        rows.flatMap((r) => (r.section ? [r.section] : [])),
        (raw) => orMissing(client.ops.sections.get({ id: raw })),
        concurrency,
      );
      for (const row of rows) {
        const ref = refs.get(row.line)!;
        // A deleted row whose user, course or section is gone has nothing left to delete: as Canvas's
        // SIS import, a file that keeps deleted rows for what it deleted before runs again cleanly.
        const missing = (message: string) =>
          row.ending === 'deleted' ? absentLines.add(row.line) : problems.push({ line: row.line, message });
        if ('problem' in ref) problems.push({ line: row.line, message: `user ${ref.problem}` });
        else if (!users.get(ref.path)) missing(`user "${row.user}" not found`);
        if (row.associated && !users.get(row.associated)) missing(`associated user "${row.associated}" not found`);
        const named = row.course ?? course;
        const courseId = named ? courses.get(named)?.id : undefined;
        if (row.course && courseId === undefined) missing(`course "${row.course}" not found`);
        if (row.section) {
          const section = sections.get(row.section);
          // Enrolling through another course's section would enroll in that course.
          if (!section) missing(`section "${row.section}" not found`);
          else if (named && courseId !== undefined && section.course_id !== courseId)
            problems.push({ line: row.line, message: `section "${row.section}" is not a section of course ${named}` });
          else courseOfLine.set(row.line, section.course_id);
        } else if (courseId !== undefined) courseOfLine.set(row.line, courseId);
      }
      problems.push(
        ...(await roleProblems(
          client,
          rows,
          courseOfLine,
          [...courses.values()].filter((c) => !!c),
          concurrency,
        )),
      );
      for (const [path, user] of users) if (user) userId.set(path, user.id);
      for (const [raw, section] of sections) if (section) sectionId.set(raw, section.id);
      return problems;
    },
    async find(row) {
      if (absentLines.has(row.line)) return undefined;
      let user: number;
      try {
        user = await userId(pathOf(row.user));
      } catch (e) {
        // A user who does not exist has no enrollment; creating one then fails with the API's message.
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      }
      const section = row.section ? await sectionId(row.section) : undefined;
      const observee = row.associated ? await userId(row.associated) : row.associated;
      // An ending row may find its enrollment already concluded (or deactivated); a deleted row
      // finds it deleted too, so that a re-run of the file says so rather than failing.
      const states: EnrollmentState[] = row.ending ? [...LIVE, 'completed'] : [...LIVE];
      if (row.ending === 'deleted') states.push('deleted');
      let deleted: Enrollment | undefined;
      for await (const e of client.ops.enrollments.listCourse({
        course_id: courseOf(row),
        user_id: user,
        ...(row.role ? { role: [row.role] } : {}),
        state: states,
      })) {
        if (row.role_id && String(e.role_id) !== row.role_id) continue;
        if (observee !== undefined && (e.associated_user_id ?? null) !== observee) continue;
        if (section !== undefined && e.course_section_id !== section) continue;
        // One enrolled again since is the one the row deletes.
        if (e.enrollment_state !== 'deleted') return { id: e.id, current: e };
        deleted ??= e;
      }
      return deleted && { id: deleted.id, current: deleted };
    },
    // Nothing to delete is nothing to do, as Canvas's SIS import keeps a deleted enrollment deleted.
    wantsAbsent: (row) => row.ending === 'deleted',
    compare(row, e): Difference[] {
      if (row.ending === 'deleted')
        return e.enrollment_state === 'deleted'
          ? []
          : [{ field: 'state', from: e.enrollment_state, to: 'deleted', applicable: true }];
      if (!row.state || row.state === e.enrollment_state) return [];
      return [{ field: 'state', from: e.enrollment_state, to: row.state, applicable: true }];
    },
    async create(row) {
      // A completed or inactive row with no enrollment is made so, as Canvas's SIS import makes one:
      // inactive as the API enrolls, completed enrolled and then concluded (a re-run after a stop
      // between the two finds it live and concludes it). A deleted row is never made (wantsAbsent).
      const state = row.ending === 'inactive' ? 'inactive' : row.ending === 'completed' ? undefined : row.state;
      const type = enrollmentTypeOf(row.role);
      const enrollment = {
        user_id: await userId(pathOf(row.user)),
        ...(row.role_id ? { role_id: Number(row.role_id) } : type ? { type } : { role: row.role }),
        ...(state ? { enrollment_state: state as 'active' | 'inactive' } : {}),
        ...(row.associated ? { associated_user_id: await userId(row.associated) } : {}),
        ...(row.limit !== undefined ? { limit_privileges_to_course_section: row.limit } : {}),
      };
      const made = row.section
        ? await client.ops.enrollments.enrollSection({ section_id: row.section, enrollment })
        : await client.ops.enrollments.enrollCourse({ course_id: courseOf(row), enrollment });
      if (row.ending === 'completed')
        await client.ops.enrollments.end({ course_id: String(made.course_id), id: made.id, task: 'conclude' });
      return made.id;
    },
    async update(row, found) {
      if (row.ending) {
        await client.ops.enrollments.end({ course_id: courseOf(row), id: found.id, task: END_TASKS[row.ending] });
        return;
      }
      // Enrolling the same user, role, section and observee again sets the state of the existing
      // enrollment; without its observee the instance would enroll the observer anew instead.
      const observee = found.current.associated_user_id;
      const enrollment = {
        user_id: found.current.user_id,
        role_id: found.current.role_id,
        enrollment_state: row.state as 'active',
        ...(observee ? { associated_user_id: observee } : {}),
      };
      await client.ops.enrollments.enrollSection({ section_id: found.current.course_section_id, enrollment });
    },
  };
}

/** The enrollments the rows found (or made). */
function matchedBy(results: RowResult[]): Set<number> {
  return new Set(results.filter((r) => r.id !== undefined).map((r) => r.id!));
}

/** The course's live enrollments, of the roles the file names, that no row matched. */
async function unlisted(
  client: ApiClient,
  course: string,
  roles: string[],
  matched: Set<number>,
): Promise<Enrollment[]> {
  const extra: Enrollment[] = [];
  for await (const e of client.ops.enrollments.listCourse({ course_id: course, role: roles, state: [...LIVE] }))
    if (!matched.has(e.id)) extra.push(e);
  return extra;
}

/** An enrollment --sync concludes, as its results and its plan name it. */
const toConclude = (e: Enrollment): FinishedRow => ({
  key: e.user?.login_id ?? String(e.user_id),
  id: e.id,
  status: 'concluded',
});

export const importEnrollments = command({
  name: 'import',
  args: [{ name: 'file' }],
  fileArgs: { file: 'read' },
  summary:
    "Sync a course roster from a CSV (user, type or role, section, state, or Canvas's SIS enrollments.csv); --sync " +
    'also concludes who is no longer listed',
  routes: [
    'enrollments.listCourse',
    'enrollments.enrollCourse',
    'enrollments.enrollSection',
    'enrollments.end',
    'users.get',
    'sections.get',
    'courses.get',
  ],
  lookups: ['users.list', 'roles.list'],
  columns: resultColumns('user'),
  options: {
    course: {
      long: 'course',
      value: 'id',
      ids: 'course',
      description: "course id or sis_course_id:X (a SIS enrollments.csv names each row's course instead)",
    },
    sync: {
      destroys: true,
      asksItself: true,
      long: 'sync',
      description:
        "also conclude the course's enrollments, of the roles in the file, that the file does not list (asks first)",
    },
    ...bulkFlags({ noun: 'enrollments', updatable: ['state'] }),
  },
  examples: [
    'lms enrollments import --course sis_course_id:BIO-101 --dry-run roster.csv',
    'lms enrollments import --course 1 --update --sync --yes roster.csv',
    'lms enrollments import --update --dry-run sis-enrollments.csv',
  ],
  async run({ args, opts, ctx }) {
    const { runBulk } = await import('../../bulk/command.js');
    const csv = await import('../../bulk/csv-input.js');
    let roles: string[] = [];
    let sis = false;
    // --sync concludes within its one course (without --course the run is refused before it starts).
    const syncCourse = opts.sync ? opts.course : undefined;
    const where = opts.course ? `of course ${opts.course}` : `of the courses ${args[0]} names`;
    return runBulk(ctx, args[0], opts, {
      job: 'enrollments.import',
      target: opts.course ?? 'sis',
      schema: PLAIN_SCHEMA,
      parse: (bytes, _name, options) => {
        const parsed = parseEnrollments(csv, bytes, options);
        sis = parsed.sis;
        if (!sis && !opts.course)
          throw new UsageError('--course is required unless the file is a SIS enrollments.csv (with course_id)');
        if (sis && opts.sync)
          throw new UsageError('--sync takes a roster of one course; a SIS file says what ends in its status column');
        return parsed;
      },
      keyColumn: 'user',
      // A row whose state ends access (inactive deactivates) destroys, as `enrollments add --state` does;
      // a SIS row's completed, deleted or inactive status concludes, deletes or deactivates.
      destroys: {
        noun: (n) => `enrollment${n === 1 ? '' : 's'} ${where}`,
        verb: (row: EnrollmentRow) =>
          row.ending
            ? ENDING_STATES[row.ending]
            : destroysWith(stateFlag, row.state)
              ? ENDING_STATES[row.state!]
              : undefined,
      },
      describe: (v) =>
        [
          `user ${v.user}`,
          v.role || v.type || (v.role_id ? `role ${v.role_id}` : ''),
          v.course_id ? `course ${v.course_id}` : '',
          v.section ? `section ${v.section}` : v.section_id ? `section ${v.section_id}` : '',
        ]
          .filter(Boolean)
          .join(', '),
      toRow: (r) => {
        const row = sis ? sisToRow(r.line, r.values) : toRow(r.line, r.values);
        if (!roles.includes(row.role)) roles = [...roles, row.role];
        return row;
      },
      task: (client) => enrollmentsTask(client, opts.course),
      // Asked with the rows that deactivate, in one question, before anything is written.
      finishDestroys: syncCourse
        ? {
            planned: async ({ client, results }) => {
              const found = await unlisted(client, syncCourse, roles, matchedBy(results));
              return found.map(toConclude);
            },
            words: (n) =>
              `conclude ${n === undefined ? 'the' : n} enrollment${n === 1 ? '' : 's'} of course ${syncCourse} that ` +
              `${args[0]} does not list`,
          }
        : undefined,
      finish: syncCourse
        ? async ({ client, results, plan, skipped, only }) => {
            // A failed or skipped row's enrollment may well exist: concluding "unlisted" ones now could end it.
            const failed = results.filter((r) => r.status === 'failed').length;
            if (failed || skipped) {
              const why = [
                failed ? `${failed} row${failed > 1 ? 's' : ''} failed` : '',
                skipped ? `${skipped} invalid row${skipped > 1 ? 's' : ''} skipped` : '',
              ]
                .filter(Boolean)
                .join(', ');
              ctx.warn(
                `--sync ${plan ? 'would conclude' : 'concluded'} nothing: ${why}; fix ` +
                  `${failed + skipped > 1 ? 'them' : 'it'} and run the import again`,
              );
              return [];
            }
            const found = await unlisted(client, syncCourse, roles, matchedBy(results));
            // Concluded only as confirmed: one unlisted since the plan was asked about was not in it.
            const extra = only ? found.filter((e) => only.has(e.id)) : found;
            if (extra.length < found.length) {
              const left = found.length - extra.length;
              const many = left > 1;
              const [one, they, them] = many ? ['enrollments', 'they were', 'them'] : ['enrollment', 'it was', 'it'];
              const why = `not in the plan that was confirmed; run the import again to plan ${them}`;
              ctx.warn(`--sync left ${left} ${one} the file does not list as ${they}: ${why}`);
            }
            const done: FinishedRow[] = [];
            for (const e of extra) {
              const { key } = toConclude(e);
              // The run's word: the dry run's `dry_run: true` says it would be.
              if (plan) {
                done.push(toConclude(e));
                continue;
              }
              try {
                await client.ops.enrollments.end({ course_id: syncCourse, id: e.id, task: 'conclude' });
                done.push({ key, id: e.id, status: 'concluded' });
              } catch (err) {
                if (!(err instanceof ApiError)) throw err;
                done.push({ key, id: e.id, status: 'failed', error: err.message });
              }
            }
            return done;
          }
        : undefined,
    });
  },
});

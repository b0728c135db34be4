// `lms users import FILE.csv`: the first bulk command; `lms users export` (export.ts) is its inverse,
// so export → edit → import round-trips.
import { command, contextFlags } from '../../model/define.js';
import type { BulkRow, BulkTask, Difference } from '../../bulk/job.js';
import { bulkFlags, resultColumns } from '../../bulk/options.js';
import type { ApiClient } from '../../client/client.js';
import type { Login, User } from '../../spec/types/users.js';
import { ApiError } from '../../errors.js';
import type { Delimiter, Parsed } from '../../bulk/csv-input.js';
import { SIS_FILES, sisKindOf, sisRowProblems } from '../../spec/sis-csv.js';
import { unsupportedCells } from '../../bulk/sis-rows.js';

export const IMPORT_COLUMNS = [
  'name',
  'login_id',
  'email',
  'sis_user_id',
  'short_name',
  'sortable_name',
  'time_zone',
  'locale',
  'password',
] as const;

function checkRow(v: Record<string, string>): string[] {
  const problems: string[] = [];
  if (v.email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.email))
    problems.push(`email "${v.email}" is not an email address`);
  if (v.locale && !/^[a-z]{2}(-[A-Z]{2})?$/.test(v.locale))
    problems.push(`locale "${v.locale}" is not a two-letter language code`);
  if (v.time_zone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v.time_zone });
    } catch {
      problems.push(`time_zone "${v.time_zone}" is not an IANA time zone`);
    }
  }
  return problems;
}

interface ImportRow extends BulkRow {
  values: Record<string, string>;
  /**
   * A SIS users.csv row's status, as Canvas's SIS import takes it: `deleted` deletes the user and
   * `suspended` suspends their logins (an existing user's with --update); `active` makes suspended
   * logins active again (with --update).
   */
  status?: string;
}

/**
 * Canvas's SIS users.csv (canvas-lms doc/api/sis_csv.md), told by its header: read in its own
 * columns (so failed rows go back out in them), each row then taken as lms's columns.
 */
function parseUsers(
  csv: typeof import('../../bulk/csv-input.js'),
  bytes: Buffer,
  options: { delimiter?: Delimiter },
): Parsed & { sis: boolean } {
  const read = csv.readCsvRecords(bytes, { columns: [], relaxColumnCount: true, ...options });
  const sis = !('problem' in read) && sisKindOf(read.header) === 'user';
  return { ...csv.parseCsv(bytes, sis ? SIS_USERS_SCHEMA : PLAIN_USERS_SCHEMA, options), sis };
}

const PLAIN_USERS_SCHEMA = {
  columns: IMPORT_COLUMNS,
  required: ['login_id', 'name'],
  unique: ['login_id', 'sis_user_id'],
  check: checkRow,
};

/**
 * Columns of a users.csv the users API cannot set (a hashed password, the SIS importer's own flags): a
 * row filling one is refused rather than imported without it.
 */
const UNSUPPORTED = ['ssha_password', 'declared_user_type', 'canvas_password_notification', 'home_account'];

const SIS_USERS_SCHEMA = {
  columns: SIS_FILES.user.columns,
  required: SIS_FILES.user.required,
  unique: ['user_id', 'login_id'],
  check: (v: Record<string, string>) => [
    ...sisRowProblems('user', v).filter((p) => !p.endsWith(' is empty')),
    ...checkRow(v),
    ...unsupportedCells(v, UNSUPPORTED, 'users'),
  ],
};

/** A row as lms's columns: a SIS row's user_id is its SIS id, its name made from the name columns. */
function lmsValues(v: Record<string, string>): Record<string, string> {
  if (!('user_id' in v)) return v;
  return {
    name: v.full_name || [v.first_name, v.last_name].filter(Boolean).join(' ') || v.short_name || v.login_id,
    login_id: v.login_id,
    email: v.email ?? '',
    sis_user_id: v.user_id,
    short_name: v.short_name ?? '',
    sortable_name: v.sortable_name || (v.first_name && v.last_name ? `${v.last_name}, ${v.first_name}` : ''),
    password: v.password ?? '',
    integration_id: v.integration_id ?? '',
    authentication_provider_id: v.authentication_provider_id ?? '',
    pronouns: v.pronouns ?? '',
  };
}

/** What `PUT /api/v1/users/:id` accepts (spec, Users): an update applies these. */
const UPDATABLE = ['name', 'short_name', 'sortable_name', 'time_zone', 'locale', 'pronouns'] as const;
/**
 * Compared but never applied: the API changes logins, emails, SIS and integration ids elsewhere
 * (login_id is the row's key, matched case-insensitively, so it never differs; a password and a
 * login's authentication provider cannot be read back).
 */
const FIXED = ['email', 'sis_user_id', 'integration_id'] as const;

/** One spelling per zone ("UTC" and "Etc/UTC", "america/chicago" and "America/Chicago" agree). */
function canonicalZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return zone;
  }
}

function sameValue(field: string, from: string, to: string): boolean {
  if (field === 'time_zone') return canonicalZone(from) === canonicalZone(to);
  if (field === 'email') return from.toLowerCase() === to.toLowerCase();
  return from === to;
}

/**
 * The fields where a row and the existing user disagree. An empty cell has no opinion (an update
 * never blanks a field), and a field the API did not return is not guessed at.
 */
function compareUser(values: Record<string, string>, user: User): Difference[] {
  const changes: Difference[] = [];
  for (const field of [...UPDATABLE, ...FIXED]) {
    const to = values[field];
    const current = (user as Record<string, unknown>)[field];
    if (!to || current === undefined) continue;
    const from = current === null ? '' : String(current);
    if (!sameValue(field, from, to))
      changes.push({ field, from, to, applicable: (UPDATABLE as readonly string[]).includes(field) });
  }
  return changes;
}

/** A user as the import compares a row with: with the states of their logins where the row has a status. */
type Target = User & { loginStates?: string[] };

/** What `user[event]` would bring the user's logins to the row's status: nothing when they agree. */
function statusChange(row: ImportRow, target: Target): Difference[] {
  const states = target.loginStates;
  if (!states) return [];
  if (row.status === 'suspended' && states.some((s) => s !== 'suspended'))
    return [{ field: 'status', from: 'active', to: 'suspended', applicable: true }];
  if (row.status === 'active' && states.includes('suspended'))
    return [{ field: 'status', from: 'suspended', to: 'active', applicable: true }];
  return [];
}

/**
 * The import's task. `suspendedAlready` learns, at each look-up, the suspended rows whose logins are
 * all suspended, so that the question and the summary count only the rows that would suspend.
 */
function usersTask(
  client: ApiClient,
  account: string,
  sis: boolean,
  suspendedAlready: Set<string>,
): BulkTask<ImportRow, Target> {
  return {
    // A SIS file's rows are looked up first: its nightly rows name people who mostly exist, and a
    // deleted row has nothing to create.
    lookupFirst: sis,
    async find(row) {
      try {
        const user: Target = await client.ops.users.get({ id: `sis_login_id:${row.values.login_id}` });
        if (row.status === 'suspended' || row.status === 'active') {
          // The status is the logins' state, which only the logins say: read to compare, so a re-run writes nothing.
          const states: string[] = [];
          for await (const login of client.ops.users.logins({ user_id: user.id }))
            states.push((login as Login).workflow_state ?? 'active');
          user.loginStates = states;
          if (row.status === 'suspended' && statusChange(row, user).length === 0) suspendedAlready.add(row.key);
          else suspendedAlready.delete(row.key);
        }
        return { id: user.id, current: user };
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      }
    },
    // A deleted user is not found by login: a deleted row finding none is done, as Canvas's SIS import
    // passes over it, so a nightly file that still lists the user imports cleanly.
    wantsAbsent: (row) => row.status === 'deleted',
    compare: (row, user) => [
      ...(row.status === 'deleted' ? [{ field: 'status', from: 'active', to: 'deleted', applicable: true }] : []),
      ...statusChange(row, user),
      ...compareUser(row.values, user),
    ],
    async create(row) {
      const v = row.values;
      const user = await client.ops.users.create({
        account_id: account,
        user: {
          name: v.name,
          short_name: v.short_name || undefined,
          sortable_name: v.sortable_name || undefined,
          time_zone: v.time_zone || undefined,
          locale: v.locale || undefined,
        },
        pseudonym: {
          unique_id: v.login_id,
          password: v.password || undefined,
          sis_user_id: v.sis_user_id || undefined,
          integration_id: v.integration_id || undefined,
          authentication_provider_id: v.authentication_provider_id || undefined,
        },
        communication_channel: v.email ? { type: 'email', address: v.email } : undefined,
      });
      // The users API sets pronouns and suspends logins on an update only (users_controller#update).
      const suspend = row.status === 'suspended' ? ({ event: 'suspend' } as const) : {};
      if (v.pronouns || row.status === 'suspended')
        await client.ops.users.update({
          id: user.id,
          user: { ...(v.pronouns ? { pronouns: v.pronouns } : {}), ...suspend },
        });
      return user.id;
    },
    async update(row, found, changes) {
      if (row.status === 'deleted') {
        await client.ops.users.delete({ account_id: account, id: found.id });
        return;
      }
      const status = changes.find((c) => c.field === 'status');
      const fields = Object.fromEntries(changes.filter((c) => c !== status).map((c) => [c.field, c.to]));
      const event = status ? { event: status.to === 'suspended' ? ('suspend' as const) : ('unsuspend' as const) } : {};
      await client.ops.users.update({ id: found.id, user: { ...fields, ...event } });
    },
  };
}

/** Whose users: an import or export targets one account. */
const account = { ...contextFlags.account, default: 'self' } as const;

export const importUsers = command({
  name: 'import',
  args: [{ name: 'file' }],
  fileArgs: { file: 'read' },
  summary:
    "Create users from a CSV (name, login_id, email, sis_user_id, …, or Canvas's SIS users.csv); --update changes " +
    'existing ones; safe to re-run',
  routes: ['users.create', 'users.get', 'users.logins', 'users.update', 'users.delete'],
  // Only a SIS file's deleted and suspended rows destroy (a delete, a suspension): asked about then.
  destroys: 'asks',
  columns: resultColumns('login_id'),
  options: { account, ...bulkFlags({ noun: 'users', updatable: UPDATABLE }) },
  examples: [
    'lms users import --account 1 new-students.csv',
    'lms users import --update --dry-run sis-users.csv',
    'lms users export --account 1 -o csv > users.csv && lms users import --dry-run --update users.csv',
  ],
  async run({ args, opts, ctx }) {
    const { runBulk } = await import('../../bulk/command.js');
    const csv = await import('../../bulk/csv-input.js');
    let sis = false;
    const suspendedAlready = new Set<string>();
    return runBulk(ctx, args[0], opts, {
      job: 'users.import',
      target: opts.account,
      schema: PLAIN_USERS_SCHEMA,
      parse: (bytes, _name, options) => {
        const parsed = parseUsers(csv, bytes, options);
        sis = parsed.sis;
        return parsed;
      },
      keyColumn: 'login_id',
      // A SIS row whose status is deleted deletes its user, one whose status is suspended suspends
      // their logins: asked about first, as --sync is.
      destroys: {
        noun: (n) => `user${n === 1 ? '' : 's'} of account ${opts.account}`,
        verb: (row: ImportRow) =>
          row.status === 'deleted'
            ? 'delete'
            : row.status === 'suspended' && !suspendedAlready.has(row.key)
              ? 'suspend'
              : undefined,
      },
      toRow: (r): ImportRow => ({
        line: r.line,
        key: r.values.login_id.toLowerCase(),
        values: lmsValues(r.values),
        ...(r.values.status ? { status: r.values.status.toLowerCase() } : {}),
      }),
      task: (client) => usersTask(client, opts.account, sis, suspendedAlready),
    });
  },
});

// `lms users import FILE.csv` and `lms users export`: the first bulk command, and its inverse, so
// export → edit → import round-trips.
import { join } from 'node:path';
import { defineCommand, item, list, withFailure } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { BulkRow, BulkTask, Difference } from '../../bulk/job.js';
import type { ApiClient } from '../../client/client.js';
import type { User } from '../../client/types/users.js';
import { ApiError, ExitCode, LmsError, UsageError } from '../../errors.js';
import { err } from '../../io/streams.js';

export const IMPORT_COLUMNS = ['name', 'login_id', 'email', 'sis_user_id', 'short_name', 'sortable_name', 'time_zone', 'locale', 'password'] as const;
const EXPORT_COLUMNS = IMPORT_COLUMNS.filter((c) => c !== 'password');

function checkRow(v: Record<string, string>): string[] {
  const problems: string[] = [];
  if (v.email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.email)) problems.push(`email "${v.email}" is not an email address`);
  if (v.locale && !/^[a-z]{2}(-[A-Z]{2})?$/.test(v.locale)) problems.push(`locale "${v.locale}" is not a two-letter language code`);
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
}

/** What `PUT /api/v1/users/:id` accepts (spec, Users): an update applies these. */
const UPDATABLE = ['name', 'short_name', 'sortable_name', 'time_zone', 'locale'] as const;
/**
 * Compared but never applied: the API changes logins, emails and SIS ids elsewhere (login_id is the
 * row's key, matched case-insensitively, so it never differs; a password cannot be read back).
 */
const FIXED = ['email', 'sis_user_id'] as const;

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
export function compareUser(values: Record<string, string>, user: User): Difference[] {
  const changes: Difference[] = [];
  for (const field of [...UPDATABLE, ...FIXED]) {
    const to = values[field];
    const current = (user as Record<string, unknown>)[field];
    if (!to || current === undefined) continue;
    const from = current === null ? '' : String(current);
    if (!sameValue(field, from, to)) changes.push({ field, from, to, applicable: (UPDATABLE as readonly string[]).includes(field) });
  }
  return changes;
}

function usersTask(client: ApiClient, account: string): BulkTask<ImportRow, User> {
  return {
    async find(row) {
      try {
        const user = await client.ops.users.get({ id: `sis_login_id:${row.values.login_id}` });
        return { id: user.id, current: user };
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      }
    },
    compare: (row, user) => compareUser(row.values, user),
    async create(row) {
      const v = row.values;
      const user = await client.ops.users.create({
        account_id: account,
        user: { name: v.name, short_name: v.short_name || undefined, sortable_name: v.sortable_name || undefined, time_zone: v.time_zone || undefined, locale: v.locale || undefined },
        pseudonym: { unique_id: v.login_id, password: v.password || undefined, sis_user_id: v.sis_user_id || undefined },
        communication_channel: v.email ? { type: 'email', address: v.email } : undefined,
      });
      return user.id;
    },
    async update(_row, found, changes) {
      await client.ops.users.update({ id: found.id, user: Object.fromEntries(changes.map((c) => [c.field, c.to])) });
    },
  };
}

interface ImportOpts {
  account: string;
  dryRun?: boolean;
  concurrency: string;
  skipInvalid?: boolean;
  failedOut?: string;
  update?: boolean;
  restart?: boolean;
}

/** How a plan names what a run would do. */
const PLAN_ACTION: Record<string, string> = { created: 'create', existed: 'exists', updated: 'update', differs: 'differs', failed: 'fail' };

export const importUsers = defineCommand<ImportOpts>({
  name: 'import <file>',
  summary: 'Create users from a CSV (name, login_id, email, sis_user_id, …); --update changes existing ones; safe to re-run',
  routes: ['users.create', 'users.get', 'users.update'],
  columns: ['line', 'login_id', 'status', 'id', 'skipped', 'changes', 'error'],
  options: [
    { flags: '--account <id>', description: 'account id, SIS form or self', default: 'self' },
    { flags: '--dry-run', description: 'show what would be created, updated or left alone; write nothing' },
    { flags: '--update', description: 'change existing users whose name, short_name, sortable_name, time_zone or locale differ from the file' },
    { flags: '--concurrency <n>', description: 'rows in flight at once (the server may slow this further)', default: '4' },
    { flags: '--skip-invalid', description: 'import the valid rows and report the invalid ones, instead of stopping' },
    { flags: '--failed-out <file>', description: 'write failed (and skipped invalid) rows here as CSV, with an error column; import that file once fixed' },
    { flags: '--restart', description: 'ignore what earlier runs of this file recorded, and check every row again' },
  ],
  examples: [
    'lms users import --account 1 new-students.csv',
    'lms users export --account 1 -o csv > users.csv && lms users import --dry-run --update users.csv',
  ],
  async run({ args, opts, ctx }) {
    const concurrency = Number(opts.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) throw new UsageError(`--concurrency must be 1-32, got "${opts.concurrency}"`);
    const { readInput, parseCsv, formatProblems } = await import('../../bulk/csv-input.js');
    const { bytes, name } = await readInput(args[0], ctx.io.stdin);
    const { rows, header, problems } = parseCsv(bytes, { columns: IMPORT_COLUMNS, required: ['login_id', 'name'], unique: ['login_id', 'sis_user_id'], check: checkRow });
    const badLines = new Set(problems.map((p) => p.line));
    if (problems.length && (!opts.skipInvalid || badLines.has(1) || rows.length === 0)) {
      throw new UsageError(`${name} has ${problems.length} problem${problems.length > 1 ? 's' : ''}; nothing was sent:\n${formatProblems(problems, name)}`);
    }
    if (problems.length) ctx.warn(`skipping ${badLines.size} invalid row${badLines.size > 1 ? 's' : ''}:\n${formatProblems(problems, name)}`);
    const valid: ImportRow[] = rows.filter((r) => !badLines.has(r.line)).map((r) => ({ line: r.line, key: r.values.login_id.toLowerCase(), values: r.values }));

    const client = await ctx.client();
    const [{ identifyInstance }, { Journal }, { runRows }, { progressReporter }, report] = await Promise.all([
      import('../../bulk/instance.js'),
      import('../../bulk/journal.js'),
      import('../../bulk/job.js'),
      import('../../bulk/progress.js'),
      import('../../bulk/report.js'),
    ]);
    const instance = await identifyInstance(ctx, client);
    const plan = Boolean(opts.dryRun);
    // A dry run reads the journal exactly as the run will, and writes nothing.
    const journal = new Journal(await journalDir(ctx), ['users.import', instance.where, opts.account, bytes], { state: instance.state, restart: opts.restart, readOnly: plan });
    const progress = progressReporter(ctx.io, { verbose: ctx.globals.verbose, label: plan ? 'checking' : 'importing' });
    const started = performance.now();
    const results = await runRows(valid, usersTask(client, opts.account), { journal, concurrency, mode: plan ? 'plan' : 'apply', update: opts.update, onProgress: (p) => progress.update(p) });
    progress.finish();

    const counts = report.tally(results);
    const seconds = (performance.now() - started) / 1000;
    const flat = ctx.globals.output === 'csv' || ctx.globals.output === 'table' || (ctx.globals.output === undefined && ctx.io.stdoutIsTTY);
    const attention = report.attentionLines(results, name, { plan });

    if (plan) {
      err(ctx.io, `Dry run: ${report.describeTally(counts, { plan, update: Boolean(opts.update) })}. Nothing was written.\n`);
      if (attention.length) err(ctx.io, `${attention.join('\n')}\n`);
      const planned = results.map((r) => ({
        line: r.line,
        login_id: valid.find((v) => v.line === r.line)?.values.login_id ?? r.key,
        action: r.skipped ? 'done' : PLAN_ACTION[r.status],
        id: r.id ?? null,
        changes: report.changesFor(r.changes, flat) ?? null,
        ...(r.error ? { error: r.error } : {}),
        ...(r.redone ? { redone: true } : {}),
      }));
      return list(planned, ['line', 'login_id', 'action', 'id', 'changes']);
    }

    err(ctx.io, `Imported ${valid.length} rows in ${seconds.toFixed(1)} s: ${report.describeTally(counts, { plan, update: Boolean(opts.update) })}.\n`);
    if (attention.length) err(ctx.io, `${attention.join('\n')}\n`);
    const failed = results.filter((r) => r.status === 'failed');
    if (opts.failedOut) {
      const { writeFailedRows } = await import('../../bulk/failed.js');
      const byLine = new Map(rows.map((r) => [r.line, r.values]));
      const invalid = [...badLines].map((line) => ({
        line,
        values: byLine.get(line) ?? {},
        error: problems.filter((p) => p.line === line).map((p) => p.message).join('; '),
      }));
      await writeFailedRows(opts.failedOut, header, [...failed.map((f) => ({ line: f.line, values: byLine.get(f.line)!, error: f.error ?? '' })), ...invalid]);
      if (failed.length || invalid.length) err(ctx.io, `Failed${invalid.length ? ' and invalid' : ''} rows are in ${opts.failedOut}; fix them and import that file as it is.\n`);
    }
    if (failed.length) err(ctx.io, `Re-running this command retries only the rows that are not done.\n`);
    const summary = {
      ...counts,
      invalid: badLines.size,
      rows: results.map((r) => ({
        line: r.line,
        login_id: r.key,
        status: r.status,
        id: r.id ?? null,
        ...(r.changes?.length ? { changes: report.changesFor(r.changes, flat) } : {}),
        ...(r.error ? { error: r.error } : {}),
        ...(r.skipped ? { skipped: true } : {}),
        ...(r.redone ? { redone: true } : {}),
      })),
    };
    const output = resultOutput(ctx, summary);
    if (!failed.length) return output;
    // The results are printed first; the failure then sets the exit code.
    return withFailure(output, new LmsError(`${failed.length} of ${valid.length} rows failed`, ExitCode.failure));
  },
});

/** Machine-readable results on stdout when asked for (-o) or piped; a terminal gets only the summary. */
function resultOutput(ctx: Context, summary: { rows: Record<string, unknown>[] } & Record<string, unknown>) {
  const format = ctx.globals.output;
  if (format === 'csv' || format === 'table') return list(summary.rows);
  if (format === undefined && ctx.io.stdoutIsTTY) return undefined;
  return item(summary);
}

async function journalDir(ctx: Context): Promise<string> {
  if (ctx.env.LMS_STATE_DIR) return join(ctx.env.LMS_STATE_DIR, 'journals');
  const { default: envPaths } = await import('env-paths');
  return join(envPaths('lms', { suffix: '' }).cache, 'journals');
}

export const exportUsers = defineCommand<{ account: string }>({
  name: 'export',
  summary: 'Write the users of an account with the columns `users import` reads (every page, or --limit N)',
  routes: ['users.list'],
  columns: [...EXPORT_COLUMNS],
  options: [{ flags: '--account <id>', description: 'account id, SIS form or self', default: 'self' }],
  examples: ['lms users export --account 1 -o csv > users.csv'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    // Every page by default: only an explicit --limit (and no --all) caps an export.
    const limit = ctx.globals.all ? undefined : ctx.globals.limit;
    const users = client.ops.users.list({ account_id: opts.account }, { limit });
    return list(
      (async function* () {
        for await (const u of users as AsyncIterable<User>) {
          yield Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, (c === 'email' ? u.email : u[c]) ?? '']));
        }
      })(),
      [...EXPORT_COLUMNS],
    );
  },
});

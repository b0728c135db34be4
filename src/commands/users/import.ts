// `lms users import FILE.csv` and `lms users export`: the first bulk command, and its inverse, so
// export → edit → import round-trips.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineCommand, item, list, withFailure } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
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

interface ImportRow {
  line: number;
  key: string;
  values: Record<string, string>;
}

async function findUser(client: ApiClient, login: string): Promise<number | undefined> {
  try {
    return (await client.ops.users.get({ id: `sis_login_id:${login}` })).id;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

interface ImportOpts {
  account: string;
  dryRun?: boolean;
  concurrency: string;
  skipInvalid?: boolean;
  failedOut?: string;
}

export const importUsers = defineCommand<ImportOpts>({
  name: 'import <file>',
  summary: 'Create users from a CSV (name, login_id, email, sis_user_id, …); safe to re-run',
  routes: ['users.create', 'users.get'],
  columns: ['line', 'login_id', 'status', 'id', 'error'],
  options: [
    { flags: '--account <id>', description: 'account id, SIS form or self', default: 'self' },
    { flags: '--dry-run', description: 'show what would be created and what already exists; write nothing' },
    { flags: '--concurrency <n>', description: 'rows in flight at once (the server may slow this further)', default: '4' },
    { flags: '--skip-invalid', description: 'import the valid rows and report the invalid ones, instead of stopping' },
    { flags: '--failed-out <file>', description: 'write failed rows here as CSV, with an error column, ready to fix and re-run' },
  ],
  examples: [
    'lms users import --account 1 new-students.csv',
    'lms users export --account 1 -o csv > users.csv && lms users import --dry-run users.csv',
  ],
  async run({ args, opts, ctx }) {
    const concurrency = Number(opts.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) throw new UsageError(`--concurrency must be 1-32, got "${opts.concurrency}"`);
    const { readInput, parseCsv, formatProblems } = await import('../../bulk/csv-input.js');
    const { bytes, name } = await readInput(args[0], ctx.io.stdin);
    const { rows, problems } = parseCsv(bytes, { columns: IMPORT_COLUMNS, required: ['login_id', 'name'], unique: ['login_id', 'sis_user_id'], check: checkRow });
    const badLines = new Set(problems.map((p) => p.line));
    if (problems.length && (!opts.skipInvalid || badLines.has(1) || rows.length === 0)) {
      throw new UsageError(`${name} has ${problems.length} problem${problems.length > 1 ? 's' : ''}; nothing was sent:\n${formatProblems(problems, name)}`);
    }
    if (problems.length) ctx.warn(`skipping ${badLines.size} invalid row${badLines.size > 1 ? 's' : ''}:\n${formatProblems(problems, name)}`);
    const valid: ImportRow[] = rows.filter((r) => !badLines.has(r.line)).map((r) => ({ line: r.line, key: r.values.login_id.toLowerCase(), values: r.values }));

    const client = await ctx.client();
    if (opts.dryRun) return dryRun(ctx, client, valid);

    const { Journal } = await import('../../bulk/journal.js');
    const { runRows } = await import('../../bulk/job.js');
    const { progressReporter } = await import('../../bulk/progress.js');
    const journal = new Journal(await journalDir(ctx), ['users.import', await instanceOf(ctx, client), opts.account, bytes]);
    const progress = progressReporter(ctx.io, { verbose: ctx.globals.verbose, label: 'importing' });
    const started = performance.now();
    const results = await runRows(valid, {
      find: (row) => findUser(client, row.values.login_id),
      apply: async (row) => {
        const v = row.values;
        const user = await client.ops.users.create({
          account_id: opts.account,
          user: { name: v.name, short_name: v.short_name || undefined, sortable_name: v.sortable_name || undefined, time_zone: v.time_zone || undefined, locale: v.locale || undefined },
          pseudonym: { unique_id: v.login_id, password: v.password || undefined, sis_user_id: v.sis_user_id || undefined },
          communication_channel: v.email ? { type: 'email', address: v.email } : undefined,
        });
        return user.id;
      },
    }, { journal, concurrency, onProgress: (p) => progress.update(p) });
    progress.finish();

    const count = (s: string, fresh = true) => results.filter((r) => r.status === s && (!fresh || !r.skipped)).length;
    const skipped = results.filter((r) => r.skipped).length;
    const failed = results.filter((r) => r.status === 'failed');
    const seconds = (performance.now() - started) / 1000;
    err(ctx.io, `Imported ${valid.length} rows in ${seconds.toFixed(1)} s: ${count('created')} created, ${count('existed')} already existed, ${failed.length} failed${skipped ? `, ${skipped} done by an earlier run` : ''}.\n`);
    if (failed.length) {
      const byLine = new Map(valid.map((r) => [r.line, r]));
      if (opts.failedOut) {
        const { stringify } = await import('csv-stringify/sync');
        const records = failed.map((f) => ({ ...byLine.get(f.line)!.values, error: f.error ?? '' }));
        await writeFile(opts.failedOut, stringify(records, { header: true, columns: [...IMPORT_COLUMNS, 'error'] }), { mode: 0o600 });
        err(ctx.io, `Failed rows are in ${opts.failedOut}; fix them and run the import on that file.\n`);
      } else {
        for (const f of failed.slice(0, 20)) err(ctx.io, `  ${name}:${f.line}: ${f.key}: ${f.error}\n`);
      }
      err(ctx.io, `Re-running this command retries only the failed rows.\n`);
    }
    const summary = {
      total: valid.length,
      created: count('created'),
      existed: count('existed'),
      failed: failed.length,
      skipped_done: skipped,
      invalid: badLines.size,
      rows: results.map((r) => ({ line: r.line, login_id: r.key, status: r.status, id: r.id ?? null, ...(r.error ? { error: r.error } : {}), ...(r.skipped ? { skipped: true } : {}) })),
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

async function dryRun(ctx: Context, client: ApiClient, rows: ImportRow[]) {
  const plan: { line: number; login_id: string; action: 'create' | 'exists'; id: number | null }[] = [];
  for (const row of rows) {
    const id = await findUser(client, row.values.login_id);
    plan.push({ line: row.line, login_id: row.values.login_id, action: id === undefined ? 'create' : 'exists', id: id ?? null });
  }
  const creates = plan.filter((p) => p.action === 'create').length;
  err(ctx.io, `Dry run: ${creates} would be created, ${plan.length - creates} already exist. Nothing was written.\n`);
  return list(plan, ['line', 'login_id', 'action', 'id']);
}

async function journalDir(ctx: Context): Promise<string> {
  if (ctx.env.LMS_STATE_DIR) return join(ctx.env.LMS_STATE_DIR, 'journals');
  const { default: envPaths } = await import('env-paths');
  return join(envPaths('lms', { suffix: '' }).cache, 'journals');
}

/** Which instance a journal belongs to: the base URL, or the mock's database file. */
async function instanceOf(ctx: Context, client: ApiClient): Promise<string> {
  return ctx.mockMode ? `mock:${(await ctx.mock()).path}` : client.baseUrl;
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

// A bulk import from start to end, for any job: read and validate the file (nothing sent on a
// problem), identify the instance, check that what the rows name exists (read-only; nothing written
// on a problem), open the journal, plan or apply every row, then report — a
// summary on stderr (one JSON object under -o json), the rows needing attention, per-row results on
// stdout, the failed-rows file, and exit 1 when a row failed or was skipped — on a dry run, when one
// would be. A command supplies only its schema, its key and its task.
import { item, list, withFailure, type CommandResult } from '../model/command.js';
import type { Context } from '../model/context.js';
import type { ApiClient } from '../client/client.js';
import { journalDir } from '../config/paths.js';
import type { Destruction } from '../model/destructions.js';
import { UsageError } from '../errors.js';
import { problemCount } from './problems.js';
import {
  delimiterFlag,
  dialectOf,
  dialectWords,
  formatProblems,
  parseCsv,
  placeFields,
  placeWords,
  readInput,
  rowRef,
  type CsvRow,
  type Delimiter,
  type Parsed,
  type Place,
  type Problem,
  type Schema,
} from './csv-input.js';
import { failedFileNote, writeFailedRows } from './failed.js';
import { err } from '../io/streams.js';
import { identifyInstance } from './instance.js';
import { runRows, type BulkRow, type BulkTask, type RowResult } from './job.js';
import { Journal } from './journal.js';
import type { BulkOpts } from './options.js';
import { progressReporter } from './progress.js';
import {
  attentionLines,
  changesFor,
  describeTally,
  needsAttention,
  reporting,
  tally,
  unpaged,
  type BulkReport,
  type Tally,
} from './report.js';

export interface BulkJob<R extends BulkRow, C> {
  /** Names the journal together with the instance, the target and the input's bytes: `users.import`. */
  job: string;
  /** Where the rows go (an account, a course…), as given on the command line. */
  target: string;
  schema: Schema;
  /**
   * Reads the input into rows instead of the CSV reader (a YAML or JSON tree flattened to rows):
   * the same line-numbered problems, checked before anything is sent. CSV with `schema` otherwise.
   */
  parse?(bytes: Buffer, name: string, options: { delimiter?: Delimiter }): Parsed;
  /** The column that names a row's target in results (`login_id`). */
  keyColumn: string;
  /**
   * The row in the file's own words, for messages about it (`user ghost, student`); by default the
   * key column and its value. Never the journal key, which is lower-cased and joined for matching.
   */
  describe?(values: Record<string, string>): string;
  /** A valid CSV row as the task's row; `key` identifies its target across runs. */
  toRow(row: CsvRow): R;
  task(client: ApiClient): BulkTask<R, C>;
  /**
   * After the rows: work on what the file does not list (`enrollments import --sync`). Planned only
   * on a dry run. Its rows join the results; its failures fail the command like a row's. `skipped`
   * counts the rows left out as invalid (--skip-invalid): their targets were never looked at.
   * `only`, when a plan of it was confirmed, holds the ids it may destroy: anything it finds besides
   * (someone enrolled since) was not in the plan, and is left as it is.
   */
  finish?(args: {
    client: ApiClient;
    results: RowResult[];
    plan: boolean;
    skipped: number;
    only?: ReadonlySet<number>;
  }): Promise<FinishedRow[]>;
  /**
   * Rows whose values destroy when written (an enrollment's state inactive deactivates it): `verb`
   * says what a row would do to its target (`deactivate`), undefined for a row that destroys nothing.
   * Before anything is written, the rows that would be created or changed so are counted and asked
   * about once (`Deactivate 2 enrollments of course 1`); a dry run marks them `destructive`.
   */
  destroys?: { noun(count: number): string; verb(row: R): string | undefined };
  /**
   * What `finish` destroys (`--sync`'s concluding), asked about in the same one question as the
   * rows': `planned` plans it from a plan of every row, as `finish` would on a dry run (for a person
   * at the prompt or a surface's consent; a script's --yes skips that), `words` says it, with the
   * count when there is one.
   */
  finishDestroys?: {
    planned(args: { client: ApiClient; results: RowResult[] }): Promise<FinishedRow[]>;
    words(count?: number): string;
  };
}

/** A row of a bulk job's answer: its place in the file, what became of it, and the id it names. */
interface BulkRowResult {
  line: number | null;
  at?: string;
  status: string;
  id?: number | null;
  error?: string;
  skipped?: boolean;
  redone?: boolean;
  destructive?: boolean;
}

/** What a bulk job answers with as data: its counts and a row a line (a dry run's with `dry_run`). */
export interface BulkSummary extends Tally {
  invalid: number;
  rows: BulkRowResult[];
  dry_run?: true;
}

/** A result of `finish`: a target the file does not list, and what was (or would be) done to it. */
export interface FinishedRow {
  key: string;
  id: number;
  status: string;
  error?: string;
}

export function runBulk<R extends BulkRow, C>(
  ctx: Context,
  file: string,
  opts: BulkOpts,
  job: BulkJob<R, C>,
): Promise<CommandResult> {
  return reporting(ctx, (report) => bulk(ctx, file, opts, job, report));
}

async function bulk<R extends BulkRow, C>(
  ctx: Context,
  file: string,
  opts: BulkOpts,
  job: BulkJob<R, C>,
  report: BulkReport,
): Promise<CommandResult> {
  const { concurrency } = opts;
  const { bytes, name, encoding } = await readInput(ctx.input(file), ctx.io.stdin);
  const delimiter = delimiterFlag(opts.delimiter);
  const dialect = dialectOf(bytes, { delimiter, encoding });
  if (ctx.globals.verbose) err(ctx.io, `${name}: ${dialectWords(dialect)}\n`);
  const parsed = job.parse ? job.parse(bytes, name, { delimiter }) : parseCsv(bytes, job.schema, { delimiter });
  const { rows, header } = parsed;
  const problems = [...parsed.problems];
  // A row that asks for what an earlier row asks for (the same key) is a mistake in the file, not a
  // second request: the run would count it as a success it never made.
  // Rows are told apart by rowRef (a CSV's line, a document's place), never by line alone: every row
  // of a document written on one line is on line 1.
  const converted = new Map<string, R>();
  const firstWithKey = new Map<string, Place>();
  const flagged = new Set(problems.map(rowRef));
  for (const r of rows) {
    if (flagged.has(rowRef(r))) continue;
    const row = job.toRow(r);
    const first = firstWithKey.get(row.key);
    if (first !== undefined) problems.push({ ...placeFields(r), message: `repeats ${placeWords(first)}` });
    else firstWithKey.set(row.key, r);
    converted.set(rowRef(r), row);
  }
  // The file's own problems need no server: a file with any is refused before a request is made.
  // Checking what it names takes reads, so then it is refused with nothing written.
  const refuse = (all: Problem[], nothing: 'sent' | 'written') =>
    new UsageError(`${name} has ${problemCount(all.length)}; nothing was ${nothing}:\n${formatProblems(all, name)}`);
  const unsound = new Set(problems.map(rowRef));
  // A problem of the file as a whole (its header, its shape) is on line 1 with no place of a row.
  const wholeFile = problems.some((p) => p.line === 1 && p.at === undefined);
  if (problems.length && (!opts.skipInvalid || wholeFile || rows.length === 0))
    throw refuse(problems.sort(byLine), 'sent');

  ctx.longJob();
  const client = await ctx.client();
  const instance = await identifyInstance(ctx, client);
  const task = job.task(client);
  if (task.resolve) {
    // What the rows name must exist before any row is written, on a dry run too: a roster naming one
    // unknown user is refused whole (or, with --skip-invalid, that row is skipped), never half applied.
    const named = rows.filter((r) => !unsound.has(rowRef(r))).map((r) => converted.get(rowRef(r))!);
    const missing = await task.resolve(named, { concurrency });
    if (missing.length && !opts.skipInvalid) throw refuse(missing.sort(byLine), 'written');
    problems.push(...missing);
  }
  problems.sort(byLine);
  const bad = new Set(problems.map(rowRef));
  // Under -o json the skipped rows are in the report's `attention`, with the rows that failed.
  if (problems.length && !report.json)
    ctx.warn(`skipping ${bad.size} invalid row${bad.size > 1 ? 's' : ''}:\n${formatProblems(problems, name)}`);
  const valid = rows.filter((r) => !bad.has(rowRef(r)));
  const taskRows = valid.map((r) => converted.get(rowRef(r))!);
  const byRef = new Map(rows.map((r) => [rowRef(r), r.values]));
  const valuesOf = (p: Place) => byRef.get(rowRef(p)) ?? {};
  const keyOf = (p: Place) => valuesOf(p)[job.keyColumn] ?? null;
  const describe = job.describe ?? ((v: Record<string, string>) => `${job.keyColumn} ${v[job.keyColumn] ?? ''}`);
  const labelOf = (p: Place) => describe(valuesOf(p));
  const firstProblem = new Map<string, Problem>();
  for (const p of problems) if (!firstProblem.has(rowRef(p))) firstProblem.set(rowRef(p), p);
  const invalid = [...firstProblem.values()].map((p) => ({
    ...shownPlace(p),
    values: valuesOf(p),
    error: problems
      .filter((q) => rowRef(q) === rowRef(p))
      .map((q) => q.message)
      .join('; '),
  }));
  const invalidRows = invalid.map((i) => ({
    ...shownPlace(i),
    ...(i.values[job.keyColumn] ? { [job.keyColumn]: i.values[job.keyColumn] } : {}),
    status: 'invalid',
    error: i.error,
  }));
  const skipped = invalid.length ? `${invalid.length} invalid row${invalid.length > 1 ? 's' : ''}` : '';

  const plan = Boolean(opts.dryRun);
  const update = Boolean(opts.update);
  // A dry run reads the journal exactly as the run will, and writes nothing.
  const journal = new Journal(await journalDir(ctx), [job.job, instance.where, job.target, bytes], {
    state: instance.state,
    restart: opts.restart,
    readOnly: plan,
  });
  // What finish may destroy once a plan of it was confirmed (undefined: not planned, as under --yes).
  let only: ReadonlySet<number> | undefined;
  if (!plan && (job.destroys || job.finishDestroys)) {
    // Invalid rows skipped: finish destroys nothing (see enrollments import), so it is not asked about.
    const finishing = invalid.length ? undefined : job.finishDestroys && { ...job.finishDestroys, client };
    const words = { name, label: labelOf, keyColumn: job.keyColumn };
    const destroying = { rows: job.destroys, finish: finishing };
    only = await confirmDestroying(ctx, destroying, taskRows, task, { journal, concurrency, update }, words);
  }
  const progress = progressReporter(ctx.io, { verbose: ctx.globals.verbose, label: plan ? 'checking' : 'importing' });
  const started = performance.now();
  // The progress bar has the terminal to itself: no request spinner while it draws.
  const resume = ctx.activity.pause();
  let results: RowResult[];
  try {
    results = await runRows(taskRows, task, {
      journal,
      concurrency,
      mode: plan ? 'plan' : 'apply',
      update,
      onProgress: (p) => progress.update(p),
    });
  } finally {
    progress.finish();
    resume();
  }
  const extra = job.finish ? await job.finish({ client, results, plan, skipped: invalid.length, only }) : [];
  const extraRows = extra.map((x) => ({
    line: null,
    [job.keyColumn]: x.key,
    status: x.status,
    id: x.id,
    ...(x.error ? { error: x.error } : {}),
  }));
  const extraFailed = extra.filter((x) => x.status === 'failed').length;
  const extraNote = extra.length ? `; not in the file: ${describeExtra(extra, plan)}` : '';

  // What a row destroys, once it is (or would be) written: a row left as it was destroys nothing.
  const destroyed = results.map((r, i) =>
    !r.skipped && (r.status === 'created' || r.status === 'updated') ? job.destroys?.verb(taskRows[i]) : undefined,
  );
  const destroyNote = job.destroys ? describeDestroyed(destroyed, job.destroys.noun, plan) : '';
  const counts = tally(results);
  const seconds = (performance.now() - started) / 1000;
  const flat =
    ctx.globals.output === 'csv' ||
    ctx.globals.output === 'table' ||
    (ctx.globals.output === undefined && ctx.io.stdoutIsTTY);
  const attention = attentionLines(results, name, { plan, label: labelOf });
  // Rows of the file in its order; what the file does not list (--sync's) after them.
  const byLineFirst = <T extends { line: number | null }>(a: T, b: T) =>
    (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER);

  // A dry run's results are its run's, key for key: the statuses say what the run would do
  // (`created`: would be created), and `dry_run: true` says nothing was.
  const failed = results.filter((r) => r.status === 'failed');
  const resultRows = results.map((r, i): Record<string, unknown> & { line: number | null } => ({
    ...shownPlace(r),
    [job.keyColumn]: keyOf(r),
    // Done by an earlier run: skipped now, whatever that run did (its status is in the journal).
    status: r.skipped ? 'skipped' : r.status,
    id: r.id ?? null,
    ...(r.changes?.length ? { changes: changesFor(r.changes, flat) } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.skipped ? { skipped: true } : {}),
    ...(r.redone ? { redone: true } : {}),
    ...(destroyed[i] ? { destructive: true } : {}),
  }));
  const summary = { ...counts, invalid: bad.size, rows: [...resultRows, ...extraRows] };
  if (plan) {
    report.summary(
      `Dry run: ${describeTally(counts, { plan, update })}${extraNote}${destroyNote}. Nothing was written.`,
    );
    report.attention(
      [...invalidRows, ...resultRows.filter((_, i) => needsAttention(results[i]))].sort(byLineFirst),
      attention,
    );
    // A plan exits as its run would: rows that would fail, or be skipped as invalid, fail it too.
    const undone = [
      counts.failed ? `${counts.failed} of ${valid.length} rows would fail` : '',
      skipped ? `${skipped} would be skipped` : '',
    ].filter(Boolean);
    const failure = report.finish(undone.length ? `dry run: ${undone.join('; ')}` : undefined);
    const planned = resultOutput(ctx, { ...summary, dry_run: true }, { plan });
    // What a confirmation of this plan binds: the same changes the question before a run lists.
    const verbOf = (r: R) => job.destroys?.verb(r);
    const destroys = destructionsOf(taskRows, results, verbOf, extra, { label: labelOf, keyColumn: job.keyColumn });
    const destroying = job.destroys || job.finishDestroys;
    const output = planned?.kind === 'item' && destroying ? { ...planned, destroys } : planned;
    return failure ? withFailure(output, failure) : output;
  }

  await ctx.auditJob({
    name: job.job,
    counts: { ...counts, invalid: bad.size, ...(extra.length ? { not_in_file: extra.length } : {}) },
    journal: journal.path,
  });
  report.summary(
    `Imported ${valid.length} row${valid.length === 1 ? '' : 's'} in ${seconds.toFixed(1)} s: ` +
      `${describeTally(counts, { plan, update })}${extraNote}${destroyNote}.`,
  );
  report.attention(
    [
      ...invalidRows,
      ...resultRows.filter((_, i) => needsAttention(results[i])),
      ...extraRows.filter((x) => x.status === 'failed'),
    ].sort(byLineFirst),
    [...extra.filter((e) => e.status === 'failed').map((x) => `  ${x.key}: ${x.error ?? 'failed'}`), ...attention],
  );
  if (opts.failedOut) {
    // Written as the input was (its separator, byte-order mark, line ending, encoding).
    const outcome = await writeFailedRows(
      opts.failedOut,
      header,
      [...failed.map((f) => ({ line: f.line, values: valuesOf(f), error: f.error ?? '' })), ...invalid],
      dialect,
    );
    if (outcome === 'written') report.set('failed_out', opts.failedOut);
    const what =
      failed.length && invalid.length ? 'Failed and invalid rows' : failed.length ? 'Failed rows' : 'Invalid rows';
    const note = failedFileNote(opts.failedOut, outcome, { rows: what, verb: 'import' });
    if (note) report.note(note);
  }
  if (failed.length) report.note(`Re-running this command retries only the rows that are not done.`);
  const output = resultOutput(ctx, summary);
  // The results are printed first; the failure then sets the exit code. Rows left undone, for
  // whatever reason, are a job not done: invalid rows skipped count like rows refused.
  const undone = [
    failed.length ? `${failed.length} of ${valid.length} rows failed` : '',
    extraFailed ? `${extraFailed} not in the file could not be changed` : '',
    skipped ? `${skipped} skipped` : '',
  ].filter(Boolean);
  const failure = report.finish(undone.length ? undone.join('; ') : undefined);
  return failure ? withFailure(output, failure) : output;
}

/**
 * Machine-readable results on stdout when asked for (-o) or piped: the run's object (a dry run's
 * with `dry_run: true`), or its rows in a table or CSV. A terminal gets only the summary of a run,
 * and the rows of a dry run: what it is run to see.
 */
function resultOutput(
  ctx: Context,
  summary: { rows: Record<string, unknown>[] } & Record<string, unknown>,
  options: { plan?: boolean } = {},
): CommandResult {
  const format = ctx.globals.output;
  if (format === 'csv' || format === 'table') return unpaged(list(summary.rows));
  if (format === undefined && ctx.io.stdoutIsTTY) return options.plan ? unpaged(list(summary.rows)) : undefined;
  return item(summary);
}

/** Problems in the order of the file (a document's places in the order read, on a line they share). */
const byLine = (a: Place, b: Place) => a.line - b.line;

/** A row's place in results: its line, and its place in a document when it has one. */
const shownPlace = (p: Place): { line: number; at?: string } =>
  p.at === undefined ? { line: p.line } : { line: p.line, at: p.at };

function describeExtra(extra: FinishedRow[], plan: boolean): string {
  const byStatus = new Map<string, number>();
  for (const x of extra) byStatus.set(x.status, (byStatus.get(x.status) ?? 0) + 1);
  return [...byStatus].map(([status, n]) => `${n} ${plan ? `would be ${status}` : status}`).join(', ');
}

/**
 * Asks once, before any row is written, about what the run would destroy: the rows that would
 * create or change so (looked up as a dry run would; a row that already agrees destroys nothing),
 * and what `finish` would (`--sync`'s concluding), in one question. Refused, nothing is written; a
 * plan that changed by the time of the answer is refused too (see Context.confirm). What `finish`
 * was confirmed to destroy, by id, when it was planned.
 */
async function confirmDestroying<R extends BulkRow, C>(
  ctx: Context,
  destroys: {
    rows?: NonNullable<BulkJob<R, C>['destroys']>;
    finish?: NonNullable<BulkJob<R, C>['finishDestroys']> & { client: ApiClient };
  },
  rows: R[],
  task: BulkTask<R, C>,
  options: { journal: Journal; concurrency: number; update: boolean },
  words: { name: string; label: (p: Place) => string; keyColumn: string },
): Promise<ReadonlySet<number> | undefined> {
  const { finish } = destroys;
  const verbOf = (r: R) => destroys.rows?.verb(r);
  // What finish would do is planned from every row (those the file matches are kept); the rows' own
  // destroying needs only the rows that would.
  const counted = finish && !ctx.globals.yes;
  const candidates = counted ? rows : rows.filter((r) => verbOf(r) !== undefined);
  const plan = async () => {
    const planned = candidates.length ? await runRows(candidates, task, { ...options, mode: 'plan' }) : [];
    const verbs = planned.map((r, i) => (writes(r) ? verbOf(candidates[i]) : undefined));
    const which = planned.filter((_, i) => verbs[i] !== undefined);
    // As finish decides on a dry run: a row that would fail leaves everything unlisted as it is.
    const failing = planned.some((r) => r.status === 'failed');
    const finished = counted && !failing ? await finish.planned({ client: finish.client, results: planned }) : [];
    const parts: string[] = [];
    if (finish) parts.push(finish.words(counted ? finished.length : undefined));
    if (which.length && destroys.rows) {
      const lines = which.map((r) => placeWords(r));
      const more = lines.length > 10 ? `, and ${lines.length - 10} more` : '';
      const said = describeDestroyed(verbs, destroys.rows.noun, false).replace(/^; /, '');
      parts.push(`${said} (${words.name}: ${lines.slice(0, 10).join(', ')}${more})`);
    }
    const what = parts.join(', and ');
    const action = what && `${what[0].toUpperCase()}${what.slice(1)}`;
    return { action, changes: destructionsOf(candidates, planned, verbOf, finished, words), finished };
  };
  const first = await plan();
  if (!first.action) return undefined;
  const again = async () => {
    const { action, changes } = await plan();
    return { action: action || 'Destroy nothing', changes };
  };
  await ctx.confirm(first.action, { destructive: true, plan: { changes: first.changes, again } });
  return counted ? new Set(first.finished.map((x) => x.id)) : undefined;
}

/** Whether a row's result writes its target (one done by an earlier run, or left as it is, does not). */
const writes = (r: RowResult) => !r.skipped && (r.status === 'created' || r.status === 'updated');

/**
 * What a plan of the rows and of `finish` destroys, for the dry run and the question alike: each
 * row that would create or change so, by its place and its words, with the values it changes, and
 * each target `finish` would reach.
 */
function destructionsOf<R extends BulkRow>(
  rows: R[],
  results: RowResult[],
  verbOf: (r: R) => string | undefined,
  finished: FinishedRow[],
  words: { label: (p: Place) => string; keyColumn: string },
): Destruction[] {
  const changes: Destruction[] = [];
  results.forEach((r, i) => {
    const verb = writes(r) ? verbOf(rows[i]) : undefined;
    if (verb === undefined) return;
    const applied = (r.changes ?? []).filter((d) => d.applicable);
    const values = applied.map((d) => `${d.field}: ${d.from || 'none'} → ${d.to}`);
    const what = r.status === 'created' ? 'created' : values.join(', ');
    const id = r.id !== undefined ? ` (id ${r.id})` : '';
    changes.push({ object: `${placeWords(r)}: ${words.label(r)}${id}`, change: `${verb}${what ? ` (${what})` : ''}` });
  });
  for (const x of finished) changes.push({ object: `${words.keyColumn} ${x.key} (id ${x.id})`, change: x.status });
  return changes;
}

/** `; deactivate 2 enrollments of course 1` (a dry run's: `would deactivate`), or '' when nothing is destroyed. */
function describeDestroyed(verbs: (string | undefined)[], noun: (count: number) => string, plan: boolean): string {
  const byVerb = new Map<string, number>();
  for (const v of verbs) if (v !== undefined) byVerb.set(v, (byVerb.get(v) ?? 0) + 1);
  if (!byVerb.size) return '';
  const total = [...byVerb.values()].reduce((a, b) => a + b, 0);
  return `; ${plan ? 'would ' : ''}${[...byVerb].map(([verb, n]) => `${verb} ${n}`).join(', ')} ${noun(total)}`;
}

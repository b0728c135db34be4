// `lms apply` from start to end: read and check the files (a problem anywhere: every problem with its
// file and line, exit 2, no request), read the instance into a plan (what it names that does not
// exist: the same, with only reads sent), show the plan, ask, apply it through the bulk engine, and
// report. `--plan` (and `lms diff`) stops after showing it.
import { join } from 'node:path';
import { shownFormat, list, text, withFailure, type CommandModel, type CommandResult } from '../model/command.js';
import type { Context } from '../model/context.js';
import { formatProblems } from '../bulk/csv-input.js';
import { moreLine, problemCount, ProblemList } from '../bulk/problems.js';
import { identifyInstance } from '../bulk/instance.js';
import { Journal } from '../bulk/journal.js';
import { progressReporter } from '../bulk/progress.js';
import { reporting, unpaged } from '../bulk/report.js';
import type { ApiObject } from '../spec/types/common.js';
import { stateDir } from '../config/paths.js';
import { LmsError, UsageError } from '../errors.js';
import { err, out } from '../io/streams.js';
import { optionsFor } from './fields.js';
import { invoke } from '../model/invoke.js';
import { readApplyFiles } from './file.js';
import type { ApplyTree, FileProblem } from './model.js';
import { executePlan } from './execute.js';
import { makePlan, type Invoke, type Plan } from './plan.js';
import { ambiguity, hasChanges, planJson, planRows, planText, sourceOf, summarize } from './render.js';
import { KeyStore } from './state.js';
import { lockCourses } from './lock.js';
import { readTree } from './tree.js';
import { KINDS, many } from './kinds.js';
import { destructionsOf, markDestroying } from './destroys.js';

export interface ApplyOptions {
  file: string[];
  plan?: boolean;
  exitCode?: boolean;
  prune?: boolean;
  concurrency: number;
  /** Seconds to wait for another apply of the same course on this instance. */
  lockTimeout?: number;
}

/**
 * Every problem of the files at once — what the files alone show and what only the instance can
 * tell, together — by file: exit 2, nothing changed. The first MAX_PROBLEMS_SHOWN are listed, in the
 * message and the JSON error alike, and the rest counted.
 */
function refuse(problems: ProblemList<FileProblem>, options: { onInstance: number; unchecked?: string }): UsageError {
  const shown = problems.listed;
  const files = problems.files;
  const text = [...new Set(shown.map((p) => p.file))].map((f) =>
    formatProblems(
      shown.filter((p) => p.file === f),
      f,
    ),
  );
  text.push(...moreLine(problems.more));
  if (options.unchecked) text.push(`  (what the files name was not looked up on the instance: ${options.unchecked})`);
  const { onInstance } = options;
  const where =
    onInstance === 0
      ? ''
      : onInstance === problems.size
        ? ' on this instance'
        : ` (${onInstance.toLocaleString('en-US')} on this instance)`;
  return new UsageError(
    `${files.join(', ')} ${files.length === 1 ? 'has' : 'have'} ${problemCount(problems.size)}${where}; nothing was ` +
      `changed:\n${text.join('\n')}`,
    {
      details: {
        problems: shown.map((p) => ({
          file: p.file,
          line: p.line,
          ...(p.at !== undefined ? { at: p.at } : {}),
          message: p.message,
        })),
        ...(problems.more > 0 ? { more_problems: problems.more } : {}),
      },
    },
  );
}

/**
 * Runs a verb with the fields a plan gives it, as its command would, minus the question: apply asks
 * once, for the plan. What it made, when it made one.
 */
export function verbCaller(ctx: Context): Invoke {
  // As data, whatever -o shows the plan as: a verb that answers a table with a row of its own
  // (rubrics create) still hands apply the object it made.
  const quiet = Object.create(ctx, {
    confirm: { value: async () => undefined },
    globals: { value: { ...ctx.globals, output: 'json' } },
  }) as Context;
  return async (verb, args, values, options) => {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const result = await invoke(verb.spec, { args, options: optionsFor(verb, values, given) }, quiet);
    return result && result.kind === 'item' ? (result.value as ApiObject) : undefined;
  };
}

/** How long an apply waits, by default, for another apply of one of its courses (seconds). */
const LOCK_TIMEOUT = 300;

export function runApply(
  ctx: Context,
  opts: ApplyOptions,
  model: CommandModel,
  shared: Pick<ApplyTree, 'roster' | 'outcomes'>,
): Promise<CommandResult> {
  /** The courses' locks, held from before the plan is read until the run ends. */
  const held: { release?: () => Promise<void> } = {};
  return reporting(ctx, async (report) => {
    const { concurrency } = opts;
    if (!opts.file.length) throw new UsageError('give the file to apply with -f FILE (a folder, or - for stdin)');
    if (opts.exitCode && !opts.plan) throw new UsageError('--exit-code goes with --plan (or lms diff)');
    const lockTimeout = opts.lockTimeout ?? LOCK_TIMEOUT;
    const tree = await readTree(model, shared);
    const read = await readApplyFiles(
      opts.file.map((f) => ctx.input(f)),
      ctx.io.stdin,
      tree,
      ctx.localFiles,
    );
    if (!read.courses.length && !read.problems.size)
      throw new UsageError(`${read.inputs.map((i) => i.name).join(', ')} lists no course`);

    const dir = await stateDir(ctx);
    // Reads only: the plan journal is read-only, and what the plan remembers waits for the apply.
    // `hold`: an apply takes its courses' locks before it reads the plan, so that a run which had
    // to wait plans from what the other made. A plan alone writes nothing and waits for no one.
    const planned = async (hold = false) => {
      ctx.longJob();
      const client = await ctx.client();
      const instance = await identifyInstance(ctx, client);
      if (hold) {
        held.release = await lockCourses({
          where: instance.where,
          courses: read.courses.map((c) => c.sis),
          waitMs: lockTimeout * 1000,
          // On a terminal the wait is said as it starts; under -o json it is a note of the report.
          onWait: (message) => (report.json ? report.note(message) : err(ctx.io, `${message}…\n`)),
          onLost: (message) => ctx.warn(message),
        });
      }
      const keys = new KeyStore(join(dir, 'apply'), instance);
      const planJournal = new Journal(join(dir, 'journals'), ['apply.plan'], { readOnly: true, restart: true });
      const plan: Plan = await makePlan(read.courses, {
        client,
        tree,
        keys,
        invoke: verbCaller(ctx),
        prune: opts.prune ?? false,
        concurrency,
        planJournal,
      });
      markDestroying(plan, tree);
      return { client, instance, plan };
    };
    if (read.problems.size) {
      // The files are refused, but not before what they name is looked up as well (users, sections,
      // cross-listing targets…, with reads), so that one run lists every problem, not one kind per run.
      // A file that could not be read at all names nothing to look up.
      let onInstance = new ProblemList<FileProblem>();
      let unchecked: string | undefined;
      if (read.courses.length) {
        try {
          onInstance = (await planned()).plan.problems;
        } catch (e) {
          if (!(e instanceof LmsError)) throw e;
          unchecked = e.message;
        }
      }
      const all = new ProblemList<FileProblem>();
      all.merge(read.problems);
      all.merge(onInstance);
      throw refuse(all, { onInstance: onInstance.size, unchecked });
    }
    const { client, instance, plan } = await planned(!opts.plan);
    if (plan.problems.size) throw refuse(plan.problems, { onInstance: plan.problems.size });

    const summary = summarize(plan);
    const changes = hasChanges(summary);
    const format = shownFormat(ctx);
    const output = (): CommandResult => {
      // A plan (--plan, --dry-run, lms diff) is the run's document, key for key, with `dry_run: true`.
      // A plan carries what a confirmation of it binds: the same changes the question lists.
      if (format === 'json' || format === 'yaml') {
        const value = { ...planJson(plan), ...(opts.plan ? { dry_run: true } : {}) };
        return { kind: 'item', value, destroys: destructionsOf(plan) };
      }
      if (format === 'table') return text(planText(plan, { applied: !opts.plan }));
      return unpaged(list(planRows(plan, format === 'csv')));
    };
    const counts =
      `${summary.create} to create, ${summary.update} to update, ${summary.delete} to delete, ` +
      `${summary.unchanged} unchanged`;
    for (const c of plan.courses)
      for (const k of c.kept)
        ctx.warn(
          `course ${c.sis}: --prune leaves ${k.count} ${k.count === 1 ? KINDS[k.kind].one : many(k.kind)}: ${k.why}`,
        );
    for (const c of plan.courses) for (const a of c.ambiguous) ctx.warn(`course ${c.sis}: ${ambiguity(a)}`);

    // The plan's text ends with its summary; other formats have it in the report.
    const summaryUnlessShown = (line: string) => format !== 'table' && report.summary(line);
    if (opts.plan) {
      summaryUnlessShown(
        changes ? `Plan: ${counts}.` : `No changes: the instance matches the file (${summary.unchanged} unchanged).`,
      );
      const failure = report.finish(changes && opts.exitCode ? `changes pending: ${counts}` : undefined);
      return failure ? withFailure(output(), failure) : output();
    }
    if (!changes) {
      summaryUnlessShown(
        `No changes: the instance matches the file (${summary.unchanged} unchanged). Nothing was changed.`,
      );
      for (const remember of plan.remember) remember();
      report.finish();
      return format === 'table' ? text(planText(plan)) : output();
    }
    // The plan is what is agreed to: on a terminal it is shown before the question.
    if (format === 'table') await out(ctx.io, planText(plan));
    const question = (p: Plan) => {
      const s = summarize(p);
      const courses = p.courses.filter((c) => c.actions.length).length;
      const all = `${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged`;
      return `Apply ${s.create + s.update + s.delete} changes to ${courses} course${courses === 1 ? '' : 's'} (${all})`;
    };
    const destructive = summary.delete > 0 || summary.destroy > 0;
    // What is destroyed is what was asked about: the plan is made again after the answer, and a
    // plan that destroys anything else (an object to prune made since) runs nothing.
    const again = async () => {
      const now = (await planned()).plan;
      return { action: question(now), changes: destructionsOf(now) };
    };
    const bound = destructive ? { plan: { changes: destructionsOf(plan), again } } : {};
    await ctx.confirm(question(plan), { destructive, ...bound });

    for (const remember of plan.remember) remember();
    // The plan, not a journal, says what is left to do: each run journals afresh, and a run after
    // a crash plans from what the instance has by then.
    const journal = new Journal(
      join(dir, 'journals'),
      ['apply', instance.where, ...read.inputs.flatMap((i) => [i.name, i.bytes])],
      { state: instance.state, restart: true },
    );
    const progress = progressReporter(ctx.io, { verbose: ctx.globals.verbose, label: 'applying' });
    const started = performance.now();
    const paused = ctx.activity.pause();
    try {
      await executePlan(plan, { client, tree, journal, concurrency, onProgress: (p) => progress.update(p) });
    } finally {
      progress.finish();
      paused();
    }
    for (const message of plan.adopted) ctx.warn(message);
    const actions = plan.courses.flatMap((c) => c.actions);
    const done = actions.filter((a) => a.status === 'done');
    const failed = actions.filter((a) => a.status === 'failed');
    const notDone = actions.filter((a) => a.status === 'not_done');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const tally = (op: string, word: string) =>
      `${done.filter((a) => a.op === op || (op === 'delete' && a.op === 'conclude')).length} ${word}`;
    const count = (op: string) => done.filter((a) => a.op === op).length;
    await ctx.auditJob({
      name: 'apply',
      counts: {
        total: actions.length,
        created: count('create'),
        updated: count('update'),
        deleted: count('delete'),
        concluded: count('conclude'),
        failed: failed.length,
        not_done: notDone.length,
      },
      journal: journal.path,
    });
    report.summary(
      `Applied ${done.length} of ${actions.length} changes in ${seconds} s: ${tally('create', 'created')}, ` +
        `${tally('update', 'updated')}, ${tally('delete', 'deleted or concluded')}, ${failed.length} failed, ` +
        `${notDone.length} not done.`,
    );
    const attention = [...failed, ...notDone];
    report.attention(
      attention.map((a) => ({
        course: a.course,
        action: a.op,
        kind: a.kind,
        key: a.key,
        source: a.source ? sourceOf(a.source) : null,
        status: a.status,
        error: a.error,
      })),
      attention
        .slice(0, 20)
        .map(
          (a) =>
            `  ${a.source ? `${sourceOf(a.source)}: ` : ''}${a.op} ${a.kind} ${a.key}: ` +
            `${a.status === 'failed' ? 'failed' : 'not done'}: ${a.error ?? ''}`,
        )
        .concat(attention.length > 20 ? [`  … and ${attention.length - 20} more`] : []),
    );
    if (attention.length) report.note('Running the same apply again makes only what is still left to do.');
    const failure = report.finish(
      attention.length
        ? `${failed.length} change${failed.length === 1 ? '' : 's'} failed, ${notDone.length} not done`
        : undefined,
    );
    // On a terminal the plan was shown already; what went wrong is in the report.
    const result = format === 'table' ? undefined : output();
    return failure ? withFailure(result, failure) : result;
  }).finally(async () => {
    await held.release?.();
  });
}

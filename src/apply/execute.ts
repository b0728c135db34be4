// Applies a plan through the bulk engine, a step at a time in dependency order (courses, sections,
// cross-listing, enrollments, assignments, topics and quizzes, pages, modules, outcomes, then
// removals), the changes of a step side by side (but modules, made one at a time). The engine journals
// each change before and after it is sent and resolves a write whose outcome is unknown by looking
// before writing again; pacing and retries sit below it in the transport. A change whose object it
// needs was not made is not attempted: it is reported as not done, with why, and the next run (which
// plans afresh from the instance) picks it up.
import { runRows, type BulkRow, type BulkTask, type Difference, type RowResult } from '../bulk/job.js';
import type { Journal } from '../bulk/journal.js';
import type { ApiClient } from '../client/client.js';
import type { ApiObject } from '../spec/types/common.js';
import type { ApplyTree } from './model.js';
import { STEPS, type Action, type Change, type Plan, type Slot } from './plan.js';

interface ActionRow extends BulkRow {
  action: Action;
}

export interface ExecuteOptions {
  client: ApiClient;
  tree: ApplyTree;
  journal: Journal;
  concurrency: number;
  /** After each change, with how many are done (or failed, or not done) of how many. */
  onProgress?: (p: { done: number; failed: number; total: number }) => void;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const difference = (ch: Change): Difference => ({
  field: ch.field,
  from: text(ch.from),
  to: text(ch.to),
  applicable: ch.applicable,
});

const notMade = (missing: Slot[]) =>
  `${missing.map((s) => s.label).join(', ')} ${missing.length > 1 ? 'were' : 'was'} not created`;

/** Runs every change of the plan; each action ends done, failed or not done, with its error. */
export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<void> {
  const actions = plan.courses.flatMap((c) => c.actions);
  const progress = { done: 0, failed: 0, total: actions.length };
  const settle = (a: Action, status: NonNullable<Action['status']>, error?: string) => {
    a.status = status;
    if (error) a.error = error;
    progress.done++;
    if (status !== 'done') progress.failed++;
    options.onProgress?.(progress);
  };

  const looked = new Set<string>();
  const task: BulkTask<ActionRow, ApiObject> = {
    lookupFirst: true,
    find(row) {
      const fresh = looked.has(row.key);
      looked.add(row.key);
      return row.action.task!.find(fresh);
    },
    compare: (row, current) => row.action.task!.compare(current).map(difference),
    create: (row) => row.action.task!.create(),
    async update(row, found, differences) {
      const wanted = new Set(differences.map((d) => d.field));
      await row.action.task!.update(
        found,
        row.action.task!.compare(found.current).filter((ch) => wanted.has(ch.field)),
      );
    },
  };

  let modules: Action[] = [];
  for (let step = 0; step < STEPS.length; step++) {
    const ready: Action[] = [];
    for (const a of actions.filter((x) => x.step === step)) {
      const missing = a.needs.filter((s) => s.id === undefined);
      if (missing.length) settle(a, 'not_done', notMade(missing));
      else if (a.changes?.length && a.changes.every((ch) => !ch.applicable)) settle(a, 'failed', cannot(a.changes));
      else ready.push(a);
    }
    if (!ready.length) continue;
    if (step === STEPS.indexOf('outcomes')) {
      await outcomes(ready, options, settle);
      continue;
    }
    const run = async (batch: Action[], concurrency: number) => {
      const rows = batch.map((action, i) => ({ line: i + 1, key: action.id, action }));
      await runRows(rows, task, {
        journal: options.journal,
        concurrency,
        mode: 'apply',
        update: true,
        onRow: (r) => finish(rows[r.line - 1].action, r, settle),
      });
    };
    if (step !== STEPS.indexOf('modules')) {
      await run(ready, options.concurrency);
      continue;
    }
    // A module made at a place moves the others, and names as prerequisites modules made before it:
    // one at a time, and not one whose prerequisite was not made (the next run makes both, in order).
    for (const a of ready) {
      const missing = (a.before ?? []).filter((s) => s.id === undefined);
      if (missing.length) settle(a, 'not_done', notMade(missing));
      else await run([a], 1);
    }
    modules = ready.filter((a) => a.status !== 'not_done');
  }
  // Once the removals are made too: a module deleted before another moves it up. The modules of a
  // course the file places that already stood there are placed again when others of it changed.
  const changed = new Set(actions.filter((a) => a.kind === 'module' && a.status === 'done').map((a) => a.course));
  const standing = plan.courses.filter((c) => changed.has(c.sis)).flatMap((c) => c.placed);
  for (const a of standing) a.status = 'done';
  if (modules.length || standing.length) await placeModules([...modules, ...standing], task, options);
  // One that could not be put back is a change of this run that failed, and is said as one.
  for (const c of plan.courses) c.actions.push(...c.placed.filter((a) => a.status === 'failed'));
}

/**
 * A module placed further than the modules made so far lands at the end and the ones made after it
 * go below it: once all are made (and removed), each module the file places is moved again where it
 * is not yet, the first places first. A move can take a module away from a prerequisite, which the
 * API then no longer keeps: each module that names some is read again, and fails if it lost one.
 */
async function placeModules(
  ready: Action[],
  task: BulkTask<ActionRow, ApiObject>,
  options: ExecuteOptions,
): Promise<void> {
  const positionOf = (a: Action) => Number(a.fields?.position ?? a.changes?.find((ch) => ch.field === 'position')?.to);
  const placed = ready
    .filter((a) => a.status === 'done' && !Number.isNaN(positionOf(a)))
    .sort((a, b) => positionOf(a) - positionOf(b));
  if (!placed.length) return;
  const onlyPosition = (changes: Change[]) => changes.filter((ch) => ch.field === 'position');
  let moved = false;
  const rows = placed.map((action, i) => ({ line: i + 1, key: `${action.id} position`, action }));
  await runRows(
    rows,
    {
      ...task,
      find: (row) => row.action.task!.find(true),
      compare: (row, current) => onlyPosition(row.action.task!.compare(current)).map(difference),
      async update(row, found) {
        await row.action.task!.update(found, onlyPosition(row.action.task!.compare(found.current)));
      },
    },
    {
      journal: options.journal,
      concurrency: 1,
      mode: 'apply',
      update: true,
      // Made but not where the file places it: the change is not complete (it was counted once already).
      onRow: (r) => {
        if (r.status === 'updated') moved = true;
        if (r.status !== 'failed') return;
        const { action } = rows[r.line - 1];
        action.status = 'failed';
        action.error = r.error;
      },
    },
  );
  if (!moved) return;
  for (const action of ready.filter((a) => a.status === 'done')) {
    const found = await action.task!.find(true);
    const lost = found ? action.task!.compare(found.current).find((ch) => ch.field === 'prerequisites') : undefined;
    if (!lost) continue;
    const had = Array.isArray(lost.from) ? lost.from : [];
    const gone = (Array.isArray(lost.to) ? lost.to : []).filter((k) => !had.includes(k));
    action.status = 'failed';
    action.error =
      `placed where the file says, it comes before ${gone.map((k) => `prerequisite "${String(k)}"`).join(', ')}, ` +
      'which the API then no longer keeps: a prerequisite must be placed before the module that needs it';
  }
}

function cannot(changes: Change[]): string {
  return `cannot be changed: ${changes
    .filter((ch) => !ch.applicable)
    .map((ch) => `${ch.field} (${ch.why ?? 'no command changes it'})`)
    .join('; ')}`;
}

function finish(
  action: Action,
  r: RowResult,
  settle: (a: Action, status: NonNullable<Action['status']>, error?: string) => void,
): void {
  if (r.id !== undefined && action.target === undefined) action.target = r.id;
  if (action.slot && r.id !== undefined && r.status !== 'failed') action.slot.id ??= r.id;
  if (r.status === 'failed') {
    settle(action, 'failed', r.error);
    return;
  }
  // Done, but what no verb can change stays as it was: the change is not complete.
  const left = (action.changes ?? []).filter((ch) => !ch.applicable);
  if (left.length) {
    settle(action, 'failed', cannot(left));
    return;
  }
  settle(action, 'done');
}

/** A course's outcome tree is applied whole by the import's own task: its rows find their parents through it. */
async function outcomes(
  ready: Action[],
  options: ExecuteOptions,
  settle: (a: Action, status: NonNullable<Action['status']>, error?: string) => void,
): Promise<void> {
  const groups = [...new Set(ready.map((a) => a.outcomes!))];
  for (const group of groups) {
    const mine = ready.filter((a) => a.outcomes === group);
    // Keys made unique across courses for the journal; the task reads only the rows' own fields.
    const rows = group.rows.map((r) => ({ ...r, key: `${group.course}|outcomes|${r.key}` }));
    const task = options.tree.outcomes.task(options.client, { course_id: group.course }, { plan: false });
    const results = await runRows(rows, task, {
      journal: options.journal,
      concurrency: options.concurrency,
      mode: 'apply',
      update: true,
    });
    for (const a of mine) {
      const r = results[group.rows.findIndex((row) => row.key === a.row)];
      if (!r) settle(a, 'not_done', 'its row was not run');
      else if (r.status === 'failed') settle(a, 'failed', r.error);
      else if (a.changes?.some((ch) => !ch.applicable)) settle(a, 'failed', cannot(a.changes));
      else settle(a, 'done');
    }
  }
}

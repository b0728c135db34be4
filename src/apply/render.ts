// How a plan (and an applied plan) reads: lines grouped by course for people, one JSON document of a
// fixed shape for machines, or one row per change (NDJSON, CSV).
//
// The JSON document (a plan's has `dry_run: true` besides):
//   { changes: boolean,
//     summary: { create, update, delete, unchanged, cannot_change, destroy },
//     courses: [ { sis_course_id, id, source, actions: [Action…], unchanged: { <kind>: n }, kept: [{ kind, count, why }],
//                  ambiguous?: [{ kind, title, source, ids, chosen }] } ] }
// Action:
// { action: create|update|delete|conclude, kind, key, id, source, fields?, changes?, destroys?, status?, error? }
//   change: { field, from, to, applicable, why? }. Removals come first in each course, then the steps in
//   the order they are made. `status` (done, failed, not_done) and `error` appear once applied.
import type { Value } from './fields.js';
import { KINDS, many, type KindName } from './kinds.js';
import type { Action, Ambiguous, Change, CoursePlan, Plan } from './plan.js';
import type { Source } from './model.js';
import { placeOf } from '../bulk/csv-input.js';

export interface Summary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  cannot_change: number;
  /** Creates and updates that set a value that destroys (`--state inactive`): asked about like deletions. */
  destroy: number;
}

const removal = (a: Action) => a.op === 'delete' || a.op === 'conclude';
/** What a reader must not miss: removals, and changes that destroy. */
const destroys = (a: Action) => removal(a) || (a.destroys?.length ?? 0) > 0;

/** A course's changes as shown: removals first (they are what a reader must not miss), then in the order made. */
function ordered(course: CoursePlan): Action[] {
  return course.actions
    .map((a, i) => [a, i] as const)
    .sort(([a, i], [b, j]) => Number(destroys(b)) - Number(destroys(a)) || a.step - b.step || i - j)
    .map(([a]) => a);
}

export function summarize(plan: Plan): Summary {
  const actions = plan.courses.flatMap((c) => c.actions);
  return {
    create: actions.filter((a) => a.op === 'create').length,
    update: actions.filter((a) => a.op === 'update').length,
    delete: actions.filter(removal).length,
    unchanged: plan.courses.reduce((n, c) => n + Object.values(c.unchanged).reduce((m, k) => m + (k ?? 0), 0), 0),
    cannot_change: actions.filter((a) => a.changes?.some((ch) => !ch.applicable)).length,
    destroy: actions.filter((a) => !removal(a) && a.destroys?.length).length,
  };
}

export const hasChanges = (s: Summary) => s.create + s.update + s.delete > 0;

/**
 * Where a change comes from: `course.yaml:14`; in a document on one line, where the line tells
 * nothing, its place: `course.json: courses[0].sections[2]`.
 */
export const sourceOf = (s: Source): string =>
  s.at !== undefined && s.oneLine ? placeOf(s.file, s) : `${s.file}:${s.line}`;

const source = (a: { source?: Source }) => (a.source ? sourceOf(a.source) : null);

/** One change of a field, as the JSON document has it. */
interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
  applicable: boolean;
  why?: string;
}

/** One step of a plan, as the JSON document has it (`status` and `error` once applied). */
interface PlanAction {
  action: Action['op'];
  kind: string;
  key: string;
  id: number | null;
  source: string | null;
  fields?: Record<string, Value>;
  changes?: FieldChange[];
  destroys?: string[];
  status?: Action['status'];
  error?: string;
}

/** What --prune leaves of a kind, and why. */
interface KeptObjects {
  kind: KindName;
  count: number;
  why: string;
}

/** A title two or more objects of a course share, and the one matched. */
interface AmbiguousMatch {
  kind: KindName;
  title: string;
  source: string;
  ids: number[];
  chosen: number;
}

/** A course's part of the plan. */
interface CourseChanges {
  sis_course_id: string;
  id: number | null;
  source: string | null;
  actions: PlanAction[];
  unchanged: CoursePlan['unchanged'];
  kept: KeptObjects[];
  ambiguous?: AmbiguousMatch[];
}

/** The plan (or the applied plan) as one JSON document: what apply, apply --plan and diff answer. */
export interface PlanDocument {
  changes: boolean;
  summary: Summary;
  courses: CourseChanges[];
  /** A plan that is not applied: apply --plan, a dry run, diff. */
  dry_run?: true;
}

function actionJson(a: Action): PlanAction {
  return {
    action: a.op,
    kind: a.kind,
    key: a.key,
    id: a.target ?? a.slot?.id ?? null,
    source: source(a),
    ...(a.fields ? { fields: a.fields } : {}),
    ...(a.changes ? { changes: a.changes.map(changeJson) } : {}),
    ...(a.destroys?.length ? { destroys: a.destroys } : {}),
    ...(a.status ? { status: a.status } : {}),
    ...(a.error ? { error: a.error } : {}),
  };
}

const changeJson = (ch: Change): FieldChange => ({
  field: ch.field,
  from: ch.from ?? null,
  to: ch.to ?? null,
  applicable: ch.applicable,
  ...(ch.why ? { why: ch.why } : {}),
});

export function planJson(plan: Plan): PlanDocument {
  const summary = summarize(plan);
  return {
    changes: hasChanges(summary),
    summary,
    courses: plan.courses.map((c) => ({
      sis_course_id: c.sis,
      id: c.id ?? c.actions.find((a) => a.kind === 'course' && a.op === 'create')?.slot?.id ?? null,
      source: source(c),
      actions: ordered(c).map(actionJson),
      unchanged: c.unchanged,
      kept: c.kept,
      ...(c.ambiguous.length
        ? {
            ambiguous: c.ambiguous.map((a) => ({
              kind: a.kind,
              title: a.title,
              source: sourceOf(a.source),
              ids: a.ids,
              chosen: a.chosen,
            })),
          }
        : {}),
    })),
  };
}

/** One row per change, for NDJSON and CSV (whose columns are the same for every row). */
export function planRows(plan: Plan, flat: boolean): Record<string, unknown>[] {
  return plan.courses.flatMap((c) =>
    ordered(c).map((a) => {
      const { action, kind, key, id, source: at, status, error } = actionJson(a);
      if (!flat) return { course: c.sis, ...actionJson(a) };
      const fields = Object.entries(a.fields ?? {})
        .map(([f, v]) => `${f}: ${shown(v)}`)
        .join('; ');
      const changes = (a.changes ?? [])
        .map(
          (ch) =>
            `${ch.field}: ${shown(ch.from)} → ${shown(ch.to)}` +
            `${ch.applicable ? '' : ` (${ch.why ?? 'cannot be changed'})`}`,
        )
        .join('; ');
      return {
        course: c.sis,
        action,
        kind,
        key,
        id,
        source: at,
        fields,
        changes,
        status: status ?? '',
        error: error ?? '',
      };
    }),
  );
}

/** A value as a line shows it: text quoted, long text cut. */
function shown(v: unknown, width = 60): string {
  if (v === null || v === undefined) return 'null';
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > width ? `${s.slice(0, width - 2)}…${s.at(-1) === '"' ? '"' : ''}` : s;
}

const SIGN: Record<Action['op'], string> = { create: '+', update: '~', delete: '-', conclude: '-' };

function words(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Two or more objects the file's one would match, and which it was matched to: in the plan and as a warning. */
export function ambiguity(a: Ambiguous): string {
  return (
    `${words(a.ids.length, KINDS[a.kind].one, many(a.kind))} of this course are titled ` +
    `${JSON.stringify(a.title)} (ids ${a.ids.join(', ')}); ${sourceOf(a.source)} is matched to ${a.chosen}, the ` +
    'first listed (rename or delete the others to choose)'
  );
}

/** The plan for people: each course, its changes, what is left as it is. */
export function planText(plan: Plan, options: { applied?: boolean } = {}): string {
  const lines: string[] = [];
  for (const c of plan.courses) {
    const actions = ordered(c);
    const unchanged = Object.entries(c.unchanged).filter(([, n]) => n);
    lines.push(`course ${c.sis}${c.id !== undefined ? ` (id ${c.id})` : ' (new)'}`);
    for (const a of actions) {
      const status =
        options.applied && a.status && a.status !== 'done'
          ? `  [${a.status === 'failed' ? 'failed' : 'not done'}: ${a.error ?? ''}]`
          : '';
      const verb = a.op === 'conclude' ? 'conclude ' : '';
      const id = a.target !== undefined && !a.outcomes ? ` (id ${a.target})` : '';
      const destroying = a.destroys?.length ? `  [destroys: ${a.destroys.join(', ')}]` : '';
      lines.push(
        `  ${SIGN[a.op]} ${verb}${a.kind} ${a.key}${id}${a.source ? `  ${sourceOf(a.source)}` : ''}${destroying}` +
          `${status}`,
      );
      if (a.kind === 'enrollment' || a.outcomes) {
        for (const ch of a.changes ?? []) lines.push(`      ${changeLine(ch)}`);
        continue;
      }
      for (const [field, value] of Object.entries(a.fields ?? {}))
        lines.push(`      ${field}: ${shown(value as Value)}`);
      for (const ch of a.changes ?? []) lines.push(`      ${changeLine(ch)}`);
    }
    if (unchanged.length)
      lines.push(
        '  = unchanged: ' +
          `${unchanged.map(([k, n]) => (k === 'course' ? words(n!, 'course') : words(n!, KINDS[k as KindName].one, many(k as KindName)))).join(', ')}`,
      );
    for (const k of c.kept)
      lines.push(`  kept (--prune): ${words(k.count, KINDS[k.kind].one, many(k.kind))}: ${k.why}`);
    for (const a of c.ambiguous) lines.push(`  ! ${ambiguity(a)}`);
  }
  const s = summarize(plan);
  lines.push(
    '',
    hasChanges(s)
      ? `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to ` +
          `delete${s.destroy ? ` (and ${words(s.destroy, 'change')} that destroy${s.destroy === 1 ? 's' : ''})` : ''}` +
          `, ${s.unchanged} ` +
          `unchanged.${s.cannot_change ? ` ${words(s.cannot_change, 'change')} cannot be made (see above).` : ''}`
      : `No changes: the instance matches the file (${s.unchanged} unchanged).`,
  );
  return `${lines.join('\n')}\n`;
}

function changeLine(ch: Change): string {
  return (
    `${ch.field}: ${shown(ch.from)} → ${shown(ch.to)}` +
    `${ch.applicable ? '' : `  (cannot be changed: ${ch.why ?? 'no command changes it'})`}`
  );
}

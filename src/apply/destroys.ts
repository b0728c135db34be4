// Which planned creates and updates destroy: each is read through the verb it runs and the flags it
// gives it, as the CLI and `lms mcp` read a command line, so a value that destroys (an enrollment's
// state inactive) is asked about and marked in the plan wherever it was written.
import { destroyingOptions } from '../model/command.js';
import { destroyingFields, type KindVerbs, type Value } from './fields.js';
import { KINDS } from './kinds.js';
import type { ApplyTree } from './model.js';
import type { Destruction } from '../model/destructions.js';
import type { Action, Plan } from './plan.js';

/** Sets `destroys` on every create and update of the plan that sets a value that destroys. */
export function markDestroying(plan: Plan, tree: ApplyTree): void {
  for (const c of plan.courses) {
    for (const a of c.actions) {
      const said = destroyingOf(tree, a);
      if (said.length) a.destroys = said;
    }
  }
}

function destroyingOf(tree: ApplyTree, a: Action): string[] {
  if ((a.op !== 'create' && a.op !== 'update') || a.outcomes) return [];
  // An item a module's list no longer names is deleted, and with it its students' progress through it.
  const removed = a.kind === 'module' ? (a.changes ?? []).filter((ch) => ch.field === 'items' && ch.to === null) : [];
  const items = removed.length ? [`deletes ${removed.length === 1 ? 'an item' : `${removed.length} items`}`] : [];
  return [...items, ...fieldsDestroying(tree, a)];
}

function fieldsDestroying(tree: ApplyTree, a: Action): string[] {
  const changed = Object.fromEntries((a.changes ?? []).filter((ch) => ch.applicable).map((ch) => [ch.field, ch.to]));
  if (a.kind === 'enrollment') {
    // A roster row is enrolled by `enrollments add`, each column through the flag of its name (tree.ts).
    const add = tree.kinds.enrollments.create;
    return add ? destroyingOptions(add.spec, a.op === 'create' ? { ...a.fields } : changed).map((d) => d.said) : [];
  }
  const kind: KindVerbs | undefined =
    a.kind === 'course'
      ? tree.course
      : Object.values(KINDS).flatMap((k) => (k.one === a.kind && k.name !== 'outcomes' ? [tree.kinds[k.name]] : []))[0];
  if (!kind) return [];
  return destroyingFields(
    kind,
    a.op === 'create' ? (a.fields ?? {}) : (changed as Record<string, Value>),
    a.op === 'create',
  );
}

/**
 * What the plan destroys, for `--plan` and the question alike: each removal (what it deletes or
 * concludes, by its key and id) and each create or update that sets a value that destroys, with the
 * values it changes. Marked first (markDestroying).
 */
export function destructionsOf(plan: Plan): Destruction[] {
  const changes: Destruction[] = [];
  for (const c of plan.courses) {
    for (const a of c.actions) {
      const removal = a.op === 'delete' || a.op === 'conclude';
      if (!removal && !a.destroys?.length) continue;
      const object = `${a.kind} ${a.key}${a.target !== undefined ? ` (id ${a.target})` : ''} of course ${c.sis}`;
      const shown = (v: unknown) => JSON.stringify(v ?? null);
      const applied = (a.changes ?? []).filter((ch) => ch.applicable);
      const values = applied.map((ch) => `${ch.field}: ${shown(ch.from)} → ${shown(ch.to)}`);
      const said = removal ? '' : ` ${a.destroys!.join(' ')} (${a.op === 'create' ? 'created so' : values.join(', ')})`;
      changes.push({ object, change: `${a.op}${said}` });
    }
  }
  return changes;
}

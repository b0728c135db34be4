// The verbs apply writes with, read off the command model: the same specs the CLI registers, with
// their flags' fields and what each verb writes. Only the nouns of the kinds apply manages load.
import { verbsAt, type CommandModel, type CommandSpec } from '../model/command.js';
import { attributeName } from '../model/options.js';
import { kindVerbs, type KindVerbs } from './fields.js';
import { COURSE, KINDS, type KindName } from './kinds.js';
import type { ApplyTree } from './model.js';

async function verbsOf(model: CommandModel, noun: string): Promise<CommandSpec<never>[]> {
  const found = await verbsAt(model, [noun]);
  if (!found) throw new Error(`the command model has no noun "${noun}"`);
  return found;
}

export async function readTree(
  model: CommandModel,
  shared: Pick<ApplyTree, 'roster' | 'outcomes'>,
): Promise<ApplyTree> {
  const kinds = {} as Record<Exclude<KindName, 'outcomes'>, KindVerbs>;
  for (const kind of Object.values(KINDS)) {
    if (kind.name === 'outcomes') continue;
    kinds[kind.name] = kindVerbs(await verbsOf(model, kind.noun), kind.verbs);
  }
  // A roster row is enrolled by `enrollments add`, each column through the flag of its name.
  const add = kinds.enrollments.create;
  const flags = new Set((add?.spec.options ?? []).map((o) => attributeName(o)));
  const missing = shared.roster.columns.filter((c) => !flags.has(c));
  if (!add || missing.length)
    throw new Error(`enrollments add takes no ${missing.join(', ') || 'rows'}: apply enrolls a roster row through it`);
  return { course: kindVerbs(await verbsOf(model, COURSE.noun)), kinds, ...shared };
}

// The verbs apply writes with, read off the built command tree: the same specs the CLI registers,
// with their flags' fields and what each verb writes.
import type { Command } from 'commander';
import { specOf, type CommandSpec } from '../cli/command.js';
import { attributeName } from '../cli/options.js';
import { kindVerbs, type KindVerbs } from './fields.js';
import { COURSE, KINDS, type KindName } from './kinds.js';
import type { ApplyTree } from './model.js';

function verbsOf(program: Command, noun: string): CommandSpec<never>[] {
  const found = program.commands.find((c) => c.name() === noun);
  if (!found) throw new Error(`the command tree has no noun "${noun}"`);
  return found.commands.map((c) => specOf(c)).filter((s): s is CommandSpec<never> => s !== undefined);
}

export function readTree(program: Command, shared: Pick<ApplyTree, 'roster' | 'outcomes'>): ApplyTree {
  const kinds = {} as Record<Exclude<KindName, 'outcomes'>, KindVerbs>;
  for (const kind of Object.values(KINDS)) {
    if (kind.name === 'outcomes') continue;
    kinds[kind.name] = kindVerbs(verbsOf(program, kind.noun), kind.verbs);
  }
  // A roster row is enrolled by `enrollments add`, each column through the flag of its name.
  const add = kinds.enrollments.create;
  const flags = new Set((add?.spec.options ?? []).map((o) => attributeName(o.flags)));
  const missing = shared.roster.columns.filter((c) => !flags.has(c));
  if (!add || missing.length) throw new Error(`enrollments add takes no ${missing.join(', ') || 'rows'}: apply enrolls a roster row through it`);
  return { course: kindVerbs(verbsOf(program, COURSE.noun)), kinds, ...shared };
}

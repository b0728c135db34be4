// A tool that creates or changes an object answers with the object as the instance then holds it,
// read through its noun's `get <id>`, and names the fields it sent that came back otherwise (a name
// trimmed, a date moved to the instance's zone, a value the instance refused silently). The read is
// an ordinary run of that verb, so the declared routes and the audit log see what it sends.
import { sameValue, typeOf, type FieldType } from '../apply/fields.js';
import { argumentsOf, verbsAt, type CommandModel, type CommandSpec } from '../model/command.js';
import { compileOptions, type CompiledOption, type FieldSpec } from '../model/options.js';
import { route } from '../spec/routes.js';
import type { Tool } from './tools.js';

/** The verb that reads one object of the tool's noun by its id (`lms sections get <id>`), if it has one. */
export async function getVerbOf(model: CommandModel, tool: Tool): Promise<CommandSpec<never> | undefined> {
  const verbs = await verbsAt(model, tool.command.split(' ').slice(1, -1));
  return verbs?.find(
    (spec) => spec.name === 'get' && isSingleId(spec) && (spec.routes ?? []).some((id) => route(id).method === 'GET'),
  );
}

/**
 * The get verb's options, from the write's: the ones both take that name no field (`--course`,
 * the context it was written in), and those that would change something as they read (`conv get`
 * marks read) at the value that does not.
 */
export function readOptions(get: CommandSpec<never>, written: Record<string, unknown>): Record<string, unknown> {
  const opts: Record<string, unknown> = {};
  for (const o of compileOptions(get.options)) {
    if (o.spec.writesUnless !== undefined) opts[o.attribute] = o.spec.writesUnless;
    else if (!o.spec.field && written[o.attribute] !== undefined) opts[o.attribute] = written[o.attribute];
  }
  return opts;
}

/**
 * The fields the write sent (by its flags' `field`) whose value the object read back holds
 * otherwise; a field the object does not have, or one naming another object (a `ref`, given by id
 * or SIS form), is not compared.
 */
export function differingFields(
  spec: CommandSpec<never>,
  options: Record<string, unknown>,
  object: Record<string, unknown>,
): string[] {
  const differs: string[] = [];
  for (const o of compileOptions(spec.options)) {
    const field = o.spec.field;
    const given = options[o.attribute];
    if (!field || given === undefined || field.type === 'ref' || !Object.hasOwn(object, field.name)) continue;
    const sent = sentValue(o, field, given);
    if (sent === undefined) continue;
    if (!sameValue({ type: sent.type }, object[field.name], sent.value) && !differs.includes(field.name))
      differs.push(field.name);
  }
  return differs;
}

type Sent = { type: FieldType; value: string | number | boolean | null | string[] };

/**
 * The field's value a flag's value sends, as `lms apply` reads a flag (the other way round); undefined for a switch not
 * given.
 */
function sentValue(option: CompiledOption, field: FieldSpec, given: unknown): Sent | undefined {
  const type = typeOf(option, field);
  if (option.type === 'boolean') {
    // A switch sends its field only when given: `--unpin` is pinned false; `--no-publish` is published false.
    const on = option.kind === 'negated' ? given === false : given === true;
    return on ? { type, value: field.value === undefined ? option.kind !== 'negated' : field.value } : undefined;
  }
  if (given === '' && field.clears) return { type: 'string', value: null };
  if (type === 'boolean') return { type, value: String(given) === 'true' };
  if (type === 'list')
    return {
      type,
      value: (Array.isArray(given) ? given.map(String) : String(given).split(',')).map((v) => v.trim()).filter(Boolean),
    };
  return { type, value: typeof given === 'number' ? given : String(given) };
}

/** One required argument, one word: the id a get reads. */
function isSingleId(spec: CommandSpec<never>): boolean {
  const args = argumentsOf(spec);
  return args.length === 1 && args[0].required && !args[0].variadic;
}

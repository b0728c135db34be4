// The fields a kind of object has in an apply file, read off the verbs that write it: each flag that
// declares the API field it sets (`--points` sets points_possible) makes that field one a file may
// give, with the flag's type, choices and help; a verb's `sets` adds fields it sets outright
// (`quizzes publish`). Nothing here lists fields, so a flag added to a verb later is a field of the
// file at once, and a field no verb can set is an unknown field.
//
// The same description turns a change back into a verb and its options, exactly as commander would
// have handed them over from a command line, defaults included.
import { destroyingOptions, type CommandSpec, type FieldSpec, type OptionSpec } from '../model/command.js';
import { compileOption, compileOptions, type CompiledOption } from '../model/options.js';
import { criteriaOf, criterionSpecs, sameCriteria, type Criterion } from './rubrics.js';

export type Value = string | number | boolean | null | string[] | Criterion[];

export type FieldType = 'string' | 'enum' | 'boolean' | 'integer' | 'number' | 'time' | 'list' | 'ref' | 'criteria';

export interface Field {
  name: string;
  type: FieldType;
  choices?: string[];
  /** Some verb can set it to null (a flag that takes "", a switch or verb that clears it). */
  nullable: boolean;
  /** The help of the first flag that sets it. */
  description: string;
}

/** A flag of a verb that sets a field. */
interface Setter {
  option: OptionSpec;
  compiled: CompiledOption;
  field: FieldSpec;
  type: FieldType;
  isSwitch: boolean;
}

export interface Verb {
  spec: CommandSpec<never>;
  setters: Map<string, Setter[]>;
  sets: Record<string, Value>;
}

export interface KindVerbs {
  create?: Verb;
  updates: Verb[];
  remove?: Verb;
  fields: Map<string, Field>;
}

/** A field of an object the API answers, by its name in a file: `rules.drop_lowest` is `rules` → `drop_lowest`. */
export function valueAt(o: Readonly<Record<string, unknown>>, name: string): unknown {
  let at: unknown = o;
  for (const part of name.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

const isBooleanChoice = (choices: readonly string[] | undefined) =>
  !!choices && choices.length === 2 && choices.includes('true') && choices.includes('false');

/** The type of the field a flag sets, as a file names it: what `lms apply` and a read-back compare by. */
export function typeOf(option: CompiledOption, field: FieldSpec): FieldType {
  if (option.type === 'boolean' || isBooleanChoice(option.spec.choices)) return 'boolean';
  if (field.type) return field.type;
  if (option.type === 'integer' || option.type === 'number') return option.type;
  if (option.type === 'enum' && option.spec.choices?.length) return 'enum';
  return 'string';
}

function verbOf(spec: CommandSpec<never>): Verb {
  const setters = new Map<string, Setter[]>();
  for (const option of spec.options ?? []) {
    if (!option.field) continue;
    const compiled = compileOption(option);
    const setter: Setter = {
      option,
      compiled,
      field: option.field,
      type: typeOf(compiled, option.field),
      isSwitch: compiled.type === 'boolean',
    };
    setters.set(option.field.name, [...(setters.get(option.field.name) ?? []), setter]);
  }
  return { spec, setters, sets: { ...spec.sets } };
}

/**
 * The verbs of a noun that create, change and delete its objects (by what they declare they write;
 * `named` picks verbs that declare nothing), and the fields they set between them.
 */
export function kindVerbs(verbs: CommandSpec<never>[], named: { create?: string; remove?: string } = {}): KindVerbs {
  const pick = (writes: 'create' | 'delete', name?: string) =>
    verbs.find((v) => v.writes === writes) ?? (name ? verbs.find((v) => v.name === name) : undefined);
  const createSpec = pick('create', named.create);
  const removeSpec = pick('delete', named.remove);
  const create = createSpec && verbOf(createSpec);
  // The verb with the most fields first: a change goes to it when several could make it.
  const updates = verbs
    .filter((v) => v.writes === 'update')
    .map(verbOf)
    .sort((a, b) => b.setters.size - a.setters.size);
  const fields = new Map<string, Field>();
  for (const verb of [create, ...updates].filter((v): v is Verb => !!v)) {
    for (const [name, setters] of verb.setters) {
      for (const s of setters) {
        const known = fields.get(name);
        const choices = s.type === 'enum' ? (s.option.choices ?? []).filter((c) => c !== '') : undefined;
        const nullable = (!s.isSwitch && (s.field.clears ?? false)) || (s.isSwitch && s.field.value === null);
        if (!known)
          fields.set(name, {
            name,
            type: s.type,
            ...(choices ? { choices } : {}),
            nullable,
            description: s.option.description,
          });
        else {
          known.nullable ||= nullable;
          if (choices && known.choices) known.choices = [...new Set([...known.choices, ...choices])];
        }
      }
    }
    for (const [name, value] of Object.entries(verb.sets)) {
      const known = fields.get(name);
      if (known) known.nullable ||= value === null;
      else
        fields.set(name, {
          name,
          type: typeof value === 'boolean' ? 'boolean' : 'string',
          nullable: value === null,
          description: `set by ${verb.spec.name}`,
        });
    }
  }
  return { create, updates, remove: removeSpec && verbOf(removeSpec), fields };
}

// ---- values ------------------------------------------------------------------------------------

const TYPE_WORDS: Record<FieldType, string> = {
  string: 'text',
  enum: 'one of',
  boolean: 'true or false',
  integer: 'a whole number',
  number: 'a number',
  time: 'a date and time (ISO 8601)',
  list: 'a list of text',
  ref: 'an id or SIS form (sis_course_id:X)',
  criteria:
    'a list of criteria, each a description (no colon), points and ratings (each a description, no comma, and points)',
};

/** What a value of the field must be, in words: `a whole number (or null)`. */
export function describeType(field: Field): string {
  const base = field.type === 'enum' ? `one of ${field.choices!.join(', ')}` : TYPE_WORDS[field.type];
  return field.nullable ? `${base} (or null)` : base;
}

/** The value as the field takes it, or undefined when it is of the wrong type. */
export function checkValue(field: Field, value: unknown): Value | undefined {
  if (value === null) return field.nullable ? null : undefined;
  switch (field.type) {
    case 'string':
      // A number where text is wanted (`course_code: 101`) is what YAML made of it, not a mistake.
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      return typeof value === 'string' ? value : undefined;
    case 'enum':
      return typeof value === 'string' && field.choices!.includes(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'time':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '' && !v.includes(','))
        ? (value as string[])
        : undefined;
    case 'ref':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    case 'criteria':
      return criteriaOf(value);
  }
}

/** Whether the API's value is the value a file asks for, as the field's type compares. */
export function sameValue(field: Pick<Field, 'type'>, current: unknown, wanted: Value): boolean {
  const none = (v: unknown) => v === null || v === undefined || v === '';
  if (field.type === 'boolean') return (current === true) === (wanted === true);
  if (field.type === 'criteria') return Array.isArray(wanted) && sameCriteria(current, wanted as Criterion[]);
  if (wanted === null || none(wanted)) return none(current);
  if (none(current)) return false;
  switch (field.type) {
    case 'integer':
    case 'number':
      return Number(current) === Number(wanted);
    case 'time':
      return Date.parse(String(current)) === Date.parse(String(wanted));
    case 'list': {
      const a = Array.isArray(current) ? current.map(String).sort() : String(current).split(',').sort();
      const b = [...(wanted as string[])].sort();
      return a.length === b.length && a.every((v, i) => v === b[i]);
    }
    default:
      return String(current) === String(wanted);
  }
}

// ---- verbs and their options -------------------------------------------------------------------

/** The option a setter takes for a value, or undefined when its flag cannot say it. */
function optionValue(s: Setter, value: Value): string | string[] | boolean | undefined {
  if (s.isSwitch) {
    const sets = s.field.value === undefined ? true : s.field.value;
    if (value !== sets) return undefined;
    // `--no-publish` is stored as publish: false.
    return s.compiled.kind !== 'negated';
  }
  if (value === null) return s.field.clears ? '' : undefined;
  if (s.type === 'boolean') return typeof value === 'boolean' ? String(value) : undefined;
  // A repeatable flag says each criterion once.
  if (s.type === 'criteria') return Array.isArray(value) ? criterionSpecs(value as Criterion[]) : undefined;
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/** Whether a verb can set the field to the value. */
export function canSet(verb: Verb, field: string, value: Value): boolean {
  if (field in verb.sets) return verb.sets[field] === value;
  return (verb.setters.get(field) ?? []).some((s) => optionValue(s, value) !== undefined);
}

/**
 * The options commander would hand a verb for these fields: each field through the flag that can say
 * its value, the context options given, and every other option at its default.
 */
export function optionsFor(
  verb: Verb,
  values: Record<string, Value>,
  context: Record<string, string | undefined>,
): Record<string, unknown> {
  const opts: Record<string, unknown> = {};
  for (const { attribute, default: byDefault } of compileOptions(verb.spec.options)) {
    if (byDefault !== undefined) opts[attribute] = byDefault;
    if (attribute in context && context[attribute] !== undefined) opts[attribute] = context[attribute];
  }
  for (const [field, value] of Object.entries(values)) {
    if (field in verb.sets) continue;
    for (const s of verb.setters.get(field) ?? []) {
      const v = optionValue(s, value);
      if (v !== undefined) {
        opts[s.compiled.attribute] = v;
        break;
      }
    }
  }
  return opts;
}

/**
 * The verbs that bring an object to `changes`, fewest first: each change goes to the first update
 * verb that can make it (the one with most fields leads). What no verb can make is returned apart.
 */
export function updateCalls(
  kind: KindVerbs,
  changes: Record<string, Value>,
): { calls: { verb: Verb; values: Record<string, Value> }[]; impossible: string[] } {
  const byVerb = new Map<Verb, Record<string, Value>>();
  const impossible: string[] = [];
  for (const [field, value] of Object.entries(changes)) {
    const verb = kind.updates.find((v) => canSet(v, field, value));
    if (!verb) impossible.push(field);
    else byVerb.set(verb, { ...byVerb.get(verb), [field]: value });
  }
  const calls = [...byVerb].map(([verb, values]) => ({ verb, values }));
  return { calls: calls.sort((a, b) => kind.updates.indexOf(a.verb) - kind.updates.indexOf(b.verb)), impossible };
}

/**
 * What giving these fields would destroy, as the flags that send them say it (`--state inactive`):
 * a field's value destroys when the flag of the verb that sets it declares that value destroys
 * (OptionSpec.destroys), read through the same options the verb would be run with, so a field a flag
 * gains later is covered as soon as the flag says so.
 */
export function destroyingFields(kind: KindVerbs, values: Record<string, Value>, creating: boolean): string[] {
  const calls = creating ? (kind.create ? [{ verb: kind.create, values }] : []) : updateCalls(kind, values).calls;
  return calls.flatMap(({ verb, values: v }) =>
    destroyingOptions(verb.spec, optionsFor(verb, v, {})).map((d) => d.said),
  );
}

/** Why a change cannot be made, in words. */
export function whyNot(kind: KindVerbs, one: string, field: string, value: Value, creating: boolean): string {
  const settable = [kind.create, ...kind.updates].some((v) => v && (v.setters.has(field) || field in v.sets));
  if (!settable) return `no command sets ${field}`;
  if (!creating && kind.updates.length === 0)
    return `no command changes ${/^[aeiou]/.test(one) ? 'an' : 'a'} ${one} once created`;
  return `no command sets ${field} to ${JSON.stringify(value)}${creating ? '' : ' on an existing one'}`;
}

// A verb's flags as every surface needs them, compiled once from their declaration: the attribute
// commander stores a flag under, whether it is a switch, a negated switch (`--no-x`), a value or a
// list, the value's type and range, and its default. commander's syntax is written from the
// declaration (syntaxOf), never read back from it, and one function turns a given value into the type the verb
// receives, with one message for a bad value wherever it came from (a command line, a tool's input, a file).
import { formatBytes } from '../bytes.js';
import { UsageError } from '../errors.js';

/** One flag as a command declares it (commands declare flags as a record; see define.ts). */
export interface OptionSpec {
  /** The long name without its dashes: `account` for --account. */
  long: string;
  /** A switch given as `--no-<long>`: the verb reads `long` as true unless the flag is given. */
  negated?: true;
  /** A one-letter alias without its dash: `y` for -y. */
  short?: string;
  /** The name of the value the flag takes (`id` for --account <id>); none for a switch. */
  value?: string;
  /** The value may be left out (`--pseudonymize [who]`): given alone, the flag is true. */
  valueOptional?: true;
  description: string;
  required?: boolean;
  /** As a command line would give it (`'4'`): help shows it so, and it is coerced like a given value. */
  default?: string | boolean;
  choices?: readonly string[];
  /**
   * What the value is when it is a number: the verb receives it as one, checked against `min` and
   * `max` wherever it is given. The same words as a field's type (FieldSpec.type), and `size`: a
   * number of bytes, given as one or with a binary multiple (`512k`, `100m`, `2GiB`).
   */
  type?: NumberType | 'size';
  min?: number;
  max?: number;
  /** What the number counts, for the message about a bad one: `seconds`. */
  unit?: string;
  /** Repeatable (`-f a=1 -f b=2`); with `choices`, each value must be one of them. */
  repeatable?: boolean;
  /** The field of the API's object this flag sets, for the surfaces that speak in fields (`lms apply`). */
  field?: FieldSpec;
  /**
   * The flag names a local file: `read`, a text file the verb reads (`-` for stdin), which a surface
   * without the user's files (`lms mcp`) takes as its content instead; `written`, a file the verb
   * writes, and `uploaded`, one it sends to the instance as it is, which such a surface leaves out
   * (what would be written comes back in the answer; nothing of this machine's goes out).
   */
  file?: FileUse;
  /**
   * Given (or given one of these values), the verb deletes, concludes or deactivates what it would
   * otherwise leave (`--sync`, `--prune`, `--state inactive`): the one declaration of it, which every
   * surface reads wherever the value comes from (a flag, an import's column, an apply file's field).
   * The CLI asks before running the verb (see `asksItself`), and `lms mcp` refuses it without
   * --allow-destructive.
   */
  destroys?: true | readonly string[];
  /**
   * The verb asks before it destroys, naming what the flag would end (`--sync` and `--prune` count
   * it first): the CLI does not ask for the flag as well.
   */
  asksItself?: true;
  /**
   * The verb's routes only read, but it changes something on the side unless the flag has this
   * value (`conv get` marks read unless --no-mark-read): a surface that may not write sets it.
   */
  writesUnless?: boolean;
  /** The value is the id of one of these, which completions offer from the instance (see IdKind). */
  ids?: IdKind;
}

type NumberType = 'integer' | 'number';

/**
 * What an id names, for a flag or argument that takes one: completions list them from the instance,
 * narrowed by the context flags already on the line (an assignment of the --course given).
 */
export type IdKind = 'course' | 'section' | 'assignment' | 'user' | 'account' | 'topic' | 'announcement';

export type FileUse = 'read' | 'written' | 'uploaded';

/**
 * A field of an API object, as a flag sets it: named as the API names it (`--points` sets
 * `points_possible`), so a file of fields and the flags of the verbs that write them are one
 * description. A flag with no `field` sets nothing a file may name.
 */
export interface FieldSpec {
  name: string;
  /**
   * What the value is when it is not text. A switch is a boolean (of `value`), a flag whose choices
   * are true and false a boolean, and one with other choices one of them, without saying so.
   * `ref` names another object by id or SIS form, as the flag takes it; `criteria` is a rubric's
   * criteria, a list of them (a repeatable flag, one each). A flag that declares a
   * number `type` gives its field that type; one that says it twice says it alike.
   */
  type?: NumberType | 'time' | 'list' | 'ref' | 'criteria';
  /** The value a switch sets (`--unpin`: pinned false, `--ungraded`: assignment_id null); true unless said. */
  value?: boolean | null;
  /** The flag takes "" to clear the field (the API's null). */
  clears?: boolean;
}

/**
 * How a flag is given: a `switch` (`--publish`: true when given), `negated` (`--no-notify`: the
 * attribute is notify, true unless given), a `value` (`--name <name>`), or a `list` of values
 * (a repeatable flag).
 */
type OptionKind = 'switch' | 'negated' | 'value' | 'list';

type ValueType = 'boolean' | 'string' | 'enum' | NumberType | 'size';

export interface CompiledOption {
  spec: OptionSpec;
  /** The property commander stores it under: `--login-id <x>` → loginId, `--no-notify` → notify. */
  attribute: string;
  /** Its long form, as messages name it: `--concurrency`. */
  long: string;
  kind: OptionKind;
  /** Its value may be left out (`--pseudonymize [who]`): given alone, the flag is true. */
  valueOptional: boolean;
  /** Of each value, for a list. */
  type: ValueType;
  min?: number;
  max?: number;
  /** What the verb receives when the flag is not given: the declared default as its type, true for a negated switch. */
  default?: string | boolean | number;
}

const compiled = new WeakMap<OptionSpec, CompiledOption>();

/** How a flag's names and value are declared. */
export type FlagSyntax = Pick<OptionSpec, 'long' | 'negated' | 'short' | 'value' | 'valueOptional'>;

/** The long flag as it is typed: `--account`, `--no-publish`. */
export const longFlagOf = (spec: FlagSyntax): string => `--${spec.negated ? 'no-' : ''}${spec.long}`;

/** The flag in commander's syntax, for commander and help: `-f, --file <path>`, `--level [n]`. */
export function syntaxOf(spec: FlagSyntax): string {
  const value = spec.value === undefined ? '' : spec.valueOptional ? ` [${spec.value}]` : ` <${spec.value}>`;
  return `${spec.short === undefined ? '' : `-${spec.short}, `}${longFlagOf(spec)}${value}`;
}

/** Whether a flag takes a value, required (`<path>`) or optional (`[who]`). */
export const takesValue = (spec: FlagSyntax): boolean => spec.value !== undefined;

/** Whether a flag answers to this name (`--file`, `-f`). */
export const answersTo = (spec: FlagSyntax, name: string): boolean =>
  name === longFlagOf(spec) || (spec.short !== undefined && name === `-${spec.short}`);

/** The property commander stores a flag under: `--login-id <x>` → loginId, `--no-notify` → notify. */
export function attributeName(spec: FlagSyntax): string {
  return camelCase(spec.long);
}

/** `login-id` → `loginId`, as commander names an attribute. */
function camelCase(kebab: string): string {
  return kebab
    .split('-')
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
}

/**
 * The option as every surface reads it; compiled once per declaration. A declaration that contradicts itself throws.
 */
export function compileOption(spec: OptionSpec): CompiledOption {
  const known = compiled.get(spec);
  if (known) return known;
  const long = longFlagOf(spec);
  const valueOptional = spec.valueOptional === true;
  const valued = takesValue(spec);
  const kind: OptionKind = valued ? (spec.repeatable ? 'list' : 'value') : spec.negated ? 'negated' : 'switch';
  const wrong = (why: string) => new Error(`option "${syntaxOf(spec)}": ${why}`);
  if (spec.repeatable && !valued) throw wrong('is repeatable but takes no value');
  if (spec.type !== undefined && kind !== 'value') throw wrong(`is a ${kind}, which cannot be a ${spec.type}`);
  if (spec.type !== undefined && spec.choices) throw wrong(`has choices, so it is not a ${spec.type}`);
  if ((spec.min !== undefined || spec.max !== undefined || spec.unit !== undefined) && spec.type === undefined)
    throw wrong('has a range or unit but no number type');
  const fieldType = spec.field?.type;
  if (spec.type !== undefined && fieldType !== undefined && fieldType !== spec.type)
    throw wrong(`is a ${spec.type}, but its field ${spec.field!.name} is a ${fieldType}`);
  const type: ValueType = !valued ? 'boolean' : (spec.type ?? (spec.choices ? 'enum' : 'string'));
  const option: CompiledOption = {
    spec,
    attribute: attributeName(spec),
    long,
    kind,
    valueOptional,
    type,
    min: spec.min,
    max: spec.max,
  };
  if (kind === 'negated') option.default = true;
  else if (spec.default !== undefined) {
    try {
      option.default = coerceValue(option, spec.default) ?? undefined;
    } catch (error) {
      throw wrong(`its default is refused: ${(error as Error).message}`);
    }
  }
  compiled.set(spec, option);
  return option;
}

/** Every option of a verb, compiled. */
export const compileOptions = (specs: readonly OptionSpec[] | undefined): CompiledOption[] =>
  (specs ?? []).map(compileOption);

/** What a number option takes, in words: `a whole number of seconds from 1 to 3600`. */
function describeNumber(option: Pick<CompiledOption, 'type' | 'min' | 'max'> & { unit?: string }): string {
  const { min, max, unit } = option;
  if (option.type === 'size') {
    const range =
      min !== undefined && max !== undefined
        ? ` from ${formatBytes(min)} to ${formatBytes(max)}`
        : min !== undefined
          ? ` of at least ${formatBytes(min)}`
          : max !== undefined
            ? ` of at most ${formatBytes(max)}`
            : '';
    return `a size${range}, such as 1048576, 512k or 100m`;
  }
  const what = `${option.type === 'integer' ? 'a whole number' : 'a number'}${unit ? ` of ${unit}` : ''}`;
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  if (min !== undefined) return unit ? `${what} (${min} or more)` : `${what} of at least ${min}`;
  if (max !== undefined) return unit ? `${what} (${max} or less)` : `${what} of at most ${max}`;
  return what;
}

const INTEGER = /^[-+]?\d+$/;
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
/** Bytes, or a binary multiple of them: `1048576`, `512k`, `1.5m`, `100MiB`. */
const SIZE = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i;
const MULTIPLE: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The number a value of a number type says, or NaN. */
function numberOf(type: NumberType | 'size', text: string): number {
  if (type === 'size') {
    const m = SIZE.exec(text);
    return m ? Math.floor(Number(m[1]) * MULTIPLE[(m[2] ?? 'b')[0].toLowerCase()]) : NaN;
  }
  const n = Number(text);
  return (type === 'integer' ? INTEGER.test(text) && Number.isSafeInteger(n) : DECIMAL.test(text) && Number.isFinite(n))
    ? n
    : NaN;
}

/**
 * A value of the option (as a command line gives it, or as a tool's input or a file does) as the
 * verb receives it: a number option's value as a number, checked against its range, or null for
 * the "" of a flag that clears its field. Anything else is passed as it is: commander and the
 * surfaces' schemas check text and choices.
 */
export function coerceValue<T>(option: CompiledOption, value: T): T | number | null {
  if (option.type !== 'integer' && option.type !== 'number' && option.type !== 'size') return value;
  if (value === '' && option.spec.field?.clears) return null;
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  const n = text === undefined ? NaN : numberOf(option.type, text);
  if (Number.isNaN(n) || n < (option.min ?? -Infinity) || n > (option.max ?? Infinity)) {
    const said = text !== undefined ? `"${String(value)}"` : (JSON.stringify(value)?.slice(0, 80) ?? String(value));
    throw new UsageError(
      `${option.long} must be ${describeNumber({ ...option, unit: option.spec.unit })}, not ${said}`,
    );
  }
  return n;
}

// A plain command line read from the command model itself, without building commander's program:
// `lms [globals] NOUN VERB [ARGS] [--flag value]…`, nearly every line a script, a CI job or a
// person types. Building the program (a Command for the root, the noun and the verb, an Option for
// each of the 20 global flags and each of the verb's) and parsing the line with it was a millisecond
// of every command. What this reads is exactly what commander would hand the verb (a test holds the
// two equal over every example of every verb, and variations of them); anything it does not read
// plainly (help, a typo, a flag twice, a value that looks like a flag, a value refused, a list of
// arguments) goes to commander, which says what it always says.
import { argumentsOf, flagNames, flagsOf, verbNamed, type CommandSpec, type NounSpec } from './command.js';
import { GLOBAL_FLAGS, type GlobalFlag } from './global-flags.js';
import { answersTo, coerceValue, compileOption, type CompiledOption, type OptionSpec } from './options.js';

/** What commander would hand the verb's action for this line. */
export interface DirectLine {
  spec: CommandSpec<never>;
  args: (string | undefined)[];
  /** The verb's own options, as `command.opts()` gives them. */
  options: Record<string, unknown>;
  /** Every level's options, as `command.optsWithGlobals()` gives them (the program's win a clash). */
  globals: Record<string, unknown>;
  /** Whether --timeout was on the line, not defaulted. */
  timeoutGiven: boolean;
}

/**
 * The words that always go to commander, wherever they stand: help, the version, the end of
 * options. Even as a value (`--name help`): such a line is only read the slower way.
 */
const COMMANDER_WORDS = new Set(['-h', '--help', 'help', '-V', '--version', '--']);

/** A flag as the line gives it: whether it takes a value, and what commander makes of one. */
interface Flag {
  attribute: string;
  takesValue: boolean;
  negated: boolean;
  /** The value as commander's parser for the flag leaves it; undefined when commander would refuse it. */
  read(value: string): unknown;
}

/**
 * The line's reading, or undefined when commander should read it. `noun` is the noun the line
 * names (already loaded), at `at` in argv.
 */
export function readDirect(argv: readonly string[], noun: NounSpec, at: number): DirectLine | undefined {
  if (argv.some((word) => COMMANDER_WORDS.has(word))) return undefined;
  const spec = verbNamed(noun, argv[at + 1]);
  if (!spec) return undefined;
  const verbSpecs = flagsOf(spec);
  const globalFlagNamed = flagFinder(GLOBAL_FLAGS, globalFlag);
  const verbFlagNamed = flagFinder(verbSpecs, verbFlag);
  const program = defaults(GLOBAL_FLAGS, true);
  const options = defaults(verbSpecs, false);
  const operands: string[] = [];
  const seen = new Set<string>();
  let timeoutGiven = false;
  for (let i = 0; i < argv.length; i++) {
    if (i === at || i === at + 1) continue;
    const word = argv[i];
    if (!(word.length > 1 && word.startsWith('-'))) {
      // Before the noun only global flags stand (and their values, taken below).
      if (i < at) return undefined;
      operands.push(word);
      continue;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const global = globalFlagNamed(name);
    // The program reads its flags wherever they stand, before the verb sees any (commander's
    // parseOptions); a verb's flag before the noun, or one given twice, is commander's to read.
    const flag = global ?? (i < at ? undefined : verbFlagNamed(name));
    // Keyed by attribute across both levels: a global and a verb flag of one name (`--no-input`,
    // `api --input`) given together are commander's to sort out, as is any flag given twice.
    if (!flag || seen.has(flag.attribute)) return undefined;
    seen.add(flag.attribute);
    const target = flag === global ? program : options;
    if (!flag.takesValue) {
      if (eq > 0) return undefined;
      target[flag.attribute] = !flag.negated;
      continue;
    }
    let raw: string;
    if (eq > 0) raw = word.slice(eq + 1);
    else {
      const next = argv[i + 1];
      // A value that could be read as a flag, or one that runs into the noun: commander's to read.
      if (next === undefined || next.startsWith('-') || i + 1 === at) return undefined;
      raw = next;
      i++;
    }
    const value = flag.read(raw);
    if (value === undefined) return undefined;
    target[flag.attribute] = value;
    if (flag === global && flag.attribute === 'timeout') timeoutGiven = true;
  }
  const args = argumentsOf(spec);
  if (args.some((a) => a.variadic) || operands.length > args.length || args.some((a, i) => a.required && operands[i] === undefined)) return undefined;
  for (const [name, choices] of Object.entries(spec.argChoices ?? {})) {
    const index = args.findIndex((a) => a.name === name);
    if (operands[index] !== undefined && !choices.includes(operands[index])) return undefined;
  }
  return { spec, args: args.map((_, i) => operands[i]), options, globals: { ...options, ...program }, timeoutGiven };
}

/**
 * The values commander sets as it adds the flags, in order: a declared default (a global flag's as
 * its type, as globalOption gives it; a verb's as declared, as commanderOption does), and true for
 * a `--no-` flag added before any flag it negates. Only those flags are compiled.
 */
function defaults(specs: readonly OptionSpec[], typed: boolean): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  specs.forEach((spec, i) => {
    const negated = flagNames(spec)[0].startsWith('--no-');
    if (spec.default === undefined && !negated) return;
    const { attribute, long, default: typedDefault } = compileOption(spec);
    const declared = typed && spec.default !== undefined ? typedDefault : spec.default;
    if (!negated) values[attribute] = declared;
    else if (!specs.slice(0, i).some((earlier) => answersTo(earlier, `--${long.slice('--no-'.length)}`))) values[attribute] = declared === undefined ? true : declared;
  });
  return values;
}

/** A level's flag by any name it answers to (the first declared, as commander finds it), made when the line gives it. */
function flagFinder(specs: readonly OptionSpec[], make: (spec: OptionSpec) => Flag): (name: string) => Flag | undefined {
  return (name) => {
    const spec = specs.find((candidate) => answersTo(candidate, name));
    return spec && make(spec);
  };
}


/** A global flag, its value read as globalOption has commander read it (the last parser set wins). */
function globalFlag(spec: GlobalFlag): Flag {
  const compiled = compileOption(spec);
  const read = (value: string): unknown => {
    if (spec.nonEmpty) return value.trim() === '' ? undefined : value;
    if (spec.type) {
      try {
        return coerceValue(compiled, value);
      } catch {
        return undefined;
      }
    }
    return spec.choices && !spec.choices.includes(value) ? undefined : value;
  };
  return flagOf(compiled, read);
}

/** A verb's flag, its value read as commanderOption has commander read it; an optional value is commander's to read. */
function verbFlag(spec: OptionSpec): Flag {
  const compiled = compileOption(spec);
  const unreadable = compiled.valueOptional || (spec.repeatable && spec.default !== undefined);
  const read = (value: string): unknown => {
    if (unreadable || (spec.choices && !spec.choices.includes(value))) return undefined;
    return spec.repeatable ? [value] : value;
  };
  return flagOf(compiled, read);
}

function flagOf(compiled: CompiledOption, read: Flag['read']): Flag {
  return { attribute: compiled.attribute, takesValue: compiled.kind === 'value' || compiled.kind === 'list', negated: compiled.kind === 'negated', read };
}

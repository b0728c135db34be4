// A command is data plus a plain function: `{ name, options, routes, columns, run }`, declared with
// `command()` from define.ts, which types its options from their declaration. `run` receives its
// arguments, options and a Context, and returns data; the output layer renders it.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { LmsError } from '../errors.js';
import type { RouteId } from '../spec/routes.js';
import type { Context } from './context.js';

/** One flag as `register` adds it to commander (commands declare flags as a record; see define.ts). */
export interface OptionSpec {
  /** Commander syntax: `--account <id>`, `-y, --yes`, `--no-publish`. */
  flags: string;
  description: string;
  required?: boolean;
  default?: string | boolean;
  choices?: readonly string[];
  /** Repeatable (`-f a=1 -f b=2`); with `choices`, each value must be one of them. */
  repeatable?: boolean;
}

/** What a command hands to the output layer; `failure` is raised after the output is written. */
export type CommandResult =
  | undefined
  | {
      kind: 'list';
      items: AsyncIterable<unknown> | Iterable<unknown>;
      columns?: string[];
      paged?: boolean;
      /** A list that never ends (`--watch`) streams: NDJSON where JSON would have been the default. */
      endless?: boolean;
      failure?: LmsError;
    }
  | { kind: 'item'; value: unknown; columns?: string[]; failure?: LmsError }
  | { kind: 'text'; text: string; failure?: LmsError }
  | { kind: 'none'; failure: LmsError };

export interface CommandSpec<O = Record<string, unknown>> {
  /** Name and positional arguments in commander syntax: `get <id>`, `upload <file>`. */
  name: string;
  summary: string;
  aliases?: string[];
  /** Built by `command()` from the command's options record, whose keys type `opts`. */
  options?: OptionSpec[];
  /** The API routes this command calls; the coverage test reads them. */
  routes?: RouteId[];
  /** Default columns of a list in table and CSV output (a single record shows all its fields). */
  columns?: string[];
  /**
   * The values a positional argument may take, by argument name: commander refuses others, and
   * completions offer them. (An argument named `profile` completes to the saved profile names.)
   */
  argChoices?: Record<string, readonly string[]>;
  /** Example invocations shown in help. */
  examples?: string[];
  /** Runs when the parent noun is given no known verb (`lms api GET /x`). */
  isDefault?: boolean;
  run(input: { args: string[]; opts: O; ctx: Context }): Promise<CommandResult>;
}

export interface NounSpec {
  name: string;
  summary: string;
  aliases?: string[];
  commands: (CommandSpec<never> | NounSpec)[];
}

/** The verbs (and nested nouns) under a noun. */
export type Verbs = (CommandSpec<never> | NounSpec)[];

export function defineNoun(spec: NounSpec): NounSpec {
  return spec;
}

export const list = (items: AsyncIterable<unknown> | Iterable<unknown>, columns?: string[]): CommandResult => ({ kind: 'list', items, columns, paged: true });
export const item = (value: unknown, columns?: string[]): CommandResult => ({ kind: 'item', value, columns });
export const text = (value: string): CommandResult => ({ kind: 'text', text: value });
/** Output first, then fail (a bulk job prints its results, then exits 1 for its failed rows). */
export const withFailure = (result: CommandResult, failure: LmsError): CommandResult => (result ? { ...result, failure } : { kind: 'none', failure });

function isNoun(spec: CommandSpec<never> | NounSpec): spec is NounSpec {
  return 'commands' in spec;
}

/** The routes a command tree declares, for the coverage test. */
export function declaredRoutes(specs: (CommandSpec<never> | NounSpec)[]): Set<RouteId> {
  const found = new Set<RouteId>();
  for (const spec of specs) {
    if (isNoun(spec)) for (const r of declaredRoutes(spec.commands)) found.add(r);
    else for (const r of spec.routes ?? []) found.add(r);
  }
  return found;
}

export type Runner = (spec: CommandSpec<never>, args: string[], opts: Record<string, unknown>, globals: Record<string, unknown>) => Promise<void>;

export function register(parent: Command, spec: CommandSpec<never> | NounSpec, runner: Runner): void {
  if (isNoun(spec)) {
    const noun = parent.command(spec.name).description(spec.summary);
    for (const alias of spec.aliases ?? []) noun.alias(alias);
    for (const child of spec.commands) register(noun, child, runner);
    // `lms grade --help` is asked by someone about to type `lms grade …`, which runs the default
    // verb: its options and examples belong on the noun's help too, not one command away.
    const fallback = spec.commands.find((c): c is CommandSpec<never> => !isNoun(c) && c.isDefault === true);
    if (fallback) {
      const verb = noun.commands.find((c) => c.name() === fallback.name.split(' ')[0])!;
      noun.addHelpText('after', () => `\nWithout a command, \`lms ${spec.name}\` runs \`lms ${spec.name} ${verb.name()}\`:\n\n${verb.helpInformation()}${examplesText(fallback)}`);
    }
    return;
  }
  const cmd = parent.command(spec.name, { isDefault: spec.isDefault }).description(spec.summary);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  for (const [name, choices] of Object.entries(spec.argChoices ?? {})) {
    const argument = cmd.registeredArguments.find((a) => a.name() === name);
    if (!argument) throw new Error(`${spec.name}: no argument named ${name}`);
    argument.choices(choices);
  }
  for (const o of spec.options ?? []) {
    const option = new Option(o.flags, o.description);
    if (o.required) option.makeOptionMandatory();
    if (o.default !== undefined) option.default(o.default);
    if (o.choices) option.choices(o.choices);
    if (o.repeatable) {
      // Replaces the parser .choices() installed, so the choices are checked here, value by value.
      const choices = o.choices;
      option.argParser((value: string, previous: string[] | undefined) => {
        if (choices && !choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
        return [...(previous ?? []), value];
      });
    }
    cmd.addOption(option);
  }
  if (spec.examples?.length) cmd.addHelpText('after', examplesText(spec));
  cmd.action(async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const args = command.processedArgs.map((a) => a as string);
    // A command sees only its own options; globals reach it through the context, so a global and
    // a command option of the same name (`--no-input`, `api --input`) never mix.
    await runner(spec, args, command.opts(), command.optsWithGlobals());
  });
}

function examplesText(spec: CommandSpec<never>): string {
  return spec.examples?.length ? `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n` : '';
}

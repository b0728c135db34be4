// The command line as commander reads it: the program's global options and each noun's and verb's
// command, from the same declarations the command model holds (command.ts, global-flags.ts).
import { Command as CommanderCommand, InvalidArgumentError, Option, type HelpContext } from 'commander';
import {
  defaultVerb,
  dryRunOf,
  flagsOf,
  isNoun,
  usageOf,
  wordOf,
  type CommandSpec,
  type NounSpec,
  type Runner,
} from '../model/command.js';
import { UsageError } from '../errors.js';
import type { GlobalFlag } from '../model/global-flags.js';
import { coerceValue, compileOption, syntaxOf, type OptionSpec } from '../model/options.js';

/**
 * Commander's command, but for one answer: commander prints help "as an error" (on stderr, exit 1,
 * which handleError reads as 0) only when a noun, or the program, is given no verb. That help was
 * asked for all the same, as gh has it: `lms users` prints the noun's help on stdout and exits 0.
 */
export class Command extends CommanderCommand {
  override createCommand(name?: string): Command {
    return new Command(name);
  }

  override help(context?: HelpContext): never;
  /** @deprecated commander's old form, kept for its type. */
  override help(cb: (str: string) => string): never;
  override help(context?: HelpContext | ((str: string) => string)): never {
    if (typeof context === 'function') return super.help(context);
    return super.help(context?.error ? undefined : context);
  }
}

/**
 * Adds a verb or noun to commander. With `words` (the run's arguments), a noun's verbs and nested
 * nouns that no word names, other than its default verb, are outlined instead: no run of these
 * arguments can reach them, and outlined they still list in the noun's help and in commander's
 * "did you mean", as in full.
 */
export function register(
  parent: Command,
  spec: CommandSpec<never> | NounSpec,
  runner: Runner,
  words?: ReadonlySet<string>,
): void {
  if (isNoun(spec)) {
    const noun = parent.command(spec.name).description(spec.summary);
    for (const alias of spec.aliases ?? []) noun.alias(alias);
    for (const child of spec.commands) registerChild(noun, child, runner, words);
    // `lms grade --help` is asked by someone about to type `lms grade …`, which runs the default
    // verb: its options and examples belong on the noun's help too, not one command away.
    const fallback = defaultVerb(spec);
    if (fallback) {
      const verb = noun.commands.find((c) => c.name() === fallback.name)!;
      noun.addHelpText(
        'after',
        () =>
          `\nWithout a command, \`lms ${spec.name}\` runs \`lms ${spec.name} ${verb.name()}\`:\n\n` +
          `${verb.helpInformation()}${examplesText(fallback)}`,
      );
    }
    return;
  }
  const cmd = parent.command(usageOf(spec), { isDefault: spec.isDefault }).description(spec.summary);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  for (const [name, choices] of Object.entries(spec.argChoices ?? {})) {
    const argument = cmd.registeredArguments.find((a) => a.name() === name);
    if (!argument) throw new Error(`${spec.name}: no argument named ${name}`);
    argument.choices(choices);
  }
  for (const o of flagsOf(spec)) cmd.addOption(commanderOption(o));
  const dryRun = dryRunOf(spec);
  if (spec.examples?.length) cmd.addHelpText('after', examplesText(spec));
  cmd.action(async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    // A command sees only its own options; globals reach it through the context, so a global and
    // a command option of the same name (`--no-input`, `api --input`) never mix. Required options
    // are checked by invoke rather than by commander (makeOptionMandatory), which checks before it
    // looks for unknown options: `--nmae x` is reported as the typo it is, not as a missing --name.
    const options = command.opts();
    await runner(
      spec,
      { args: command.processedArgs.map((a) => a as string), options },
      dryRun && options.dryRun === true ? dryRun : undefined,
      command.optsWithGlobals(),
    );
  });
}

/** A verb or nested noun under `parent`: in full when the run can reach it (see register), else outlined. */
export function registerChild(
  parent: Command,
  spec: CommandSpec<never> | NounSpec,
  runner: Runner,
  words: ReadonlySet<string> | undefined,
): void {
  const reached =
    !words ||
    words.has(wordOf(spec)) ||
    (spec.aliases ?? []).some((a) => words.has(a)) ||
    (!isNoun(spec) && spec.isDefault);
  if (reached) register(parent, spec, runner, words);
  else outline(parent, spec);
}

/**
 * A verb or noun as its parent's help lists it: name, aliases, arguments, summary, and `[options]`
 * when it has any, which one of them says as well as all.
 */
function outline(parent: Command, spec: CommandSpec<never> | NounSpec): void {
  const cmd = parent.command(isNoun(spec) ? spec.name : usageOf(spec)).description(spec.summary);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  const option = isNoun(spec) ? undefined : (spec.options?.[0] ?? flagsOf(spec)[0]);
  if (option) cmd.addOption(commanderOption(option));
}

/** A verb's flag as commander parses it and its help shows it. */
export function commanderOption(o: OptionSpec): Option {
  const option = new Option(syntaxOf(o), o.description);
  if (o.default !== undefined) option.default(o.default);
  if (o.choices) option.choices(o.choices);
  if (o.repeatable) {
    // Replaces the parser .choices() installed, so the choices are checked here, value by value.
    const choices = o.choices;
    option.argParser((value: string, previous: string[] | undefined) => {
      if (choices && !choices.includes(value))
        throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
      return [...(previous ?? []), value];
    });
  }
  return option;
}

function examplesText(spec: CommandSpec<never>): string {
  return spec.examples?.length ? `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n` : '';
}

/**
 * A value that may not be empty (`--as-user ""` would send as_user_id= and act as nobody). A usage
 * error of its own, as a number's is (see globalOption), not an InvalidArgumentError after
 * commander's "option '--as-user <id>' argument '' is invalid.".
 */
const nonEmpty = (name: string) => (value: string) => {
  if (value.trim() === '') throw new UsageError(`${name} needs a value`);
  return value;
};

/**
 * A global flag as commander parses it. A number is checked as a verb's number option is, and its
 * usage error thrown as it is, not as commander's InvalidArgumentError, which would prefix "option
 * '--limit <n>' argument '0' is invalid." to it: the message is the one every number flag gives.
 */
export function globalOption(flag: GlobalFlag): Option {
  const option = new Option(syntaxOf(flag), flag.description);
  // Compiled only for a value or a default: every run registers every global flag, and gives few.
  if (flag.choices) option.choices(flag.choices);
  if (flag.type) option.argParser((value: string) => coerceValue(compileOption(flag), value));
  if (flag.nonEmpty) option.argParser(nonEmpty(option.long!));
  // The default as the type the flag takes (a number), as a parsed value would be.
  if (flag.default !== undefined) option.default(compileOption(flag).default);
  return option;
}

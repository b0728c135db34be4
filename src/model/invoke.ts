// One way to run a verb, whichever surface asks: a command line (commander's action), a course file
// (`lms apply`) or a tool call (`lms mcp`) hands over the verb's arguments and options as values, and
// they are checked here against the verb's compiled model — its arguments and their choices, its
// options, which are required, their choices, their numbers — with one message for one mistake, in
// the words the command line has always used, then run (under a dry run when asked).
import { closest } from '../closest.js';
import { UsageError } from '../errors.js';
import { err } from '../io/streams.js';
import {
  argumentsOf,
  declares,
  destroyingOptions,
  type CommandResult,
  type CommandSpec,
  type DryRun,
  type Invocation,
} from './command.js';
import type { Context } from './context.js';
import { coerceValue, compileOptions, syntaxOf, type OptionSpec } from './options.js';

export type { DryRun, Invocation } from './command.js';

/** An invocation checked against the verb's model: what its `run` receives, typed as it declares. */
export interface Checked<O> {
  spec: CommandSpec<O>;
  args: string[];
  opts: O;
  /** How the run is a dry run, when it is one. */
  dryRun?: DryRun;
  /** The options given that destroy (none in a dry run), for a surface that asks before them. */
  destroying: ReturnType<typeof destroyingOptions>;
}

/** Checks, coerces and runs: the one call behind every surface. */
export async function invoke<O>(
  spec: CommandSpec<O>,
  given: Invocation,
  ctx: Context,
  how: { dryRun?: DryRun } = {},
): Promise<CommandResult> {
  return run(check(spec, given, how), ctx);
}

/**
 * The invocation as the verb receives it, or the usage error of its first mistake: a missing or
 * refused argument, an option the verb does not have, a required one missing, a value not among its
 * choices, a number that is not one or out of range. `dryRun` makes it the dry run's invocation: a
 * verb with a --dry-run of its own plans under it, one with a --plan plans under that.
 */
export function check<O>(spec: CommandSpec<O>, given: Invocation, how: { dryRun?: DryRun } = {}): Checked<O> {
  const options: Record<string, unknown> = { ...given.options };
  const own = (flag: string) => declares(spec, flag);
  if (how.dryRun) {
    // Whoever asked for the dry run (--dry-run, a tool's dry_run), the verb's own flag says it.
    if (own('--dry-run')) options.dryRun = true;
    else delete options.dryRun;
    if (how.dryRun === 'plans' && !own('--dry-run')) options.plan = true;
  }
  checkArgs(spec, given.args);
  checkOptions<O>(spec.options, options);
  const destroying = how.dryRun || options.dryRun === true ? [] : destroyingOptions(spec, options);
  return { spec, args: given.args, opts: options, dryRun: how.dryRun, destroying };
}

/** Runs a checked invocation, under a dry run of its context when it is one. */
export async function run<O>(checked: Checked<O>, ctx: Context): Promise<CommandResult> {
  const { spec, args, opts, dryRun: how } = checked;
  if (!how) return spec.run({ args, opts, ctx });
  // The reads it needs are sent, and its first write is kept rather than sent, then shown as its output.
  const dryRun = await ctx.startDryRun();
  let result: CommandResult;
  try {
    result = await spec.run({ args, opts, ctx });
    // A list read lazily may write while it is read: read it here, where a stop is expected.
    if (!dryRun.stopped && result?.kind === 'list' && !result.endless)
      result = { ...result, items: await collect(result.items) };
  } catch (error) {
    // The stop itself, or whatever the command made of it: the write it reached is the answer.
    if (!dryRun.stopped) throw error;
    result = undefined;
  }
  if (dryRun.stopped)
    return (await import('./dry-run.js')).previewResult(ctx, dryRun.stopped, spec.routes ?? [], dryRun.checked);
  if (how === 'stops') err(ctx.io, 'Dry run: the command needed no write; nothing was sent.\n');
  return result;
}

/** A value refused by its choices, in commander's words, with the nearest choice as a hint. */
function notAChoice(message: string, value: string, choices: readonly string[]): UsageError {
  const near = closest(value, choices);
  return new UsageError(`${message}. Allowed choices are ${choices.join(', ')}.`, {
    hint: near ? `did you mean ${near}?` : undefined,
    details: { code: 'commander.invalidArgument' },
  });
}

function checkArgs(spec: Pick<CommandSpec<unknown>, 'args' | 'argChoices'>, args: readonly unknown[]): void {
  argumentsOf(spec).forEach((arg, i) => {
    const value = args[i];
    if (arg.required && (value === undefined || (arg.variadic && Array.isArray(value) && value.length === 0))) {
      throw new UsageError(`missing required argument '${arg.name}'`, {
        details: { code: 'commander.missingArgument' },
      });
    }
    const choices = spec.argChoices?.[arg.name];
    for (const one of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      if (choices && !choices.includes(String(one)))
        throw notAChoice(
          `command-argument value '${String(one)}' is invalid for argument '${arg.name}'`,
          String(one),
          choices,
        );
    }
  });
}

/**
 * The options as the verb declares them: each known, the required given, each value among its
 * choices, numbers as numbers. Narrows the record to the verb's options type, which `command()`
 * derived from these same declarations.
 */
function checkOptions<O>(
  specs: readonly OptionSpec[] | undefined,
  options: Record<string, unknown>,
): asserts options is Record<string, unknown> & O {
  const compiled = compileOptions(specs);
  const known = new Map(compiled.map((o) => [o.attribute, o]));
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || known.has(key)) continue;
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const near = closest(
      flag,
      compiled.map((o) => o.long),
    );
    throw new UsageError(`unknown option '${flag}'`, {
      hint: near ? `did you mean ${near}?` : undefined,
      details: { code: 'commander.unknownOption' },
    });
  }
  for (const option of compiled) {
    const value = options[option.attribute];
    if (value === undefined) {
      if (option.spec.required)
        throw new UsageError(`required option '${syntaxOf(option.spec)}' not specified`, {
          details: { code: 'commander.missingMandatoryOptionValue' },
        });
      if (option.default !== undefined) options[option.attribute] = option.default;
      continue;
    }
    const choices = option.spec.choices;
    if (choices && !(value === true && option.valueOptional)) {
      for (const one of Array.isArray(value) ? value : [value]) {
        if (!choices.includes(String(one)))
          throw notAChoice(
            `option '${syntaxOf(option.spec)}' argument '${String(one)}' is invalid`,
            String(one),
            choices,
          );
      }
    }
    options[option.attribute] = coerceValue(option, value);
  }
}

async function collect(items: AsyncIterable<unknown> | Iterable<unknown>): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const one of items) all.push(one);
  return all;
}

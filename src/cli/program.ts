// The command line: commander's tree (commander-tree.ts) built from the command model, and the runner
// that gives a command its context and renders what it returns.
import type { Command } from 'commander';
import { commandModel, lazyNouns, topLevelCommands, topLevelNames } from '../commands/index.js';
import { closest } from '../closest.js';
import { UsageError } from '../errors.js';
import type { AuditScope } from '../audit/trail.js';
import type { IOStreams } from '../io/streams.js';
import { FORMATS, JQ_FORMATS, type Format } from '../output/formats.js';
import { flagNames, isNoun, loadNoun, verbNamed, type NounSpec, type Runner } from '../model/command.js';
import { syntaxOf, takesValue } from '../model/options.js';
import { check, run } from '../model/invoke.js';
import { createContext, type Deps, type GlobalOptions } from '../model/context.js';
import { GLOBAL_FLAGS, HELP_FLAG, PROGRAM_DESCRIPTION, VERSION_FLAG } from '../model/global-flags.js';
import { renderResult } from './render-result.js';
import type { Activity } from '../io/activity.js';

/** Every command as data, for what describes the command line without building it (completions). */
export { commandModel };

export interface ProgramState {
  /** Errors are written as one JSON object when -o json (or LMS_OUTPUT=json) is in force. */
  jsonErrors: boolean;
  /** The running command's spinner, cleared before an interrupted run exits. */
  activity?: Activity;
  /** A command that ends on Ctrl-C (a server): called on the first one instead of exiting 130. */
  stop?: () => void;
}

/**
 * Whether errors should be JSON, from the raw arguments and environment: parse errors happen before
 * commander knows the options, and they must follow `-o json` too. The last -o wins, as in commander.
 */
export function jsonErrorsRequested(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  let format: string | undefined = env.LMS_OUTPUT || undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') break;
    let value: string | undefined;
    if (word === '-o' || word === '--output') value = argv[++i];
    else if (word.startsWith('--output=')) value = word.slice('--output='.length);
    else if (word.startsWith('-o') && !word.startsWith('--')) value = word.slice(2);
    // A format that is no format (the error about it) leaves the choice to the environment.
    if (value !== undefined && FORMATS.includes(value as Format)) format = value;
  }
  return format === 'json';
}

/**
 * The command tree for one run. Only the noun that `argv` names is loaded and registered in full;
 * the others appear by name and summary, which is all `lms --help` shows. Without `argv` (or when
 * it names no noun) every noun is loaded.
 */
export async function buildProgram(
  deps: Deps,
  state: ProgramState,
  argv?: string[],
  runnerOf: RunnerOf = runnerFor,
): Promise<Command> {
  const { io } = deps;
  const { Command, globalOption, register, registerChild } = await import('./commander-tree.js');
  const program = new Command('lms')
    .description(PROGRAM_DESCRIPTION)
    .version(__LMS_VERSION__, syntaxOf(VERSION_FLAG), VERSION_FLAG.description)
    .helpOption(syntaxOf(HELP_FLAG), HELP_FLAG.description)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // Parse errors are thrown (exitOverride) and printed by handleError, as text or as JSON.
      outputError: () => undefined,
    });
  for (const flag of GLOBAL_FLAGS) program.addOption(globalOption(flag));

  const facts: LineFacts = { timeoutGiven: false };
  program.hook('preAction', (_this, action) => {
    const o = action.optsWithGlobals();
    state.jsonErrors = (o.output ?? deps.env.LMS_OUTPUT) === 'json';
    facts.timeoutGiven = action.getOptionValueSourceWithGlobals('timeout') === 'cli';
    facts.audit = cliScope(action);
  });
  const runner = runnerOf(deps, state, facts);

  const found = argv && nounNamed(argv);
  const named = found?.noun;
  // A verb is reached by its word or alias among the arguments; the others are outlined (see register).
  const words = argv && new Set(argv);
  for (const noun of lazyNouns) {
    if (argv === undefined || named === undefined || named === noun)
      register(program, reachedBy(await loadNoun(noun), found ? argv[found.at + 1] : undefined), runner, words);
    else if (named === null) program.command(noun.name).description(noun.summary);
  }
  // No run that names a noun reaches a top-level command, nor lists one.
  if (!named) for (const command of topLevelCommands()) registerChild(program, command, runner, words);
  // A top-level command's help that is made when asked for (`lms mcp --help` lists its toolsets' tools).
  if (argv && !named && argv.some((a) => a === '--help' || a === '-h'))
    for (const spec of topLevelCommands())
      if (spec.helpAfter && argv.includes(spec.name)) {
        const text = await spec.helpAfter();
        program.commands.find((c) => c.name() === spec.name)?.addHelpText('after', text);
      }
  return program;
}

/** What the runner reads of the line besides the verb's options. */
/** Makes the runner of a line: runnerFor, or a test's, which sees what the line hands the verb. */
export type RunnerOf = (deps: Deps, state: ProgramState, facts: LineFacts) => Runner;

interface LineFacts {
  /**
   * --timeout was given, not defaulted: a wait that is not one request's (a login's, for a person at a browser) has a
   * default of its own.
   */
  timeoutGiven: boolean;
  /** The verb the audit log names for this run's writes. */
  audit?: AuditScope;
}

/** Runs a verb as the line gives it: checked, in its context, its result rendered. */
function runnerFor(deps: Deps, state: ProgramState, facts: LineFacts): Runner {
  const { io } = deps;
  return async (spec, given, dryRun, globalOpts) => {
    const { timeoutGiven, audit } = facts;
    const checked = check(spec, given, { dryRun });
    const globals = { ...readGlobals(globalOpts, deps.env), timeoutGiven };
    // Compiled before the command runs, so a mistake in the expression is reported before any request.
    const jq =
      typeof globalOpts.jq === 'string'
        ? await (await import('../output/jq.js')).compileJq(globalOpts.jq, deps.env)
        : undefined;
    const claimInterrupt = (stop: () => void) => (state.stop = stop);
    const ctx = createContext(
      { audit, ...deps, io: withColor(io, io.color && globals.color), claimInterrupt },
      globals,
    );
    state.activity = ctx.activity;
    try {
      // A flag value that destroys is asked about here, once for every verb; a dry run destroys nothing,
      // and a verb that asks itself (naming what it would end) is not asked for twice.
      for (const d of checked.destroying.filter((d) => !d.option.asksItself))
        await ctx.confirm(`${d.said} destroys data`);
      const result = await run(checked, ctx);
      if (!result) return;
      await renderResult(result, {
        io: ctx.io,
        globals,
        outputFlagGiven: globalOpts.output !== undefined,
        jq,
        columns: spec.columns,
        pageLimit: ctx.pageLimit(),
      });
      if (result.failure) throw result.failure;
    } catch (error) {
      // A 404 says what was missing, a refusal what the caller may ask instead (explain-failure.ts).
      throw await (await import('./explain-failure.js')).explainFailure(error, spec, checked.args, checked.opts, () =>
        ctx.client(),
      );
    } finally {
      ctx.activity.stop();
      jq?.close();
    }
  };
}

/** The verbs people reach for from other tools, and the ones lms names them by. */
const VERB_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  remove: ['delete', 'unlink'],
  rm: ['delete', 'remove'],
  del: ['delete', 'remove'],
  destroy: ['delete', 'remove'],
  create: ['add', 'new'],
  new: ['create', 'add'],
  add: ['create'],
  ls: ['list'],
  show: ['get'],
  get: ['show'],
  view: ['get', 'show'],
  edit: ['update'],
  set: ['update'],
  modify: ['update'],
};

/**
 * For a verb the noun does not have, the one it has by another name (`users remove`: delete;
 * `enrollments create`: add), which commander's spelling suggestion does not find.
 */
export async function synonymOf(argv: string[]): Promise<string | undefined> {
  const named = nounNamed(argv);
  const word = named?.noun && argv[named.at + 1];
  if (!named?.noun || !word) return undefined;
  const noun = await loadNoun(named.noun);
  const found = (VERB_SYNONYMS[word.toLowerCase()] ?? []).find((verb) => verbNamed(noun, verb));
  return found && `lms ${noun.name} ${found}`;
}

/**
 * The noun an argument list invokes, and where: the first word that is not a global option or its
 * value. null when there is none (`lms --help`) or it is a top-level command; the noun is undefined
 * when the word is neither (so everything loads and commander can suggest the right one).
 */
function nounNamed(argv: string[]): { noun: (typeof lazyNouns)[number] | undefined; at: number } | null {
  const valued = new Set(GLOBAL_FLAGS.filter(takesValue).flatMap(flagNames));
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--')
      return argv[i + 1] === undefined ? null : { noun: lazyNouns.find((n) => n.name === argv[i + 1]), at: i + 1 };
    if (word.startsWith('-')) {
      if (!word.includes('=') && valued.has(word)) i++;
      continue;
    }
    // A top-level command (apply, mcp) needs no noun; the nouns appear by name, as for --help.
    if (topLevelNames.includes(word)) return null;
    return { noun: lazyNouns.find((n) => n.name === word), at: i };
  }
  return null;
}

/**
 * The noun as a run reaches it: when the word right after it is one of its verbs (or an alias),
 * that verb and the default verb only. Commander hands such a run to the verb before it reads
 * anything else of the noun; the noun's help and its suggestions for a mistyped verb come from
 * runs that name no verb of it there, and those get every verb.
 */
function reachedBy(noun: NounSpec, next: string | undefined): NounSpec {
  const verb = verbNamed(noun, next);
  return verb ? { ...noun, commands: noun.commands.filter((c) => c === verb || (!isNoun(c) && c.isDefault)) } : noun;
}

/** `lms users delete` through the CLI; `lms apply` is a surface of its own. */
function cliScope(action: Command): AuditScope {
  const path: string[] = [];
  for (let cmd: Command | null = action; cmd; cmd = cmd.parent) path.unshift(cmd.parent ? cmd.name() : 'lms');
  return { surface: path[1] === 'apply' ? 'apply' : 'cli', verb: path.join(' ') };
}

function readGlobals(o: Record<string, unknown>, env: NodeJS.ProcessEnv): GlobalOptions {
  const envOutput = env.LMS_OUTPUT;
  if (o.output === undefined && envOutput !== undefined && envOutput !== '' && !FORMATS.includes(envOutput as Format)) {
    const near = closest(envOutput, FORMATS);
    throw new UsageError(
      `LMS_OUTPUT must be one of ${FORMATS.join(', ')}, not "${envOutput}"`,
      near ? { hint: `did you mean ${near}?` } : undefined,
    );
  }
  const fields =
    typeof o.fields === 'string'
      ? o.fields
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean)
      : undefined;
  if (fields && fields.length === 0) throw new UsageError('--fields needs at least one field name');
  // --jq is JSON output filtered, so it implies -o json; a format that is no JSON cannot be filtered.
  const jq = typeof o.jq === 'string';
  if (jq && o.output !== undefined && !JQ_FORMATS.includes(o.output as Format)) {
    throw new UsageError(`--jq filters JSON output and cannot go with -o ${String(o.output)}`, {
      hint: 'drop -o (or use -o json; -o ndjson filters each record)',
    });
  }
  // Both name the instance outright, and neither is the stronger: refuse rather than guess which
  // one a command that writes should write to.
  if (o.mock === true && o.profile !== undefined) {
    throw new UsageError('--mock and --profile both choose the instance: give one of them', {
      hint: `drop --mock to use profile "${String(o.profile)}", or --profile to use the mock`,
    });
  }
  return {
    profile: o.profile as string | undefined,
    mock: typeof o.mock === 'boolean' ? o.mock : undefined,
    mockDb: (o.mockDb as string | undefined) ?? (env.LMS_MOCK_DB || undefined),
    output: (o.output as Format | undefined) ?? (jq ? 'json' : ((envOutput || undefined) as Format | undefined)),
    fields,
    all: o.all === true,
    limit: o.limit as number | undefined,
    perPage: o.perPage as number,
    asUser: o.asUser as string | undefined,
    verbose: o.verbose === true,
    color: o.color !== false,
    input: o.input !== false,
    yes: o.yes === true,
    timeoutSeconds: o.timeout as number,
    insecure: o.insecure === true,
    raw: o.raw === true,
  };
}

/**
 * The same streams with colour set. Not a spread: that would read `stdin`, whose getter builds
 * process.stdin (and loads the stream code behind it) for every command, read or not.
 */
function withColor(io: IOStreams, color: boolean): IOStreams {
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(io),
      color: { value: color, enumerable: true, writable: true, configurable: true },
    },
  ) as IOStreams;
}

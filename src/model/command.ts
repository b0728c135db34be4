// A command is data plus a plain function: `{ name, options, routes, columns, run }`, declared with
// `command()` from define.ts, which types its options from their declaration. `run` receives its
// arguments, options and a Context, and returns data; the output layer renders it.
import type { LmsError } from '../errors.js';
import type { Destruction } from './destructions.js';
import { route, type RouteId } from '../spec/routes.js';
import type { Context } from './context.js';
import { defaultFormat, type Format } from '../output/formats.js';
import { answersTo, compileOption, longFlagOf, type FileUse, type IdKind, type OptionSpec } from './options.js';

export type { FieldSpec, IdKind, OptionSpec } from './options.js';

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
      /** Said to a person at a terminal when the list is empty: where the records they want may be. */
      whenEmpty?: string;
      failure?: LmsError;
    }
  | {
      kind: 'item';
      value: unknown;
      columns?: string[];
      failure?: LmsError;
      /** A plan's destructive changes (a dry run's, `apply --plan`'s): what a confirmation of it binds. */
      destroys?: readonly Destruction[];
    }
  | { kind: 'text'; text: string; failure?: LmsError }
  | { kind: 'none'; failure: LmsError };

export interface CommandSpec<O = Record<string, unknown>> {
  /** The verb's word: `get`, `upload`. */
  name: string;
  /** Its positional arguments, in order: `get <id>` is `[{ name: 'id' }]`. */
  args?: readonly ArgumentDeclaration[];
  summary: string;
  aliases?: string[];
  /** Built by `command()` from the command's options record, whose keys type `opts`. */
  options?: OptionSpec[];
  /** That record's keys, one for each option: the attribute its flag must be read as (see checkDeclaration). */
  optionKeys?: string[];
  /** The API routes this command calls; the coverage test reads them. */
  routes?: RouteId[];
  /**
   * Reads made only to find what an argument names (the user an email address names, by a search):
   * called as `routes` are, but not what the verb does, so no surface takes the verb for a list of them.
   */
  lookups?: RouteId[];
  /** Default columns of a list in table and CSV output (a single record shows all its fields). */
  columns?: string[];
  /**
   * The values a positional argument may take, by argument name: commander refuses others, and
   * completions offer them. (An argument named `profile` completes to the saved profile names.)
   */
  argChoices?: Record<string, readonly string[]>;
  /** Positional arguments that name a local file, by argument name, as a flag's `file`. */
  fileArgs?: Record<string, FileUse>;
  /** Positional arguments that take an id, by argument name, as a flag's `ids`. */
  argIds?: Record<string, IdKind>;
  /** Example invocations shown in help. */
  examples?: string[];
  /** More help, after the examples, made only when help is asked for (it may load every noun: `lms mcp`'s toolsets). */
  helpAfter?: () => Promise<string>;
  /** Runs when the parent noun is given no known verb (`lms api GET /x`). */
  isDefault?: boolean;
  /**
   * What the verb does to one of its noun's objects, when it writes: `lms apply` finds the verbs
   * that create, change and delete each kind it manages by this, and the fields each sets by their
   * flags' `field`.
   */
  writes?: 'create' | 'update' | 'delete';
  /**
   * false: the verb takes no --dry-run though its routes write. Its writes are this machine's
   * credentials at the token endpoint (`auth login`, `auth logout`): nothing a dry run could show
   * before it, and nothing of the instance's data to preview.
   */
  dryRun?: false;
  /**
   * false: the verb's DELETE takes back a mark or a choice of the caller's own (unread, unfollow,
   * unsubscribe, hide from the stream, log out here): it ends nothing of anyone's, so it is not
   * asked about. 'asks': it asks itself, when what it is given destroys (`conv remove-messages`,
   * only when no message would be left).
   */
  destroys?: false | 'asks';
  /** The verb sends whatever request its arguments name (`lms api`): it may write, so it has --dry-run. */
  anyRequest?: true;
  /** Fields the verb sets whatever its flags say (`quizzes publish`: published true). */
  sets?: Record<string, string | number | boolean | null>;
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

export const list = (
  items: AsyncIterable<unknown> | Iterable<unknown>,
  columns?: string[],
): Extract<CommandResult, { kind: 'list' }> => ({ kind: 'list', items, columns, paged: true });
export const item = (value: unknown, columns?: string[]): CommandResult => ({ kind: 'item', value, columns });

/** The format this run's output is rendered in: -o's, else a table on a terminal and JSON off one. */
export const shownFormat = (ctx: Pick<Context, 'globals' | 'io'>): Format =>
  ctx.globals.output ?? defaultFormat(ctx.io);

/**
 * A write's answer: in a table or CSV one row of a list (the verb's columns), not its every field
 * as KEY/VALUE rows or nested objects as raw JSON; in JSON and the other formats as the instance sent it.
 */
export function answerRow(ctx: Pick<Context, 'globals' | 'io'>, answer: unknown, columns: string[]): CommandResult {
  const format = shownFormat(ctx);
  return format === 'table' || format === 'csv' ? { kind: 'list', items: [answer], columns } : item(answer);
}
export const text = (value: string): CommandResult => ({ kind: 'text', text: value });
/** Output first, then fail (a bulk job prints its results, then exits 1 for its failed rows). */
export const withFailure = (result: CommandResult, failure: LmsError): CommandResult =>
  result ? { ...result, failure } : { kind: 'none', failure };

export function isNoun(spec: CommandSpec<never> | NounSpec): spec is NounSpec {
  return 'commands' in spec;
}

/** A noun by name and summary; its verbs load when first asked for, so a run pays only for the nouns it uses. */
export interface LazyNoun {
  name: string;
  summary: string;
  load(): Promise<Verbs>;
}

/**
 * Every command, as the declarations say it: the nouns, each loaded when asked for, and the
 * top-level commands. What apply, export and MCP read verbs from; only the command line makes
 * commander objects of it.
 */
/** The command line as declared: every command, its nouns loaded; the global flags are the program's. */
export interface DeclaredProgram {
  commands: Verbs;
}

export interface CommandModel {
  nouns: readonly LazyNoun[];
  topLevel: readonly CommandSpec<never>[];
}

/** A noun of the model with its verbs loaded. */
export async function loadNoun(noun: LazyNoun): Promise<NounSpec> {
  return { name: noun.name, summary: noun.summary, commands: await noun.load() };
}

/** Every command of the model, each noun loaded, in the order the command line lists them. */
export async function loadModel(model: CommandModel): Promise<Verbs> {
  return [...(await Promise.all(model.nouns.map(loadNoun))), ...model.topLevel];
}

/** A verb's or noun's word on the command line: `get <id>` is `get`. */
export const wordOf = (spec: CommandSpec<never> | NounSpec): string => spec.name;

/**
 * The verbs and nested nouns under a path of nouns (`['sections']`, `['outcomes', 'groups']`; none:
 * the top-level commands), loading only the noun the path starts with; undefined when a word of it
 * names no noun.
 */
async function commandsAt(model: CommandModel, path: readonly string[]): Promise<Verbs | undefined> {
  if (path.length === 0) return [...model.topLevel];
  const [first, ...rest] = path;
  const lazy = model.nouns.find((n) => n.name === first);
  let verbs: Verbs | undefined = lazy && (await lazy.load());
  for (const word of rest) {
    const noun = verbs?.find((v): v is NounSpec => isNoun(v) && v.name === word);
    verbs = noun?.commands;
  }
  return verbs;
}

/** The verbs (not nested nouns) directly under the path; undefined as commandsAt. */
export async function verbsAt(model: CommandModel, path: readonly string[]): Promise<CommandSpec<never>[] | undefined> {
  return (await commandsAt(model, path))?.filter((v): v is CommandSpec<never> => !isNoun(v));
}

/** The routes a command tree declares, for the coverage test. */
export function declaredRoutes(specs: (CommandSpec<never> | NounSpec)[]): Set<RouteId> {
  const found = new Set<RouteId>();
  for (const spec of specs) {
    if (isNoun(spec)) for (const r of declaredRoutes(spec.commands)) found.add(r);
    else for (const r of [...(spec.routes ?? []), ...(spec.lookups ?? [])]) found.add(r);
  }
  return found;
}

/** The values of the option's value that destroy (see OptionSpec.destroys): none, or the destroying values given. */
function destroyingValues(option: Pick<OptionSpec, 'destroys'>, value: unknown): string[] {
  const { destroys } = option;
  if (destroys === undefined || destroys === true) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (v): v is string => typeof v === 'string' && destroys.includes(v),
  );
}

/** Whether the option, with this value (as commander hands it over, or as a file gives it), destroys. */
export function destroysWith(option: Pick<OptionSpec, 'destroys'>, value: unknown): boolean {
  return option.destroys === true ? value === true : destroyingValues(option, value).length > 0;
}

/** The options of a run of the verb that destroy, each as a command line says it: `--state inactive`. */
export function destroyingOptions(
  spec: Pick<CommandSpec<never>, 'options'>,
  opts: Record<string, unknown>,
): { option: OptionSpec; said: string }[] {
  const found: { option: OptionSpec; said: string }[] = [];
  for (const option of spec.options ?? []) {
    const { attribute, long } = compileOption(option);
    const value = opts[attribute];
    if (!destroysWith(option, value)) continue;
    const values = destroyingValues(option, value);
    found.push({ option, said: values.length ? `${long} ${values.join(',')}` : long });
  }
  return found;
}

/**
 * Whether a verb sends writes: any of its routes is not a GET, or it sends what it is told. What `--dry-run` is added
 * to.
 */
export function sendsWrites(spec: CommandSpec<never>): boolean {
  return spec.anyRequest === true || (spec.routes ?? []).some((id) => route(id).method !== 'GET');
}

/**
 * Whether every run of a verb destroys: it deletes one of its noun's objects, or sends a DELETE
 * (which also concludes and deactivates enrollments), and no flag of its says when it does. Such a
 * verb asks first on a terminal and needs --yes elsewhere; `lms mcp` answers its plan and a
 * confirm token first. A verb that destroys only with a flag (`--sync`, `--prune`) is asked then.
 */
export function destroysAlways(spec: CommandSpec<never>): boolean {
  if (!sendsWrites(spec) || spec.destroys === false) return false;
  if (spec.writes === 'delete') return true;
  // It asks itself when what it is given destroys (a file's rows): not every run does.
  if (spec.destroys === 'asks') return false;
  if ((spec.options ?? []).some((o) => o.destroys === true)) return false;
  return (spec.routes ?? []).some((id) => route(id).method === 'DELETE');
}

/**
 * How `--dry-run` works on a verb that writes. `plans`: the verb declares a `--dry-run` of its own
 * (the bulk imports, `grade --csv`), or a `--plan` that `--dry-run` stands for (`apply`), and shows
 * what it would change from lookups. `stops`: every other writing verb runs up to its first write,
 * which is shown instead of sent.
 */
export function dryRunOf(spec: CommandSpec<never>): 'plans' | 'stops' | undefined {
  if (spec.dryRun === false || !sendsWrites(spec)) return undefined;
  return declares(spec, '--dry-run') || declares(spec, '--plan') ? 'plans' : 'stops';
}

/** The `--dry-run` the command line adds to a verb that writes and declares none of its own. */
function dryRunOption(spec: CommandSpec<never>): OptionSpec | undefined {
  const dryRun = dryRunOf(spec);
  if (!dryRun || declares(spec, '--dry-run')) return undefined;
  const description =
    dryRun === 'plans'
      ? 'show what would change, and change nothing (as --plan)'
      : 'send the reads it needs, then show the first write (method, URL, body) instead of sending it';
  return { long: 'dry-run', description };
}

/** A verb's flags as the command line takes them: the declared ones, and the --dry-run added to it. */
export function flagsOf(spec: CommandSpec<never>): OptionSpec[] {
  const added = dryRunOption(spec);
  return [...(spec.options ?? []), ...(added ? [added] : [])];
}

/** A positional argument as a verb declares it: required and single unless it says otherwise. */
interface ArgumentDeclaration {
  name: string;
  optional?: true;
  /** Takes every remaining word (the last argument only). */
  variadic?: true;
}

/** A positional argument, as every surface reads it. */
export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
}

/** The positional arguments of a verb. */
export function argumentsOf(spec: Pick<CommandSpec<never>, 'args'>): ArgumentSpec[] {
  return (spec.args ?? []).map((a) => ({ name: a.name, required: a.optional !== true, variadic: a.variadic === true }));
}

/** The verb and its arguments in commander's syntax (`get <id>`, `delete [ids...]`), for commander and help. */
export function usageOf(spec: Pick<CommandSpec<never>, 'name' | 'args'>): string {
  const words = argumentsOf(spec).map((a) =>
    a.required ? `<${a.name}${a.variadic ? '...' : ''}>` : `[${a.name}${a.variadic ? '...' : ''}]`,
  );
  return [spec.name, ...words].join(' ');
}

/** `--course` and `-c`: the names a flag answers to, the long one first. */
export function flagNames(spec: Pick<OptionSpec, 'long' | 'negated' | 'short'>): string[] {
  return spec.short === undefined ? [longFlagOf(spec)] : [longFlagOf(spec), `-${spec.short}`];
}

/** The verb of a noun a word names, by its name or an alias (commander's lookup); not a nested noun. */
export function verbNamed(noun: NounSpec, word: string | undefined): CommandSpec<never> | undefined {
  return word === undefined
    ? undefined
    : noun.commands.find(
        (c): c is CommandSpec<never> => !isNoun(c) && (wordOf(c) === word || (c.aliases ?? []).includes(word)),
      );
}

/** A noun's default verb (`lms grade` runs `grade set`), whose flags the noun takes too. */
export function defaultVerb(noun: NounSpec): CommandSpec<never> | undefined {
  return noun.commands.find((c): c is CommandSpec<never> => !isNoun(c) && c.isDefault === true);
}

/** Whether a verb declares this flag itself. */
export function declares(spec: { options?: readonly OptionSpec[] }, flag: string): boolean {
  return (spec.options ?? []).some((o) => answersTo(o, flag));
}

/** What a surface hands a verb: its positional arguments, and its options by attribute (`loginId`). */
export interface Invocation {
  args: string[];
  options: Record<string, unknown>;
}

export type DryRun = NonNullable<ReturnType<typeof dryRunOf>>;

/** Runs a verb as the command line gave it (checked and run by invoke.ts), under a dry run when asked. */
export type Runner = (
  spec: CommandSpec<never>,
  given: Invocation,
  dryRun: DryRun | undefined,
  globals: Record<string, unknown>,
) => Promise<void>;

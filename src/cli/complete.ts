// `lms __complete SHELL -- WORD…`: the values of the word being completed that only the instance
// knows (course, section, assignment, user, account and topic ids), for the completion scripts,
// as cobra's `__complete` serves its scripts. The words are the command line after `lms`, up to and
// including the one under the cursor (empty when nothing is typed yet).
//
// What is being completed is read off the command declarations: a flag or argument declares the kind of id
// it takes (`ids`, `argIds`). The instance is the one the line would use (-p/--profile, --mock,
// --no-mock, --mock-db on it, then LMS_PROFILE, LMS_MOCK and the profile file), and the context
// flags already typed narrow the list (--assignment after --course 7: course 7's assignments).
//
// A TAB must answer at once and never get in the way: everything is asked within one deadline, then
// nothing is offered; nothing prompts; no error is ever shown (the shell would print it into the
// line being edited); answers are kept a minute, per instance and list, in a file only its owner
// can read.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ApiClient } from '../client/client.js';
import type { IOStreams } from '../io/streams.js';
import type { RouteId } from '../spec/routes.js';
import { ExitCode, LmsError } from '../errors.js';
import {
  argumentsOf,
  defaultVerb,
  flagNames,
  flagsOf,
  isNoun,
  loadNoun,
  wordOf,
  type CommandModel,
  type CommandSpec,
  type IdKind,
  type NounSpec,
} from '../model/command.js';
import { createContext, type Deps, type GlobalOptions } from '../model/context.js';
import { lmsPaths } from '../lms-paths.js';
import { GLOBAL_FLAGS } from '../model/global-flags.js';
import { compileOption, type CompiledOption, type OptionSpec } from '../model/options.js';
import { commandModel } from './program.js';

type CompleteShell = 'bash' | 'zsh' | 'fish';

export interface CompleteOptions {
  /** The whole answer must come within this; after it nothing is offered. */
  deadlineMs?: number;
  /** How long an answer is kept. */
  cacheMs?: number;
  /**
   * Where answers are kept: `completions` in the user's cache directory (LMS_CACHE_DIR, as the compile cache) unless
   * given.
   */
  cacheDir?: string;
  now?: () => number;
}

const COMPLETE_DEADLINE_MS = 1500;
const COMPLETE_CACHE_MS = 60_000;
/** A longer list is not something to pick from with TAB. */
const MOST = 200;

type Value = [id: string, name: string];

/** What a shell is handed for the line: one value a line, with its name where the shell shows one. Never throws. */
export async function complete(
  argv: readonly string[],
  deps: Omit<Deps, 'io'>,
  options: CompleteOptions = {},
): Promise<string> {
  const [shell, dashes, ...words] = argv;
  if ((shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') || dashes !== '--' || words.length === 0) return '';
  const deadline = options.deadlineMs ?? COMPLETE_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  const attempt: Attempt = {};
  const late = new Promise<Value[]>((resolve) => {
    timer = setTimeout(() => {
      attempt.failed?.();
      resolve([]);
    }, deadline);
  });
  try {
    const values = await Promise.race([valuesFor(words, deps, options, attempt).catch((): Value[] => []), late]);
    return format(values, shell);
  } finally {
    clearTimeout(timer);
  }
}

function format(values: Value[], shell: CompleteShell): string {
  const lines = values.map(([id, name]) => {
    const label = name.replace(/[\t\n\r]+/g, ' ').trim();
    if (shell === 'bash' || label === '') return id;
    return shell === 'zsh' ? `${id.replace(/:/g, '\\:')}:${label}` : `${id}\t${label}`;
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The word under the cursor, and what it is: the value of a flag, or an argument of a verb. */
interface Target {
  kind: IdKind;
  prefix: string;
  /** The instance and context flags on the line, by attribute name (`course`, `profile`, `mock`). */
  given: Map<string, string | boolean>;
}

/** What a completion that asked the instance does when the answer never comes in time. */
interface Attempt {
  failed?: () => void;
}

async function valuesFor(
  words: string[],
  deps: Omit<Deps, 'io'>,
  options: CompleteOptions,
  attempt: Attempt,
): Promise<Value[]> {
  // Streams that write nowhere: nothing of a completion may reach the terminal.
  const quiet = { ...deps, io: silentIO(), prompter: undefined };
  const line = joinEquals(words);
  const target = await findTarget(commandModel, line);
  if (!target) return [];
  const globals = globalsFrom(target.given);
  const ctx = createContext(quiet, globals);
  const context = contextOf(target);
  const now = options.now ?? Date.now;
  const dir = options.cacheDir ?? join(deps.env.LMS_CACHE_DIR || lmsPaths().cache, 'completions');
  // Whose ids these are: the instance and the caller as the line would pick them (the profile file's
  // current profile, LMS_TOKEN, --as-user), so another profile or token never gets this one's. The
  // key is hashed into the file's name; no token is kept.
  const caller = [deps.env.LMS_TOKEN ?? '', globals.asUser ?? ''];
  const identity = ctx.mockMode
    ? ['mock', globals.mockDb ?? deps.env.LMS_MOCK_DB ?? '', ...caller]
    : [
        'remote',
        globals.profile ?? (deps.env.LMS_PROFILE || (await ctx.profiles()).current()) ?? '',
        deps.env.LMS_BASE_URL ?? '',
        ...caller,
      ];
  const file = cacheFile(dir, [identity, target.kind, context]);
  let values = readCache(file, now(), options.cacheMs ?? COMPLETE_CACHE_MS);
  if (!values) {
    // An instance out of reach (refused, or no answer in time) is not asked again for a minute, whatever is
    // completed: every TAB would wait for it again.
    const unreachable = cacheFile(dir, ['unreachable', identity]);
    if (readCache(unreachable, now(), options.cacheMs ?? COMPLETE_CACHE_MS)) return [];
    attempt.failed = () => writeCache(dir, unreachable, now(), []);
    try {
      values = await list(await ctx.client(), target.kind, context);
    } catch (error) {
      // Not a refusal of this one list (a course that does not exist): only an instance out of reach.
      if (error instanceof LmsError && error.exitCode === ExitCode.network) attempt.failed();
      throw error;
    }
    attempt.failed = undefined;
    writeCache(dir, file, now(), values);
  }
  return values.filter(([id]) => id.startsWith(target.prefix));
}

/** The file in `dir` that keeps the answer for `key`, hashed into its name: no token is kept. */
function cacheFile(dir: string, key: unknown[]): string {
  return join(dir, `${createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32)}.json`);
}

/** bash hands `--course=7` over as three words: `--course`, `=`, `7`. */
function joinEquals(words: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const previous = joined.at(-1);
    if (words[i] === '=' && previous?.startsWith('--') && !previous.includes('='))
      joined[joined.length - 1] = `${previous}=${words[++i] ?? ''}`;
    else joined.push(words[i]);
  }
  return joined;
}

/** Where the walk of the line stands: the program, a noun or a verb, with the flags each takes. */
interface Step {
  flags: readonly OptionSpec[];
  /** The verbs and nouns below; none for a verb. */
  commands: readonly (CommandSpec<never> | NounSpec)[];
  verb?: CommandSpec<never>;
  /** A noun's default verb, whose flags the noun takes too. */
  fallback?: CommandSpec<never>;
}

function stepOf(spec: CommandSpec<never> | NounSpec): Step {
  return isNoun(spec)
    ? { flags: [], commands: spec.commands, fallback: defaultVerb(spec) }
    : { flags: flagsOf(spec), commands: [], verb: spec };
}

/** The flag a word names where the walk stands: on the command, a default verb below it, or an ancestor. */
function flagAt(chain: Step[], word: string): CompiledOption | undefined {
  const fallback = chain.at(-1)!.fallback;
  for (const flags of [...(fallback ? [flagsOf(fallback)] : []), ...[...chain].reverse().map((step) => step.flags)]) {
    const flag = flags.find((f) => flagNames(f).includes(word));
    if (flag) return compileOption(flag);
  }
  return undefined;
}

/** The command a word names among the program's (its nouns loaded as they are named) or a noun's. */
async function commandNamed(model: CommandModel, step: Step, word: string, atRoot: boolean): Promise<Step | undefined> {
  const named = (c: CommandSpec<never> | NounSpec) => wordOf(c) === word || (c.aliases ?? []).includes(word);
  if (atRoot) {
    const noun = model.nouns.find((n) => n.name === word);
    if (noun) return stepOf(await loadNoun(noun));
  }
  const found = step.commands.find(named);
  return found && stepOf(found);
}

async function findTarget(model: CommandModel, line: string[]): Promise<Target | undefined> {
  const root: Step = { flags: GLOBAL_FLAGS, commands: model.topLevel, fallback: undefined };
  const chain: Step[] = [root];
  const given = new Map<string, string | boolean>();
  let nargs = 0;
  const current = line.at(-1)!;
  let pending: CompiledOption | undefined;
  for (const word of line.slice(0, -1)) {
    if (pending) {
      given.set(pending.attribute, word);
      pending = undefined;
      continue;
    }
    if (word.startsWith('-') && word !== '-') {
      const [flag, value] = word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
      const found = flagAt(chain, flag);
      if (!found) continue;
      if (found.kind === 'switch' || found.kind === 'negated') given.set(found.attribute, found.kind === 'switch');
      else if (value !== undefined) given.set(found.attribute, value);
      else pending = found;
      continue;
    }
    const sub = await commandNamed(model, chain.at(-1)!, word, chain.length === 1);
    if (sub) {
      chain.push(sub);
      nargs = 0;
    } else nargs++;
  }
  if (pending) return withKind(pending.spec.ids, current, given);
  if (current.startsWith('--') && current.includes('=')) {
    const found = flagAt(chain, current.slice(0, current.indexOf('=')));
    return found ? withKind(found.spec.ids, current.slice(current.indexOf('=') + 1), given) : undefined;
  }
  if (current.startsWith('-')) return undefined;
  const here = chain.at(-1)!;
  // A word where a verb is expected is a verb's name, not an id.
  if (!here.verb) return undefined;
  const args = argumentsOf(here.verb);
  const argument = args[Math.min(nargs, args.length - 1)];
  if (!argument || (nargs >= args.length && !argument.variadic)) return undefined;
  return withKind(here.verb.argIds?.[argument.name], current, given);
}

function withKind(kind: IdKind | undefined, prefix: string, given: Map<string, string | boolean>): Target | undefined {
  return kind ? { kind, prefix, given } : undefined;
}

function globalsFrom(given: Map<string, string | boolean>): GlobalOptions {
  const text = (name: string) => {
    const value = given.get(name);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const mock = given.get('mock');
  return {
    profile: text('profile'),
    mock: typeof mock === 'boolean' ? mock : undefined,
    mockDb: text('mockDb'),
    all: false,
    perPage: 100,
    verbose: false,
    color: false,
    // Never a prompt: a TAB that waits for an answer would hang the shell.
    input: false,
    yes: false,
    timeoutSeconds: Math.ceil(COMPLETE_DEADLINE_MS / 1000),
    insecure: false,
  };
}

/** The context flags on the line that narrow a list. */
interface ListContext {
  course?: string;
  section?: string;
  group?: string;
  account?: string;
}

function contextOf(target: Target): ListContext {
  const pick = (name: string) => {
    const value = target.given.get(name);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return { course: pick('course'), section: pick('section'), group: pick('group'), account: pick('account') };
}

type Row = Record<string, unknown>;

async function rows(client: ApiClient, route: RouteId, params: Record<string, string | boolean>): Promise<Row[]> {
  const found: Row[] = [];
  for await (const row of client.paginate<Row>(route, params, { limit: MOST })) found.push(row);
  return found;
}

const completionValue = (row: Row, nameKey: string): Value => [
  String(row.id),
  typeof row[nameKey] === 'string' ? (row[nameKey] as string) : '',
];

/** The ids of a kind the instance holds, with their names, in the context given. */
async function list(client: ApiClient, kind: IdKind, context: ListContext): Promise<Value[]> {
  switch (kind) {
    case 'course': {
      if (context.account)
        return (await rows(client, 'courses.listAccount', { account_id: context.account })).map((r) =>
          completionValue(r, 'name'),
        );
      const mine = await rows(client, 'courses.list', {});
      if (mine.length > 0) return mine.map((r) => completionValue(r, 'name'));
      // An admin is enrolled in nothing: their courses are the account's.
      return (await rows(client, 'courses.listAccount', { account_id: 'self' }).catch((): Row[] => [])).map((r) =>
        completionValue(r, 'name'),
      );
    }
    case 'account':
      return (await rows(client, 'accounts.list', {})).map((r) => completionValue(r, 'name'));
    case 'section':
      return context.course
        ? (await rows(client, 'sections.list', { course_id: context.course })).map((r) => completionValue(r, 'name'))
        : [];
    case 'assignment':
      return context.course
        ? (await rows(client, 'assignments.list', { course_id: context.course })).map((r) => completionValue(r, 'name'))
        : [];
    case 'topic':
    case 'announcement': {
      const only: Record<string, boolean> = kind === 'announcement' ? { only_announcements: true } : {};
      if (context.course)
        return (await rows(client, 'discussions.listTopics', { course_id: context.course, ...only })).map((r) =>
          completionValue(r, 'title'),
        );
      if (context.group)
        return (await rows(client, 'discussions.listGroupTopics', { group_id: context.group, ...only })).map((r) =>
          completionValue(r, 'title'),
        );
      return [];
    }
    case 'user': {
      if (context.course || context.section) {
        const enrollments = context.section
          ? await rows(client, 'enrollments.listSection', { section_id: context.section })
          : await rows(client, 'enrollments.listCourse', { course_id: context.course! });
        const users = new Map<string, string>();
        for (const enrollment of enrollments) {
          const user = (enrollment.user ?? {}) as Row;
          const id = String(enrollment.user_id ?? user.id);
          if (!users.has(id)) users.set(id, typeof user.name === 'string' ? user.name : '');
        }
        return [...users];
      }
      return (await rows(client, 'users.list', { account_id: context.account ?? 'self' })).map((r) =>
        completionValue(r, 'name'),
      );
    }
  }
}

function readCache(file: string, now: number, maxAge: number): Value[] | undefined {
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { at?: unknown; values?: unknown };
    if (typeof stored.at !== 'number' || now - stored.at > maxAge || now < stored.at || !Array.isArray(stored.values))
      return undefined;
    return stored.values.filter(
      (v): v is Value => Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string',
    );
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, file: string, now: number, values: Value[]): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ at: now, values }), { mode: 0o600 });
    // An existing file keeps its mode through writeFileSync: make sure only its owner reads it.
    chmodSync(file, 0o600);
  } catch {
    // A cache that cannot be written only makes the next TAB ask again.
  }
}

function silentIO(): IOStreams {
  const sink = { write: () => true, once: () => sink };
  return {
    stdout: sink,
    stderr: sink,
    get stdin() {
      return Readable.from([]);
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    color: false,
  };
}

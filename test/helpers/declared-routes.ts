// A verb's `routes` decide what it is allowed to do (MCP's read/write/destructive class, --dry-run),
// so every in-process test also checks them: each request a verb sends to a watched mock is matched
// to its route, and a route the verb does not declare fails the test once the command has ended.
//
// The running verb is known by wrapping each declared verb's `run` (the command modules' own
// objects, which the CLI, apply and MCP all call): an AsyncLocalStorage frame names the verb for
// every request sent under it, a nested verb (apply's) opening a frame of its own, and a list the
// verb answers is read under the verb's frame too, since its pages are fetched as it is printed.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach } from 'vitest';
import type { CommandResult, CommandSpec, NounSpec } from '../../src/model/command.js';
import { lazyNouns, topLevelCommands } from '../../src/commands/index.js';
import { matchRoute } from '../../src/spec/match.js';
import type { MockRuntime } from '../../src/mock/runtime.js';

type Verb = CommandSpec<never>;

interface Frame {
  /** `users list`, as typed after `lms`. */
  path: string;
  spec: Verb;
  /** Whether the run acts as another user (--as-user). */
  asUser: boolean;
  called: string[];
}

/**
 * The one allowance: a route a verb may call without declaring it, because shared code sends it for
 * any verb. --as-user first asks whether that user exists (the global flag's request). Everything
 * else a verb's code reaches, a user looked up by SIS id or login included, the verb declares.
 */
const allowance = (asUser: boolean): string[] => (asUser ? ['users.get'] : []);

/** The routes `spec` called that it neither declares nor is allowed, once each. */
export function undeclared(spec: Verb, called: readonly string[], asUser = false): string[] {
  const allowed = new Set(allowance(asUser));
  const declared = new Set<string>([...(spec.routes ?? []), ...(spec.lookups ?? [])]);
  return [...new Set(called)].filter((id) => !declared.has(id) && !allowed.has(id));
}

/** `lms api` sends whatever request it is given: it declares no routes, and is held to none. */
const ANY_ROUTE = new Set(['api request']);

const frames = new AsyncLocalStorage<Frame>();
let ended: Frame[] = [];
const watched = new WeakSet<Verb>();

function watchRun(spec: Verb, path: string): void {
  if (ANY_ROUTE.has(path) || watched.has(spec)) return;
  watched.add(spec);
  const run = spec.run;
  spec.run = (input) => {
    const frame: Frame = { path, spec, asUser: input.ctx.globals.asUser !== undefined, called: [] };
    ended.push(frame);
    return frames.run(frame, async () => readUnder(frame, await run.call(spec, input)));
  };
}

/** The result, with a list that is read later (as it is printed) read under the verb's frame. */
function readUnder(frame: Frame, result: CommandResult): CommandResult {
  if (result?.kind !== 'list' || Array.isArray(result.items) || !(Symbol.asyncIterator in result.items)) return result;
  const items = result.items;
  const underFrame: AsyncIterable<unknown> = {
    [Symbol.asyncIterator]() {
      const it = items[Symbol.asyncIterator]();
      return {
        next: (...a: [] | [unknown]) => frames.run(frame, () => it.next(...a)),
        return: (value?: unknown) =>
          frames.run(frame, async () => (it.return ? it.return(value) : { done: true as const, value })),
      };
    },
  };
  return { ...result, items: underFrame };
}

const isNoun = (s: Verb | NounSpec): s is NounSpec => 'commands' in s;

function watchTree(specs: (Verb | NounSpec)[], prefix: string[] = []): void {
  for (const spec of specs) {
    const path = [...prefix, spec.name];
    if (isNoun(spec)) watchTree(spec.commands, path);
    else watchRun(spec, path.join(' '));
  }
}

// Each noun's verbs as the noun is loaded, so a test pays only for the nouns it runs.
for (const noun of lazyNouns) {
  const load = noun.load;
  noun.load = async () => {
    const verbs = await load();
    watchTree(verbs, [noun.name]);
    return verbs;
  };
}
watchTree([...topLevelCommands()]);

/** Records, for the verb running, the route of every request sent to this mock. */
export function watchRoutes(mock: MockRuntime): MockRuntime {
  const handler = mock.handler;
  mock.handler = (req) => {
    const frame = frames.getStore();
    // A dry run's read before the write it stops at is the dry run's, whatever the verb.
    if (frame && !req.dryRunCheck) {
      const { pathname } = new URL(req.url);
      frame.called.push(matchRoute(req.method, pathname)?.route.id ?? `${req.method} ${pathname} (no route)`);
    }
    return handler(req);
  };
  return mock;
}

/**
 * Runs `send` as another client would, outside any verb: what a test sends to the mock in the middle
 * of a command (a person making the same object meanwhile) is not the command's request.
 */
export function asAnotherClient<T>(send: () => T): T {
  return frames.exit(send);
}

/** Fails when a verb run since the last check called a route it does not declare. */
export function assertDeclaredRoutes(): void {
  const done = ended;
  ended = [];
  const problems = done.flatMap((frame) =>
    undeclared(frame.spec, frame.called, frame.asUser).map(
      (id) => `lms ${frame.path} called ${id}, which it does not declare: add it to the verb's routes`,
    ),
  );
  if (problems.length) throw new Error([...new Set(problems)].join('\n'));
}

// Whatever ran a verb in the test (a session, an MCP tool call, apply), the test ends checked.
afterEach(assertDeclaredRoutes);

// The entry the launcher calls: parse, run, and map any error to an exit code. Never exits itself.
import { ExitCode, InterruptedError, UsageError } from '../errors.js';
import { systemIO } from '../io/streams.js';
import type { Deps } from '../model/context.js';
import { formatError, handleError, toLmsError } from '../model/handle-error.js';
import { buildProgram, jsonErrorsRequested, synonymOf, type ProgramState } from './program.js';

export async function run(argv: string[], deps?: Partial<Deps>): Promise<number> {
  const env = deps?.env ?? process.env;
  // Asked by the completion scripts at each TAB: its answer, and never an error (see complete.ts).
  if (argv[0] === '__complete') return runComplete(argv.slice(1), { ...deps, env }, deps?.io === undefined);
  // A reader that stops early (`| head`) is not an error.
  const io = deps?.io ?? systemIO(env, argv.includes('--no-color'), () => process.exit(ExitCode.ok));
  const state: ProgramState = { jsonErrors: jsonErrorsRequested(argv, env) };
  const full: Deps = { ...deps, io, env };
  const interrupted = () => {
    if (state.stop) {
      // The command's own end (a server's Ctrl-C): once; a second Ctrl-C ends the process.
      state.stop();
      return;
    }
    state.activity?.stop();
    const error = new InterruptedError();
    io.stderr.write(state.jsonErrors ? `\n${JSON.stringify(error.toJSON())}\n` : `\n${formatError(error)}`);
    process.exit(ExitCode.interrupted);
  };
  if (!deps?.io) process.once('SIGINT', interrupted);
  try {
    const program = await buildProgram(full, state, argv);
    if (argv.length === 0) {
      program.outputHelp();
      return ExitCode.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    return handleError(await withSynonym(error, argv), io, state.jsonErrors);
  } finally {
    process.removeListener('SIGINT', interrupted);
  }
}

/**
 * `lms __complete`, outside the command tree: it is no command a person runs, so no help, man page,
 * tool or completion lists it. Run from the shell, the process ends once the answer is written: a
 * request still pending after the deadline must not keep the shell waiting.
 */
async function runComplete(
  argv: string[],
  deps: Partial<Deps> & { env: NodeJS.ProcessEnv },
  ownProcess: boolean,
): Promise<number> {
  const { complete } = await import('./complete.js');
  const text = await complete(argv, deps);
  if (!ownProcess) {
    deps.io?.stdout.write(text);
    return ExitCode.ok;
  }
  process.stdout.write(text, () => process.exit(ExitCode.ok));
  return new Promise<number>(() => undefined);
}

/** An unknown verb that commander found no spelling for, with the verb the noun has by that name's meaning. */
async function withSynonym(error: unknown, argv: string[]): Promise<unknown> {
  const failure = toLmsError(error);
  if (failure.details?.code !== 'commander.unknownCommand' || failure.hint) return error;
  const verb = await synonymOf(argv).catch(() => undefined);
  return verb ? new UsageError(failure.message, { hint: `did you mean ${verb}?`, details: failure.details }) : error;
}

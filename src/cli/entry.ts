// The entry the launcher calls: parse, run, and map any error to an exit code. Never exits itself.
import { ExitCode, InterruptedError } from '../errors.js';
import { systemIO } from '../io/streams.js';
import type { Deps } from './context.js';
import { formatError, handleError } from './handle-error.js';
import { buildProgram, jsonErrorsRequested, type ProgramState } from './program.js';

export { v8FlagsChanged } from './young-generation.js';
export { commandNames } from './program.js';

export async function run(argv: string[], deps?: Partial<Deps>): Promise<number> {
  const env = deps?.env ?? process.env;
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
    return handleError(error, io, state.jsonErrors);
  } finally {
    process.removeListener('SIGINT', interrupted);
  }
}

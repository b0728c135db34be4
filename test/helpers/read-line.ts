// A command line read against the command model without running anything: the verb it reaches and
// its invocation checked as a run would check it (unknown verbs and flags, missing arguments and
// required flags, refused choices and numbers), through the same program and the same check.
import { toLmsError } from '../../src/model/handle-error.js';
import { check } from '../../src/model/invoke.js';
import { buildProgram, type RunnerOf } from '../../src/cli/program.js';
import { UsageError, type LmsError } from '../../src/errors.js';
import { fakeIO } from './fake-io.js';

/** The verb `argv` (the words after `lms`) runs, or the error a run of it would stop at before sending anything. */
export async function readLine(argv: readonly string[]): Promise<{ verb: string } | { error: LmsError }> {
  let verb: string | undefined;
  const runnerOf: RunnerOf = () => async (spec, given, dryRun) => {
    check(spec, given, { dryRun });
    verb = spec.name;
  };
  try {
    const program = await buildProgram({ io: fakeIO(), env: {} }, { jsonErrors: false }, [...argv], runnerOf);
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    return { error: toLmsError(error) };
  }
  return verb ? { verb } : { error: new UsageError('no verb runs: the line asks for help, or names a noun alone') };
}

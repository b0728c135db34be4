// The one place that turns an error into a message on stderr and an exit code.
import { CommanderError } from 'commander';
import { ExitCode, LmsError } from '../errors.js';
import { err, type IOStreams } from '../io/streams.js';

export function handleError(error: unknown, io: IOStreams, asJson: boolean): number {
  if (error instanceof CommanderError) {
    // Commander already printed its own message (help, version, or a usage problem).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return ExitCode.ok;
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (error instanceof LmsError) {
    err(io, `error: ${error.message}\n`);
    if (error.hint) err(io, `hint: ${error.hint}\n`);
    if (asJson) err(io, `${JSON.stringify(error.toJSON())}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  err(io, `error: ${message}\n`);
  if (asJson) err(io, `${JSON.stringify({ error: 'InternalError', message, exit_code: ExitCode.failure })}\n`);
  if (error instanceof Error && process.env.LMS_DEBUG) err(io, `${error.stack}\n`);
  return ExitCode.failure;
}

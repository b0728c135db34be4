// The one place that turns an error into a message on stderr and an exit code. With JSON errors in
// force (-o json, or LMS_OUTPUT=json) the message is exactly one JSON object on stderr, whatever
// raised it: a command, the API, or commander while parsing the command line.
import type { CommanderError } from 'commander';
import { closest } from '../closest.js';
import { showControls } from '../controls.js';
import { ExitCode, InterruptedError, LmsError, UsageError } from '../errors.js';
import { err, type IOStreams } from '../io/streams.js';

/** Commander's codes for help and version: printed on purpose, not failures. */
const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/**
 * How prompts (@inquirer: ExitPromptError on Ctrl-C, AbortPromptError and CancelPromptError when
 * stopped from outside) and aborted work say they were stopped.
 */
const INTERRUPTION_NAMES = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError', 'AbortError']);

function isInterruption(error: unknown): boolean {
  return error instanceof InterruptedError || (error instanceof Error && INTERRUPTION_NAMES.has(error.name));
}

export function handleError(error: unknown, io: IOStreams, asJson: boolean): number {
  if (isCommanderError(error) && (COMMANDER_OK.has(error.code) || error.exitCode === 0)) return ExitCode.ok;
  const failure = toLmsError(error);
  if (asJson) {
    const json = failure.toJSON();
    if (failure.name === 'InternalError' && error instanceof Error && process.env.LMS_DEBUG) json.stack = error.stack;
    // Written as `\u0085`, a C1 control or DEL reads back the same and never reaches a terminal raw.
    err(io, `${showControls(JSON.stringify(json))}\n`);
  } else {
    err(io, formatError(failure));
    if (failure.name === 'InternalError' && error instanceof Error && process.env.LMS_DEBUG)
      err(io, `${error.stack}\n`);
  }
  return failure.exitCode;
}

/**
 * The human form: `error: …` and, when there is one, `hint: …`. A message may quote what a user
 * typed or a server sent: its control characters are shown as escapes, never acted on.
 */
export function formatError(error: LmsError): string {
  return showControls(`error: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`, '\n');
}

/** Any thrown value as an LmsError of the taxonomy. */
export function toLmsError(error: unknown): LmsError {
  if (error instanceof LmsError) return error;
  if (isCommanderError(error)) return fromCommander(error);
  if (isInterruption(error)) return new InterruptedError('interrupted', { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new InternalError(message, error);
}

/**
 * Commander's own errors (its parse errors, its help and version), told by the code every one of
 * them carries: the class would load commander in every run, and a plain line runs without it.
 */
function isCommanderError(error: unknown): error is CommanderError {
  if (!(error instanceof Error)) return false;
  const { code, exitCode } = error as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number';
}

class InternalError extends LmsError {
  constructor(message: string, cause: unknown) {
    super(message, ExitCode.failure, { cause });
  }
}

/**
 * Commander's parse errors (unknown command or option, a missing argument or required option, a
 * value its parser or choices refused) as usage errors. Its text is `error: what\n(Did you mean x?)`.
 */
function fromCommander(error: CommanderError): LmsError {
  const lines = error.message.replace(/^error: /, '').split('\n');
  const suggestion = lines.map((line) => /^\(Did you mean (.+)\?\)$/.exec(line.trim())).find(Boolean);
  const message = lines
    .filter((line) => !/^\(Did you mean .+\?\)$/.test(line.trim()))
    .join(' ')
    .trim();
  const near = suggestion?.[1] ?? nearestChoice(message);
  return new UsageError(message, { hint: near ? `did you mean ${near}?` : undefined, details: { code: error.code } });
}

/**
 * For a value its choices refused (`argument 'jsn' is invalid. Allowed choices are table, json, …`), the choice it is
 * nearest.
 */
function nearestChoice(message: string): string | undefined {
  const found = /(?:argument|value) '([^']*)' is invalid.*Allowed choices are (.+?)\.?$/.exec(message);
  return found ? closest(found[1], found[2].split(', ')) : undefined;
}

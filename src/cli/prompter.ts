// The terminal's prompts, loaded when a command first asks. Only the two it uses are dependencies:
// @inquirer/prompts brings every prompt into the bundle, and the editor prompt's character-set
// converters alone are 540 KB.
import confirm from '@inquirer/confirm';
import password from '@inquirer/password';
import { CancelledError } from '../errors.js';
import type { Prompter } from './context.js';

/** Where prompts read keys and draw: the process's own terminal unless given. */
export interface PromptStreams {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

/**
 * Prompts on a terminal. A confirmation answered "no" rejects, as Ctrl-C at it does: either way the
 * person stopped the command before it did anything, and the error handler gives that its exit code.
 */
export function promptOn(streams: PromptStreams): Prompter {
  const context = { ...(streams.input ? { input: streams.input } : {}), ...(streams.output ? { output: streams.output } : {}) };
  return {
    secret: (message) => password({ message, mask: true }, context),
    async confirm(message) {
      if (!(await confirm({ message, default: false }, context))) throw new CancelledError();
      return true;
    },
  };
}

export const inquirerPrompter: Prompter = promptOn({});

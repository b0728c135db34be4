// What a command may ask the person at the terminal, and the terminal's prompts, loaded when a
// command first asks. Only the two it uses are dependencies: @inquirer/prompts brings every prompt
// into the bundle, and the editor prompt's character-set converters alone are 540 KB.
import confirm from '@inquirer/confirm';
import password from '@inquirer/password';
import { CancelledError } from '../errors.js';

/**
 * Declared here, not in context.ts: the context loads this module when a command first asks, so the
 * type import points the same way and the two never import each other. A type import loads nothing.
 */
export interface Prompter {
  secret(message: string): Promise<string>;
  confirm(message: string): Promise<boolean>;
}

/** Where prompts read keys and draw: the process's own terminal unless given. */
export interface PromptStreams {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

/**
 * Prompts on a terminal. A confirmation answered "no" rejects, as Ctrl-C at it does: either way the
 * person stopped the command before it did anything, and the error handler gives that its exit code.
 */
export function promptOn(streams: PromptStreams, { color = true }: { color?: boolean } = {}): Prompter {
  const context = {
    ...(streams.input ? { input: streams.input } : {}),
    ...(streams.output ? { output: streams.output } : {}),
  };
  // Inquirer colours by NO_COLOR and the terminal alone: --no-color is one switch with NO_COLOR.
  const theme = color ? {} : { theme: PLAIN };
  return {
    secret: (message) => password({ message, mask: true, ...theme }, context),
    async confirm(message) {
      if (!(await confirm({ message, default: false, ...theme }, context))) throw new CancelledError();
      return true;
    },
  };
}

const same = (text: string) => text;
/** Inquirer's default theme (@inquirer/core's theme.js) without its colours: the same words and marks. */
const PLAIN = {
  prefix: { idle: '?', done: '✔' },
  style: {
    answer: same,
    message: same,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: same,
    highlight: same,
    key: (text: string) => `<${text}>`,
  },
};

/** The process's own terminal, coloured or not as the command line says. */
export const terminalPrompter = (color: boolean): Prompter => promptOn({}, { color });

// The terminal's prompts, loaded when a command first asks. Only the two it uses are dependencies:
// @inquirer/prompts brings every prompt into the bundle, and the editor prompt's character-set
// converters alone are 540 KB.
import confirm from '@inquirer/confirm';
import password from '@inquirer/password';
import type { Prompter } from './context.js';

export const inquirerPrompter: Prompter = {
  secret: (message) => password({ message, mask: true }),
  confirm: (message) => confirm({ message, default: false }),
};

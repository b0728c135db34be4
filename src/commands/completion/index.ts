import { loadModel, text, type CommandModel } from '../../model/command.js';
import { command } from '../../model/define.js';
import { UsageError } from '../../errors.js';

// Here rather than imported from src/commands/completion/scripts.ts, which only loads when a script is printed.
const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;

/** Made from the model, which it describes: a module of the registry cannot import the registry back. */
export const completionCommand = (model: CommandModel) =>
  command({
    name: 'completion',
    args: [{ name: 'shell' }],
    summary: 'Print a completion script: bash, zsh or fish',
    argChoices: { shell: SHELL_NAMES },
    examples: [
      'lms completion bash > /etc/bash_completion.d/lms',
      'lms completion zsh > "${fpath[1]}/_lms"',
      'lms completion fish > ~/.config/fish/completions/lms.fish',
    ],
    async run({ args }) {
      const { completionScript, SHELLS } = await import('./scripts.js');
      const shell = args[0] as (typeof SHELLS)[number];
      if (!SHELLS.includes(shell)) throw new UsageError(`shell must be one of ${SHELLS.join(', ')}, got "${args[0]}"`);
      return text(completionScript({ commands: await loadModel(model) }, shell));
    },
  });

import { text } from '../../cli/command.js';
import { command } from '../../cli/define.js';
import { UsageError } from '../../errors.js';

// Here rather than imported from src/cli/completion.ts, which only loads when a script is printed.
const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;

export const completionCommand = command({
  name: 'completion <shell>',
  summary: 'Print a completion script: bash, zsh or fish',
  argChoices: { shell: SHELL_NAMES },
  examples: ['lms completion bash > /etc/bash_completion.d/lms', 'lms completion zsh > "${fpath[1]}/_lms"', 'lms completion fish > ~/.config/fish/completions/lms.fish'],
  async run({ args, ctx }) {
    const { completionScript, SHELLS } = await import('../../cli/completion.js');
    const shell = args[0] as (typeof SHELLS)[number];
    if (!SHELLS.includes(shell)) throw new UsageError(`shell must be one of ${SHELLS.join(', ')}, got "${args[0]}"`);
    return text(completionScript(await ctx.commandTree(), shell));
  },
});

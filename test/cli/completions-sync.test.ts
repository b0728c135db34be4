// completions/ holds the generated scripts; `npm run generate` rewrites them when commands change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../src/commands/completion/scripts.js';
import { loadAllNouns } from '../../src/commands/index.js';

const files = { bash: 'lms.bash', zsh: '_lms', fish: 'lms.fish' } as const;
const commands = await loadAllNouns();

describe('completions/', () => {
  it.each(SHELLS.map((s) => [s]))(
    '%s script matches the command declarations (run `npm run generate` if not)',
    (shell) => {
      const committed = readFileSync(new URL(`../../completions/${files[shell]}`, import.meta.url), 'utf8');
      expect(
        committed,
        `completions/${files[shell]}: out of step with the commands; run \`npm run generate\` and commit what it ` +
          'writes',
      ).toBe(completionScript({ commands }, shell));
    },
  );
});

// completions/ holds the generated scripts; regenerate with `npm run completions` when commands change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../src/cli/completion.js';
import { buildProgram } from '../../src/cli/program.js';
import { fakeIO } from '../helpers/fake-io.js';

const files = { bash: 'lms.bash', zsh: '_lms', fish: 'lms.fish' } as const;

describe('completions/', () => {
  it.each(SHELLS.map((s) => [s]))('%s script matches the command tree (run `npm run completions` if not)', async (shell) => {
    const program = await buildProgram({ io: fakeIO(), env: {} }, { jsonErrors: false });
    const committed = readFileSync(new URL(`../../completions/${files[shell]}`, import.meta.url), 'utf8');
    expect(committed).toBe(completionScript(program, shell));
  });
});

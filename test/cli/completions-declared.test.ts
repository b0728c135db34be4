// `lms completion` writes its scripts from the command declarations, without a program: they are
// the committed scripts, which test/cli/completions-sync.test.ts holds to the program the command
// line parses with, so the declarations and the program describe the same command line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../src/cli/completion.js';
import { loadAllNouns } from '../../src/commands/index.js';

const files = { bash: 'lms.bash', zsh: '_lms', fish: 'lms.fish' } as const;
const commands = await loadAllNouns();

describe('completion scripts from the declarations', () => {
  it.each(SHELLS)('%s: the committed script', (shell) => {
    expect(completionScript({ commands }, shell)).toBe(readFileSync(new URL(`../../completions/${files[shell]}`, import.meta.url), 'utf8'));
  });
});

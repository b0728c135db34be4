// `npm run man` writes the pages from the command declarations, without a program: they are the
// committed pages, which test/cli/man.test.ts holds to the program the command line parses with,
// so the declarations and the program describe the same command line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { manPages } from '../../src/cli/man.js';
import { loadAllNouns } from '../../src/commands/index.js';

const pages = manPages({ commands: await loadAllNouns() });

describe('man pages from the declarations', () => {
  it.each(pages.map((page) => [page.file, page.text]))('%s: the committed page', (file, text) => {
    expect(text).toBe(readFileSync(new URL(`../../man/${file}`, import.meta.url), 'utf8'));
  });
});

// Declarations are data (src/model/command.ts, src/model/options.ts): a verb's arguments are a list,
// a flag's names and value are fields, and commander's syntax is written from them (usageOf,
// syntaxOf), never read back. A surface that parsed a declaration's text again would be a second
// reading of it that could drift from the first; this finds one wherever it is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, ROOT } from '../helpers/imports.js';

/** A declaration's text: a verb's or noun's name, a flag's names or value, or the syntax written from them. */
const DECLARATION = String.raw`(?:\b(?:spec|verb|command|noun|option|flag|o|c|f)\.(?:name|long|short|value)\b|\b(?:usageOf|syntaxOf)\([^)]*\))`;
/** That text taken apart: matched, split or searched. */
const PARSED = new RegExp(
  String.raw`${DECLARATION}\s*\.\s*(?:match|matchAll|split|search|replace|replaceAll|startsWith|endsWith|includes|indexOf)\(|\.(?:exec|test)\(\s*${DECLARATION}`,
);

describe('declarations are data', () => {
  const files = readTree().files.filter((f) => f.endsWith('.ts'));

  it('no file of src/ parses a declaration back out of text', () => {
    const found = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (PARSED.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('finds a parse where one is written', () => {
    for (const line of [
      'const args = [...spec.name.matchAll(/<([^>]+)>/g)];',
      'if (/^--no-/.test(option.long)) return;',
      "const word = verb.name.split(' ')[0];",
      'const [long] = syntaxOf(o).split(", ");',
    ]) {
      expect(PARSED.test(line), line).toBe(true);
    }
    expect(PARSED.test('const word = wordOf(spec);')).toBe(false);
  });
});

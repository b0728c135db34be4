// Lines of at most 120 characters in every tracked source, test, script and bench file, bin/lms and the CI script.
// Biome formats to that width but leaves comments and literals as written; this holds them too, for files written
// after it as well as before.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/imports.js';

const MAX = 120;

/** Files written by a program, with why their lines are the program's business. */
const GENERATED: Record<string, string> = {
  'src/mcp/result-shapes.ts':
    'written by scripts/mcp-shapes.mjs and formatted by Biome at this width; only a field name could be longer',
};

/**
 * Lines no mechanical rewrite shortens, counted per file: a regular expression literal or a String.raw pattern (cut,
 * it would no longer be one literal), a template literal whose substitutions hold the line's length, a literal whose
 * type is read (a route under `as const`, an object key). The count may only go down: a file past its count fails,
 * and so does one below it, so that the list shrinks as lines are mended.
 */
const KNOWN: Record<string, number> = {
  'bench/run.mjs': 1,
  'src/apply/render.ts': 2,
  'src/bulk/batches.ts': 1,
  'src/commands/mock/index.ts': 1,
  'src/commands/submissions/index.ts': 1,
  'src/mcp/fence.ts': 1,
  'src/mcp/pseudonyms.ts': 2,
  'src/mock/areas/users/handlers.ts': 1,
  'src/net.ts': 1,
  'src/spec/routes.ts': 1,
  'src/transport/proxy.ts': 2,
  'src/transport/trust.ts': 1,
  'test/apply/concurrent.test.ts': 1,
  'test/apply/export.test.ts': 1,
  'test/apply/people.test.ts': 1,
  'test/bulk/exits.test.ts': 1,
  'test/cli/precedence.test.ts': 7,
  'test/commands/doctor.test.ts': 14,
  'test/commands/examples.test.ts': 1,
  'test/commands/round-trips.test.ts': 3,
  'test/commands/user-ref.test.ts': 3,
  'test/e2e/audit.test.ts': 1,
  'test/e2e/doctor.test.ts': 1,
  'test/e2e/faults.test.ts': 1,
  'test/e2e/hostile-answers.test.ts': 1,
  'test/e2e/node-lines.test.ts': 1,
  'test/e2e/round-trips.test.ts': 1,
  'test/mcp/confirm.test.ts': 2,
  'test/mock/storage.test.ts': 1,
  'test/spec/declarations.test.ts': 2,
  'test/spec/layers.test.ts': 1,
  'test/transport/proxy.test.ts': 1,
};

const tracked = execFileSync(
  'git',
  ['ls-files', '-z', '*.ts', '*.mts', '*.js', '*.mjs', '*.cjs', 'bin/lms', '.ci/run'],
  {
    cwd: ROOT,
    encoding: 'utf8',
  },
)
  .split('\0')
  .filter(Boolean);

/** The long lines of a text, as `line: length`. */
function longLines(text: string, max = MAX): string[] {
  return text
    .split('\n')
    .map((line, i) => [i + 1, [...line].length] as const)
    .filter(([, length]) => length > max)
    .map(([n, length]) => `${n}: ${length}`);
}

describe('lines of at most 120 characters', () => {
  it('holds in every tracked source, test, script and bench file, bin/lms and .ci/run', () => {
    expect(tracked).toContain('bin/lms');
    expect(tracked).toContain('src/cli/program.ts');
    const over: Record<string, string[]> = {};
    const counts: Record<string, number> = {};
    for (const file of tracked) {
      if (Object.hasOwn(GENERATED, file)) continue;
      const long = longLines(readFileSync(join(ROOT, file), 'utf8'));
      if (long.length > 0) counts[file] = long.length;
      if (long.length > (KNOWN[file] ?? 0)) over[file] = long;
    }
    expect(over).toEqual({});
    expect(counts).toEqual(KNOWN);
  });

  it('names only files that exist and are tracked', () => {
    for (const file of [...Object.keys(GENERATED), ...Object.keys(KNOWN)]) expect(tracked).toContain(file);
  });

  it('counts characters, not bytes, and finds a line one past the limit', () => {
    expect(longLines(`${'x'.repeat(MAX)}\n${'é'.repeat(MAX)}\n`)).toEqual([]);
    expect(longLines(`ok\n${'y'.repeat(MAX + 1)}\n`)).toEqual([`2: ${MAX + 1}`]);
  });
});

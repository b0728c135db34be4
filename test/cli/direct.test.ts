// A plain command line runs its verb without commander (src/cli/direct.ts): what it hands the verb
// must be what commander would have, for every line it reads, and every line commander would refuse
// must go to commander. Held over every example of every verb, each also with global flags before
// the noun, after the verb and written with `=`, and over lines commander refuses.
import { describe, expect, it } from 'vitest';
import { argumentsOf, flagNames, flagsOf, isNoun, wordOf, type CommandSpec, type Verbs } from '../../src/cli/command.js';
import type { Runner } from '../../src/cli/command.js';
import { buildProgram, runPlainLine, type LineFacts, type RunnerOf } from '../../src/cli/program.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';

interface Handed {
  verb: string;
  args: unknown[];
  options: Record<string, unknown>;
  dryRun: unknown;
  globals: Record<string, unknown>;
  timeoutGiven: boolean;
  audit: unknown;
}

/** A runner factory that records what the verb would be handed, and runs nothing. */
function recorder(): { runnerOf: RunnerOf; handed: Handed[] } {
  const handed: Handed[] = [];
  const runnerOf: RunnerOf = (_deps, _state, facts: LineFacts): Runner => async (spec, given, dryRun, globals) => {
    handed.push({ verb: spec.name, args: given.args, options: { ...given.options }, dryRun, globals: { ...globals }, timeoutGiven: facts.timeoutGiven, audit: facts.audit });
  };
  return { runnerOf, handed };
}

async function byCommander(argv: string[]): Promise<Handed | Error> {
  const { runnerOf, handed } = recorder();
  try {
    const program = await buildProgram({ io: fakeIO(), env: {} }, { jsonErrors: false }, argv, runnerOf);
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    return error as Error;
  }
  return handed[0] ?? new Error('no verb ran');
}

async function direct(argv: string[]): Promise<Handed | undefined> {
  const { runnerOf, handed } = recorder();
  return (await runPlainLine({ io: fakeIO(), env: {} }, { jsonErrors: false }, argv, runnerOf)) ? handed[0] : undefined;
}

/** Every verb's examples as argument lists: those a shell would split on spaces alone. */
const examples: string[][] = [];
/** Every verb by its words, with its required arguments filled in, then each of its flags given once, with a value, with `=`, and with a value that looks like a flag. */
const synthetic: string[][] = [];
const walk = (verbs: Verbs, path: string[]) => {
  for (const spec of verbs) {
    if (isNoun(spec)) {
      walk(spec.commands, [...path, wordOf(spec)]);
      continue;
    }
    for (const line of spec.examples ?? []) if (/^lms [^'"`|<>$\\;&*]+$/.test(line)) examples.push(line.split(/\s+/).slice(1));
    const base = [...path, wordOf(spec), ...argumentsOf(spec).filter((a) => a.required).map((a) => spec.argChoices?.[a.name]?.[0] ?? '1')];
    synthetic.push(base);
    for (const flag of flagsOf(spec)) {
      const [long] = flagNames(flag);
      if (!/[<[]/.test(flag.flags)) {
        synthetic.push([...base, long], [...base, long, '--mock']);
        continue;
      }
      const value = flag.choices?.[0] ?? '2';
      synthetic.push([...base, long, value], [...base, `${long}=${value}`], [...base, long, '-v'], [...base, long, '-o', 'json'], [...base, long, value, long, value]);
    }
  }
};
walk(await loadAllNouns(), []);

/** Each example as written, and with global flags placed and written the other ways commander takes. */
const lines: string[][] = [...synthetic, ...synthetic.map((argv) => ['--mock', ...argv, '--no-input', '-y'])].concat(examples.flatMap((argv) => [
  argv,
  ['--mock', ...argv],
  ['-o', 'json', '--per-page=25', ...argv],
  [...argv, '--timeout', '5', '--no-color', '-v'],
  ['-p', 'prod', ...argv, '--fields=id,name', '--limit', '3'],
  [...argv, '--mock', '--no-mock'],
  [...argv, '-o', 'xml'],
  [...argv, '--limit', '0'],
  [...argv, '--timeout'],
  [...argv, '--unknown-flag'],
  [...argv, 'extra', 'words', 'here'],
  [...argv, '--help'],
]));

describe('a plain line read without commander', () => {
  it('reads most of the examples itself, so the comparison below is of something', async () => {
    let read = 0;
    for (const argv of examples) if (await direct(argv)) read++;
    expect(examples.length).toBeGreaterThan(150);
    expect(read / examples.length).toBeGreaterThan(0.5);
  });

  it('hands the verb what commander would, or leaves the line to commander', async () => {
    const differences: string[] = [];
    let compared = 0;
    for (const argv of lines) {
      const mine = await direct(argv);
      if (!mine) continue;
      compared++;
      const theirs = await byCommander(argv);
      if (theirs instanceof Error) differences.push(`${argv.join(' ')}: read, but commander refuses it (${theirs.message})`);
      else if (JSON.stringify(theirs) !== JSON.stringify(mine) && !equal(theirs, mine)) differences.push(`${argv.join(' ')}:\n  commander ${JSON.stringify(theirs)}\n  direct    ${JSON.stringify(mine)}`);
    }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(3000);
  });
});

function equal(a: Handed, b: Handed): boolean {
  try {
    expect(b).toEqual(a);
    return true;
  } catch {
    return false;
  }
}

it('names the verb the audit log records as commander does, by its name and not an alias', async () => {
  const argv = ['users', 'list', '--account', '1'];
  const mine = await direct(argv);
  expect(mine?.audit).toEqual({ surface: 'cli', verb: 'lms users list' });
  expect(await byCommander(argv)).toEqual(mine);
  // `wordOf` is what both read the verb's word from.
  expect(wordOf({ name: 'list [x]' } as CommandSpec<never>)).toBe('list');
});

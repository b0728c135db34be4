// Every number flag of the tree, refused alike: one value out of its range and one that is no number
// at all, each given on the command line, exit 2 with the message every number flag gives. The rows
// are checked against the loaded tree, so a number flag added without a row, or a flag that takes a
// count, a duration or a size but parses it by hand instead of declaring its type, fails here.
import { describe, expect, it } from 'vitest';
import { argumentsOf, type CommandSpec, type NounSpec } from '../../src/model/command.js';
import { check } from '../../src/model/invoke.js';
import { compileOptions, syntaxOf, type CompiledOption } from '../../src/model/options.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { session } from '../helpers/run-lms.js';

/** The verb's path, the flag, a value out of its range (a fraction where it has none), and what it must be. */
const NUMBERS: [string, string, string, string][] = [
  ['activity list', '--interval', '0', 'a number of seconds from 0.01 to 86400'],
  ['announcements create', '--points', '-1', 'a number of at least 0'],
  ['announcements update', '--points', '-1', 'a number of at least 0'],
  ['apply', '--concurrency', '33', 'a whole number from 1 to 32'],
  ['apply', '--lock-timeout', '-1', 'a number of seconds (0 or more)'],
  ['assignments create', '--points', '-1', 'a number of at least 0'],
  ['assignments update', '--points', '-0.5', 'a number of at least 0'],
  ['assignments create', '--assignment-group-id', '0', 'a whole number of at least 1'],
  ['assignments update', '--assignment-group-id', '1.5', 'a whole number of at least 1'],
  ['assignment-groups create', '--drop-lowest', '-1', 'a whole number of at least 0'],
  ['assignment-groups create', '--drop-highest', '0.5', 'a whole number of at least 0'],
  ['assignment-groups create', '--position', '0', 'a whole number of at least 1'],
  ['assignment-groups create', '--weight', 'heavy', 'a number'],
  ['assignment-groups update', '--drop-lowest', '1.5', 'a whole number of at least 0'],
  ['assignment-groups update', '--drop-highest', '-2', 'a whole number of at least 0'],
  ['assignment-groups update', '--position', 'first', 'a whole number of at least 1'],
  ['assignment-groups update', '--weight', 'x', 'a number'],
  ['diff', '--concurrency', '0', 'a whole number from 1 to 32'],
  ['enrollments import', '--concurrency', '33', 'a whole number from 1 to 32'],
  ['grade set', '--batch-size', '10001', 'a whole number from 1 to 10000'],
  ['grade set', '--concurrency', '0', 'a whole number from 1 to 32'],
  ['mock seed', '--courses', '100001', 'a whole number from 0 to 100000'],
  ['mock seed', '--users', '1000001', 'a whole number from 0 to 1000000'],
  ['mock serve', '--drop-rate', '1.5', 'a number from 0 to 1'],
  ['mock serve', '--fail-rate', '-0.1', 'a number from 0 to 1'],
  ['mock serve', '--fault-seed', '-1', 'a whole number of at least 0'],
  ['mock serve', '--latency', '-5', 'a number of milliseconds (0 or more)'],
  ['mock serve', '--max-body-size', '3g', 'a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m'],
  ['mock serve', '--max-upload-size', '0', 'a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m'],
  ['mock serve', '--port', '65536', 'a whole number from 0 to 65535'],
  ['mock serve', '--throttle-capacity', '-1', 'a number of at least 0'],
  ['mock serve', '--throttle-cost', '-1', 'a number of at least 0'],
  ['mock serve', '--throttle-penalty', '-1', 'a number of at least 0'],
  ['mock serve', '--throttle-rate', '-1', 'a number of at least 0'],
  ['modules create', '--position', '0', 'a whole number of at least 1'],
  ['modules items add', '--indent', '-1', 'a whole number of at least 0'],
  ['modules items add', '--min-score', '-1', 'a number of at least 0'],
  ['modules items add', '--position', '1.5', 'a whole number of at least 1'],
  ['modules items update', '--indent', '1.5', 'a whole number of at least 0'],
  ['modules items update', '--min-score', '-0.5', 'a number of at least 0'],
  ['modules items update', '--position', '0', 'a whole number of at least 1'],
  ['modules update', '--position', '-2', 'a whole number of at least 1'],
  ['outcomes create', '--calculation-int', '-1', 'a number of at least 0'],
  ['outcomes create', '--mastery-points', '-0.5', 'a number of at least 0'],
  ['outcomes import', '--concurrency', '33', 'a whole number from 1 to 32'],
  ['quizzes create', '--allowed-attempts', '1.5', 'a whole number'],
  ['quizzes create', '--assignment-group-id', '2.5', 'a whole number'],
  ['quizzes create', '--time-limit', '30.5', 'a whole number'],
  ['quizzes update', '--allowed-attempts', '1.5', 'a whole number'],
  ['quizzes update', '--assignment-group-id', '2.5', 'a whole number'],
  ['quizzes update', '--time-limit', '30.5', 'a whole number'],
  ['sis import', '--change-threshold', '101', 'a whole number from 0 to 100'],
  ['topics create', '--points', '-1', 'a number of at least 0'],
  ['topics update', '--points', '-1', 'a number of at least 0'],
  ['courses import', '--concurrency', '0', 'a whole number from 1 to 32'],
  ['sections import', '--concurrency', '33', 'a whole number from 1 to 32'],
  ['users import', '--concurrency', '0', 'a whole number from 1 to 32'],
];

/** The flags of the program itself, given before a verb. */
const GLOBAL_NUMBERS: [string, string, string][] = [
  ['--limit', '0', 'a whole number of at least 1'],
  ['--per-page', '101', 'a whole number from 1 to 100'],
  ['--timeout', '3601', 'a whole number of seconds from 1 to 3600'],
];

/**
 * A value placeholder that names a count, a duration, a rate or a size: a flag with one takes a
 * number, and says so by its type rather than by a parser of its own. (`<id>` is not a number:
 * ids may be SIS forms or longer than a double holds.)
 */
const NUMBER_PLACEHOLDER = /^(n|m|count|seconds|minutes|ms|p|size|units-per-second|bytes|port)$/;

interface Verb {
  path: string;
  spec: CommandSpec<never>;
}

async function allVerbs(): Promise<Verb[]> {
  const verbs: Verb[] = [];
  const walk = (node: NounSpec | CommandSpec<never>, path: string[]) => {
    if ('commands' in node) for (const child of node.commands) walk(child, [...path, node.name]);
    else verbs.push({ path: [...path, node.name].join(' '), spec: node });
  };
  for (const node of await loadAllNouns()) walk(node, []);
  return verbs;
}

const isNumber = (o: CompiledOption) => o.type === 'integer' || o.type === 'number' || o.type === 'size';

/** What the verb requires besides the flag: its arguments, and its required options with a value each. */
function needs(
  spec: CommandSpec<never>,
  flag: string,
): { args: string[]; required: CompiledOption[]; valueFor: (o: CompiledOption) => string } {
  const args = argumentsOf(spec)
    .filter((a) => a.required)
    .map((a) => spec.argChoices?.[a.name]?.[0] ?? '1');
  const required = compileOptions(spec.options).filter((o) => o.spec.required && o.long !== flag);
  return { args, required, valueFor: (o) => o.spec.choices?.[0] ?? '1' };
}

describe('every number flag', async () => {
  const verbs = await allVerbs();
  const byPath = new Map(verbs.map((v) => [v.path, v]));

  it('has a row, and every flag that takes a count, a duration or a size declares a number type', () => {
    const declared = verbs.flatMap(({ path, spec }) =>
      compileOptions(spec.options)
        .filter(isNumber)
        .map((o) => `${path} ${o.long}`),
    );
    expect(declared.sort()).toEqual(NUMBERS.map(([path, flag]) => `${path} ${flag}`).sort());
    const byHand = verbs.flatMap(({ path, spec }) =>
      compileOptions(spec.options)
        .filter((o) => !isNumber(o) && NUMBER_PLACEHOLDER.test(o.spec.value ?? ''))
        .map((o) => `${path} ${syntaxOf(o.spec)}`),
    );
    expect(byHand).toEqual([]);
  });

  it.each(NUMBERS)(
    '%s %s: out of range and no number, exit 2 with the common message',
    async (path, flag, outOfRange, what) => {
      const verb = byPath.get(path)!;
      expect(verb, path).toBeDefined();
      const lms = session();
      const { args, required, valueFor } = needs(verb.spec, flag);
      const option = compileOptions(verb.spec.options).find((o) => o.long === flag)!;
      for (const value of [outOfRange, 'lots']) {
        const message = `${flag} must be ${what}, not "${value}"`;
        const r = await lms.run([
          ...path.split(' '),
          ...args,
          ...required.flatMap((o) => [o.long, valueFor(o)]),
          `${flag}=${value}`,
        ]);
        expect({ exitCode: r.exitCode, stderr: r.stderr, stdout: r.stdout }).toEqual({
          exitCode: 2,
          stderr: `error: ${message}\n`,
          stdout: '',
        });
        // What apply and lms mcp hand over, checked by the same call: the same value, the same refusal.
        const options = {
          ...Object.fromEntries(required.map((o) => [o.attribute, valueFor(o)])),
          [option.attribute]: value,
        };
        expect(() => check(verb.spec, { args, options }), `${path} ${flag}=${value}`).toThrow(
          expect.objectContaining({ message, exitCode: 2 }),
        );
      }
    },
  );

  it.each(GLOBAL_NUMBERS)(
    'the global %s: out of range and no number, exit 2 with the common message',
    async (flag, outOfRange, what) => {
      const lms = session();
      for (const value of [outOfRange, 'lots']) {
        const r = await lms.run(['users', 'list', '--account', '1', `${flag}=${value}`]);
        expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({
          exitCode: 2,
          stderr: `error: ${flag} must be ${what}, not "${value}"\n`,
        });
      }
    },
  );
});

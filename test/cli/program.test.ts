// The command tree loads only the noun a run names; what a user sees must not change because of it.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { isNoun, wordOf, type Verbs } from '../../src/model/command.js';
import { run } from '../../src/cli/entry.js';
import { buildProgram } from '../../src/cli/program.js';
import { lazyNouns, loadAllNouns, topLevelCommands, topLevelNames } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';

describe('lazy nouns', () => {
  it('lists every noun with its summary in lms --help', async () => {
    const r = await session().run('--help');
    expect(r.exitCode).toBe(0);
    for (const noun of lazyNouns)
      expect(r.stdout).toMatch(
        new RegExp(`\\n\\s+${noun.name}\\b.*${noun.summary.slice(0, 20).replace(/[()]/g, '.')}`),
      );
    expect(r.stdout).toContain('completion');
  });

  it.each([
    ['global options with values before the noun', ['-o', 'json', '--fields', 'id', 'users', 'get', '7']],
    ['an option written with =', ['--output=json', '--fields=id', 'users', 'get', '7']],
    ['options after the verb', ['users', 'get', '7', '-o', 'json', '--fields', 'id']],
  ])('finds the noun after %s', async (_what, argv) => {
    const r = await session().run(argv);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: 7 });
  });

  it('suggests the right noun for a typo', async () => {
    const r = await session().run('usres list');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('users');
  });

  // As gh has it: a noun given no verb (or lms given no noun) was asked for its help, on stdout, exit 0.
  it.each([
    ['lms alone', '', 'Usage: lms [options] [command]'],
    ['global flags alone', '--mock -o json', 'Usage: lms [options] [command]'],
    ['a noun alone', 'users', 'Usage: lms users [options] [command]'],
    ['a nested noun alone', 'outcomes groups', 'Usage: lms outcomes groups [options] [command]'],
  ])('prints the help of %s on stdout, exit 0', async (_what, line, usage) => {
    const r = await session().run(line === '' ? [] : line.split(' '));
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.stdout.startsWith(`${usage}\n`)).toBe(true);
    expect(r.stdout).toBe((await session().run([...(line === '' ? [] : line.split(' ')), '--help'])).stdout);
  });

  it("shows a noun's verbs in its help", async () => {
    const r = await session().run('users --help');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('import [options] <file>');
  });
});

/** Every noun and nested noun, by its words. */
const nouns: string[][] = [];
const walk = (verbs: Verbs, path: string[]) => {
  for (const spec of verbs) {
    if (!isNoun(spec)) continue;
    nouns.push([...path, wordOf(spec)]);
    walk(spec.commands, [...path, wordOf(spec)]);
  }
};
walk(await loadAllNouns(), []);

describe('a run of one verb', () => {
  /** The commander command at a path of words, in a program built for `argv` (undefined: the whole tree). */
  async function commandAt(path: string[], argv?: string[]): Promise<Command> {
    let cmd = await buildProgram({ io: fakeIO(), env: {} }, { jsonErrors: false }, argv);
    for (const word of path) cmd = cmd.commands.find((c) => c.name() === word)!;
    return cmd;
  }

  // The verbs a run does not name are outlined: the noun's help, and the verbs commander offers for
  // a typo, are those of the whole tree.
  it.each(nouns.map((path) => [path.join(' '), path]))("lists %s's verbs as the whole tree does", async (_, path) => {
    const whole = await commandAt(path);
    // Its help, a mistyped verb, and a verb after an option (commander reads the noun's options first).
    for (const argv of [
      [...path, '--help'],
      [...path, 'no-such-verb'],
      [...path, '-o', 'json', whole.commands[0].name()],
    ]) {
      const one = await commandAt(path, argv);
      expect(one.helpInformation(), argv.join(' ')).toBe(whole.helpInformation());
      expect(
        one.commands.flatMap((c) => [c.name(), ...c.aliases()]),
        argv.join(' '),
      ).toEqual(whole.commands.flatMap((c) => [c.name(), ...c.aliases()]));
    }
  });

  it(
    'lists the nouns and top-level commands as the whole ' + 'tree does, whichever top-level command it names',
    async () => {
      const whole = await commandAt([]);
      for (const argv of [['--help'], ['version'], ['completion', 'bash']])
        expect((await commandAt([], argv)).helpInformation(), argv.join(' ')).toBe(whole.helpInformation());
    },
  );

  it('names the top-level commands as they are declared', () => {
    expect(topLevelCommands().map(wordOf)).toEqual(topLevelNames);
  });

  it('registers in full only the verbs its words name, and the default verb', async () => {
    const users = await commandAt(['users'], ['users', '-o', 'json', 'ls', '--account', '1']);
    const list = users.commands.find((c) => c.name() === 'list')!;
    expect(list.options.map((o) => o.long)).toEqual(['--account', '--search']);
    expect(users.commands.find((c) => c.name() === 'create')!.options).toHaveLength(1);
    const grade = await commandAt(['grade'], ['grade', '--course', '1']);
    expect(grade.commands.find((c) => c.name() === 'set')!.options.length).toBeGreaterThan(1);
  });

  // Commander hands the run to that verb before it reads anything else of the noun.
  it('registers only the verb named right after its noun, and the default verb', async () => {
    const users = await commandAt(['users'], ['users', 'ls', '--account', '1']);
    expect(users.commands.map((c) => c.name())).toEqual(['list']);
    expect(users.commands[0].options.map((o) => o.long)).toEqual(['--account', '--search']);
    const grade = await commandAt(['grade'], ['grade', 'export', '--course', '1']);
    expect(grade.commands.map((c) => c.name()).sort()).toEqual(['export', 'set']);
  });

  it.each([
    [
      'an unknown option of the verb',
      'users ls --acount 1',
      2,
      "error: unknown option '--acount'\nhint: did you mean --account?",
    ],
    ['a missing argument', 'users delete', 2, "missing required argument 'id'"],
    ['a choice of the verb', 'users upload x --on-duplicate keep', 2, "argument 'keep' is invalid"],
    ['its help', 'users ls --help', 0, 'Usage: lms users list|ls [options]'],
  ])('answers %s as before', async (_what, line, code, said) => {
    const r = await session().run(line);
    expect(r.exitCode).toBe(code);
    expect(r.stdout + r.stderr).toContain(said);
  });
});

describe('standard input', () => {
  it('is not touched by a command that reads nothing from it (building process.stdin costs every run)', async () => {
    const io = fakeIO();
    let reads = 0;
    const { stdin } = io;
    Object.defineProperty(io, 'stdin', {
      enumerable: true,
      get: () => {
        reads++;
        return stdin;
      },
    });
    const lms = session();
    expect(
      await run(['users', 'get', '7', '-o', 'json'], {
        io,
        env: { LMS_MOCK: '1' },
        mock: lms.mock,
        configDir: lms.configDir,
      }),
    ).toBe(0);
    expect(JSON.parse(io.stdoutText())).toMatchObject({ id: 7 });
    expect(reads).toBe(0);
  });
});

describe("a noun's help", () => {
  it.each([
    ['grade', 'set', '--csv <file>', 'lms grade --course 1 --assignment 1 --csv grades.csv --dry-run'],
    ['todo', 'list', '-h, --help', 'lms todo --as-user 3'],
  ])(
    'of %s shows the options and examples of the verb it runs by default (%s)',
    async (noun, verb, option, example) => {
      const r = await session().run(`${noun} --help`);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`Without a command, \`lms ${noun}\` runs \`lms ${noun} ${verb}\`:`);
      expect(r.stdout).toContain(option);
      expect(r.stdout).toContain(`$ ${example}`);
    },
  );

  it('of a noun without a default verb lists its verbs only', async () => {
    const r = await session().run('users --help');
    expect(r.stdout).not.toContain('Without a command');
  });
});

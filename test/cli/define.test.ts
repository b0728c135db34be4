import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CommandSpec } from '../../src/model/command.js';
import { register } from '../../src/cli/commander-tree.js';
import { checkDeclaration, command, contextFlags } from '../../src/model/define.js';
import { check } from '../../src/model/invoke.js';
import { declaredVerbs } from '../helpers/verbs.js';

/** Parses argv with one command registered, and returns what its run received. */
async function parse(spec: CommandSpec<never>, argv: string[]): Promise<Record<string, unknown>> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  let received: Record<string, unknown> = {};
  register(program, spec, async (_spec, given) => {
    received = check(spec, given).opts;
  });
  await program.parseAsync(argv, { from: 'user' });
  return received;
}

describe('command()', () => {
  it('types opts from the declaration', () => {
    const spec = command({
      name: 'x',
      summary: 'x',
      options: {
        account: { ...contextFlags.account, default: 'self' },
        loginId: { long: 'login-id', value: 'login', description: 'l', required: true },
        search: { long: 'search', value: 'term', description: 's' },
        state: { long: 'state', value: 'state', description: 's', repeatable: true, choices: ['active', 'invited'] },
        field: { short: 'f', long: 'field', value: 'kv', description: 'f', repeatable: true },
        kind: { long: 'kind', value: 'k', description: 'k', choices: ['a', 'b'] },
        dryRun: { long: 'dry-run', description: 'd' },
        notify: { long: 'notify', negated: true, description: 'n' },
        concurrency: {
          long: 'concurrency',
          value: 'n',
          description: 'c',
          type: 'integer',
          min: 1,
          max: 32,
          default: '4',
        },
        wait: { long: 'wait', value: 'seconds', description: 'w', type: 'number' },
      },
      async run() {
        return undefined;
      },
    });
    type Opts = Parameters<typeof spec.run>[0]['opts'];
    expectTypeOf<Opts['concurrency']>().toEqualTypeOf<number>();
    expectTypeOf<Opts['wait']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Opts['account']>().toEqualTypeOf<string>();
    expectTypeOf<Opts['loginId']>().toEqualTypeOf<string>();
    expectTypeOf<Opts['search']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Opts['state']>().toEqualTypeOf<('active' | 'invited')[] | undefined>();
    expectTypeOf<Opts['field']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Opts['kind']>().toEqualTypeOf<'a' | 'b' | undefined>();
    expectTypeOf<Opts['dryRun']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Opts['notify']>().toEqualTypeOf<boolean>();
  });

  it('refuses a key that is not the name commander reads the flag as', () => {
    expect(() =>
      checkDeclaration(
        command({
          name: 'x',
          summary: 'x',
          options: { login: { long: 'login-id', value: 'l', description: 'l' } },
          run: async () => undefined,
        }) as CommandSpec<never>,
      ),
    ).toThrow('command "x": option "login" is declared as "--login-id <l>", which is read as "loginId"');
  });

  it('hands a number option to the verb as a number, its default too', async () => {
    const spec = command({
      name: 'x',
      summary: 'x',
      options: {
        concurrency: {
          long: 'concurrency',
          value: 'n',
          description: 'c',
          type: 'integer',
          min: 1,
          max: 32,
          default: '4',
        },
        wait: { long: 'wait', value: 's', description: 'w', type: 'number' },
      },
      run: async () => undefined,
    }) as CommandSpec<never>;
    expect(await parse(spec, ['x'])).toEqual({ concurrency: 4 });
    expect(await parse(spec, ['x', '--concurrency', '8', '--wait', '0.5'])).toEqual({ concurrency: 8, wait: 0.5 });
    await expect(parse(spec, ['x', '--concurrency', '33'])).rejects.toThrow(
      '--concurrency must be a whole number from 1 to 32, not "33"',
    );
  });

  it('refuses a repeatable flag that takes no value', () => {
    expect(() =>
      checkDeclaration(
        command({
          name: 'x',
          summary: 'x',
          options: { all: { long: 'all', description: 'a', repeatable: true } },
          run: async () => undefined,
        }) as CommandSpec<never>,
      ),
    ).toThrow('command "x": option "--all": is repeatable but takes no value');
  });

  it('refuses choices for an argument the command does not have', () => {
    expect(() =>
      checkDeclaration(
        command({
          name: 'completion',
          args: [{ name: 'shell' }],
          summary: 'x',
          argChoices: { shel: ['bash'] },
          run: async () => undefined,
        }) as CommandSpec<never>,
      ),
    ).toThrow('command "completion": argChoices names "shel", which is not one of its arguments (shell)');
    expect(() =>
      checkDeclaration(
        command({
          name: 'get',
          args: [{ name: 'id', optional: true }],
          summary: 'x',
          argIds: { user: 'user' },
          run: async () => undefined,
        }) as CommandSpec<never>,
      ),
    ).toThrow('command "get": argIds names "user", which is not one of its arguments (id)');
    expect(() =>
      checkDeclaration(
        command({
          name: 'show',
          args: [{ name: 'profile', optional: true }],
          summary: 'x',
          argChoices: { profile: ['a'] },
          run: async () => undefined,
        }) as CommandSpec<never>,
      ),
    ).not.toThrow();
  });

  it('collects a repeatable flag and checks each value against its choices', async () => {
    const spec = command({
      name: 'x',
      summary: 'x',
      options: {
        state: { long: 'state', value: 's', description: 's', repeatable: true, choices: ['active', 'invited'] },
      },
      run: async () => undefined,
    }) as CommandSpec<never>;
    expect(await parse(spec, ['x', '--state', 'active', '--state', 'invited'])).toEqual({
      state: ['active', 'invited'],
    });
    await expect(parse(spec, ['x', '--state', 'active', '--state', 'gone'])).rejects.toThrow(
      "option '--state <s>' argument 'gone' is invalid. Allowed choices are active, invited.",
    );
  });
});

describe('every verb of the tree', () => {
  // Declaring a verb compiles none of its options (a run would pay for every verb of its noun), so
  // this is where a declaration that contradicts itself fails.
  it(
    'is declared as it is read: its options compile, each key is its attribute, its argument records name its ' +
      'arguments',
    async () => {
      const verbs = await declaredVerbs();
      expect(verbs.length).toBeGreaterThan(100);
      for (const { spec } of verbs) checkDeclaration(spec);
      expect(
        verbs
          .filter(({ spec }) => spec.options?.length)
          .every(({ spec }) => spec.optionKeys?.length === spec.options!.length),
      ).toBe(true);
    },
  );
});

describe('every option of the tree', () => {
  it('says its default once: a declared default is not repeated in the description', async () => {
    const { buildProgram } = await import('../../src/cli/program.js');
    const { fakeIO } = await import('../helpers/fake-io.js');
    const program = await buildProgram({ io: fakeIO(), env: {} }, { jsonErrors: false });
    const twice: string[] = [];
    const walk = (cmd: Command, path: string) => {
      for (const option of cmd.options)
        if (option.defaultValue !== undefined && /default/i.test(option.description))
          twice.push(`${path} ${option.long}`);
      for (const sub of cmd.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(program, 'lms');
    expect(twice).toEqual([]);
  });
});

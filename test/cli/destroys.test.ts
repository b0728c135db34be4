// Which flag values destroy is read off the flag's declaration, for every surface alike.
import { describe, expect, it } from 'vitest';
import { destroyingOptions, destroysWith, type OptionSpec } from '../../src/model/command.js';
import { stateFlag } from '../../src/commands/enrollments/state.js';

const sync: OptionSpec = {
  long: 'sync',
  description: 'also conclude who is not listed',
  destroys: true,
  asksItself: true,
};
const events: OptionSpec = {
  long: 'event',
  value: 'e',
  description: 'what to do',
  destroys: ['destroy'],
  repeatable: true,
};
const plain: OptionSpec = { long: 'name', value: 'n', description: 'a name' };

describe('destroysWith', () => {
  it.each([
    [stateFlag, 'inactive', true],
    [stateFlag, 'active', false],
    [stateFlag, 'invited', false],
    [stateFlag, undefined, false],
    [stateFlag, '', false],
    [sync, true, true],
    [sync, false, false],
    [sync, undefined, false],
    [events, ['mark_as_read', 'destroy'], true],
    [events, ['mark_as_read'], false],
    [plain, 'inactive', false],
  ] as const)('%o with %o: %s', (option, value, expected) => {
    expect(destroysWith(option, value)).toBe(expected);
  });
});

describe('the enrollment state', () => {
  it('destroys with inactive, the only state that ends access an enrollment can be given', () => {
    expect(stateFlag.choices.filter((s) => destroysWith(stateFlag, s))).toEqual(['inactive']);
  });
});

describe('destroyingOptions', () => {
  it.each([
    [{ state: 'inactive', user: '7' }, ['--state inactive']],
    [{ state: 'active' }, []],
    [{ sync: true, state: 'inactive' }, ['--state inactive', '--sync']],
    [{ event: ['destroy'] }, ['--event destroy']],
    [{}, []],
  ])('%o: %o', (opts, said) => {
    const spec = { options: [stateFlag, sync, events, plain] };
    expect(destroyingOptions(spec, opts).map((d) => d.said)).toEqual(said);
  });
});

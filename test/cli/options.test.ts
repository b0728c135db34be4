// The option model: every verb's flags compile, each to the kind and type its declaration says, and
// a number option's value is coerced (or refused, in one message) by one function every surface uses.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { flagsOf } from '../../src/model/command.js';
import { commanderOption } from '../../src/cli/commander-tree.js';
import { createContext, type Deps, type GlobalOptions } from '../../src/model/context.js';
import { coerceValue, compileOption, compileOptions, syntaxOf, type OptionSpec } from '../../src/model/options.js';
import { callTool, newCursorKey } from '../../src/mcp/call.js';
import { toolsOf } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW, session } from '../helpers/run-lms.js';
import { declaredVerbs, type DeclaredVerb } from '../helpers/verbs.js';

let verbs: DeclaredVerb[];

beforeAll(async () => {
  verbs = await declaredVerbs();
});

describe('compiling an option', () => {
  it.each<[string, OptionSpec, Partial<ReturnType<typeof compileOption>>]>([
    [
      'a switch',
      { short: 'y', long: 'yes', description: '' },
      { attribute: 'yes', long: '--yes', kind: 'switch', type: 'boolean' },
    ],
    [
      'a negated switch',
      { long: 'notify', negated: true, description: '' },
      { attribute: 'notify', long: '--no-notify', kind: 'negated', type: 'boolean', default: true },
    ],
    [
      'a value',
      { long: 'login-id', value: 'login', description: '' },
      { attribute: 'loginId', kind: 'value', type: 'string' },
    ],
    [
      'an optional value',
      { long: 'level', value: 'n', valueOptional: true, description: '' },
      { kind: 'value', type: 'string' },
    ],
    [
      'a value with choices',
      { long: 'state', value: 's', description: '', choices: ['a', 'b'] },
      { kind: 'value', type: 'enum' },
    ],
    [
      'a list',
      { short: 'f', long: 'field', value: 'kv', description: '', repeatable: true },
      { attribute: 'field', kind: 'list', type: 'string' },
    ],
    [
      'a list of choices',
      { long: 'state', value: 's', description: '', repeatable: true, choices: ['a'] },
      { kind: 'list', type: 'enum' },
    ],
    [
      'an integer with a default',
      { long: 'concurrency', value: 'n', description: '', type: 'integer', min: 1, max: 32, default: '4' },
      { kind: 'value', type: 'integer', min: 1, max: 32, default: 4 },
    ],
    [
      'a number',
      { long: 'lock-timeout', value: 'seconds', description: '', type: 'number', min: 0, default: '300' },
      { kind: 'value', type: 'number', min: 0, default: 300 },
    ],
    [
      'a --no- in the middle of a name is no negation',
      { long: 'know-no-one', value: 'x', description: '' },
      { attribute: 'knowNoOne', kind: 'value' },
    ],
  ])('%s', (_, spec, expected) => {
    const compiled = compileOption(spec);
    expect(compiled).toMatchObject(expected);
    expect(compileOption(spec)).toBe(compiled);
  });

  it.each<[string, OptionSpec, string]>([
    ['a repeatable switch', { long: 'all', description: '', repeatable: true }, 'is repeatable but takes no value'],
    ['a number switch', { long: 'all', description: '', type: 'integer' }, 'is a switch, which cannot be a integer'],
    [
      'a number list',
      { long: 'n', value: 'n', description: '', type: 'integer', repeatable: true },
      'is a list, which cannot be a integer',
    ],
    [
      'a number with choices',
      { long: 'n', value: 'n', description: '', type: 'integer', choices: ['1'] },
      'has choices',
    ],
    [
      'a range without a type',
      { long: 'n', value: 'n', description: '', min: 1 },
      'has a range or unit but no number type',
    ],
    [
      'a type its field contradicts',
      { long: 'n', value: 'n', description: '', type: 'integer', field: { name: 'n', type: 'number' } },
      'is a integer, but its field n is a number',
    ],
    [
      'a default out of range',
      { long: 'n', value: 'n', description: '', type: 'integer', min: 1, max: 3, default: '4' },
      'its default is refused: --n must be a whole number from 1 to 3, not "4"',
    ],
  ])('refuses %s', (_, spec, message) => {
    expect(() => compileOption(spec)).toThrow(message);
  });

  it('compiles every option of every verb as commander reads its flags', () => {
    expect(verbs.length).toBeGreaterThan(100);
    for (const { path, spec } of verbs) {
      // The options as the command line registers them.
      const registered = flagsOf(spec).map(commanderOption);
      for (const option of compileOptions(spec.options)) {
        const where = `${path.join(' ')} ${syntaxOf(option.spec)}`;
        const built = registered.find((o) => o.flags === syntaxOf(option.spec))!;
        expect(built, where).toBeDefined();
        expect(option.attribute, where).toBe(built.attributeName());
        expect(option.long, where).toBe(built.long);
        expect(option.kind === 'negated', where).toBe(built.negate);
        expect(option.kind === 'value' || option.kind === 'list', where).toBe(built.required || built.optional);
      }
    }
  });

  it('declares every --concurrency a whole number from 1 to 32, and the other counts as numbers', () => {
    const numbers = new Map<string, string>();
    for (const { path, spec } of verbs) {
      for (const o of compileOptions(spec.options))
        if (o.type === 'integer' || o.type === 'number')
          numbers.set(`${path.join(' ')} ${o.long}`, `${o.type} ${o.min}-${o.max ?? ''} ${String(o.default)}`);
    }
    for (const [where, declared] of numbers)
      if (where.endsWith('--concurrency')) expect(declared, where).toBe('integer 1-32 4');
    expect(Object.fromEntries([...numbers].filter(([where]) => !where.endsWith('--concurrency')))).toEqual({
      'activity list --interval': 'number 0.01-86400 undefined',
      'announcements create --points': 'number 0- undefined',
      'announcements update --points': 'number 0- undefined',
      'apply --lock-timeout': 'number 0- 300',
      'assignment-groups create --drop-highest': 'integer 0- undefined',
      'assignment-groups create --drop-lowest': 'integer 0- undefined',
      'assignment-groups create --position': 'integer 1- undefined',
      'assignment-groups create --weight': 'number undefined- undefined',
      'assignment-groups update --drop-highest': 'integer 0- undefined',
      'assignment-groups update --drop-lowest': 'integer 0- undefined',
      'assignment-groups update --position': 'integer 1- undefined',
      'assignment-groups update --weight': 'number undefined- undefined',
      'assignments create --assignment-group-id': 'integer 1- undefined',
      'assignments create --points': 'number 0- undefined',
      'assignments update --assignment-group-id': 'integer 1- undefined',
      'assignments update --points': 'number 0- undefined',
      'grade set --batch-size': 'integer 1-10000 1000',
      'mock seed --courses': 'integer 0-100000 undefined',
      'mock seed --users': 'integer 0-1000000 undefined',
      'mock serve --drop-rate': 'number 0-1 undefined',
      'mock serve --fail-rate': 'number 0-1 undefined',
      'mock serve --fault-seed': 'integer 0- undefined',
      'mock serve --latency': 'number 0- undefined',
      'mock serve --port': 'integer 0-65535 4010',
      'mock serve --throttle-capacity': 'number 0- undefined',
      'mock serve --throttle-cost': 'number 0- undefined',
      'mock serve --throttle-penalty': 'number 0- undefined',
      'mock serve --throttle-rate': 'number 0- undefined',
      'modules create --position': 'integer 1- undefined',
      'modules items add --indent': 'integer 0- undefined',
      'modules items add --min-score': 'number 0- undefined',
      'modules items add --position': 'integer 1- undefined',
      'modules items update --indent': 'integer 0- undefined',
      'modules items update --min-score': 'number 0- undefined',
      'modules items update --position': 'integer 1- undefined',
      'modules update --position': 'integer 1- undefined',
      'outcomes create --calculation-int': 'number 0- undefined',
      'outcomes create --mastery-points': 'number 0- undefined',
      'quizzes create --allowed-attempts': 'integer undefined- undefined',
      'quizzes create --assignment-group-id': 'integer undefined- undefined',
      'quizzes create --time-limit': 'integer undefined- undefined',
      'quizzes update --allowed-attempts': 'integer undefined- undefined',
      'quizzes update --assignment-group-id': 'integer undefined- undefined',
      'quizzes update --time-limit': 'integer undefined- undefined',
      'sis import --change-threshold': 'integer 0-100 undefined',
      'topics create --points': 'number 0- undefined',
      'topics update --points': 'number 0- undefined',
    });
    expect([...numbers.keys()].filter((w) => w.endsWith('--concurrency')).sort()).toEqual([
      'apply --concurrency',
      'courses import --concurrency',
      'diff --concurrency',
      'enrollments import --concurrency',
      'grade set --concurrency',
      'outcomes import --concurrency',
      'sections import --concurrency',
      'users import --concurrency',
    ]);
  });
});

describe('coercing a value', () => {
  const int = compileOption({ long: 'concurrency', value: 'n', description: '', type: 'integer', min: 1, max: 32 });
  const wait = compileOption({
    long: 'lock-timeout',
    value: 'seconds',
    description: '',
    type: 'number',
    min: 0,
    unit: 'seconds',
  });
  const any = compileOption({ long: 'offset', value: 'n', description: '', type: 'integer' });
  const text = compileOption({ long: 'name', value: 'n', description: '' });
  const size = compileOption({
    long: 'max-body-size',
    value: 'size',
    description: '',
    type: 'size',
    min: 1,
    max: 2 * 1024 ** 3,
  });
  const minutes = compileOption({
    long: 'time-limit',
    value: 'minutes',
    description: '',
    type: 'integer',
    field: { name: 'time_limit', type: 'integer', clears: true },
  });

  it.each<[string, ReturnType<typeof compileOption>, unknown, number | null]>([
    ['the lower edge', int, '1', 1],
    ['the upper edge', int, '32', 32],
    ['spaces around it', int, ' 8 ', 8],
    ['a number a tool sends', int, 8, 8],
    ['a number as text a tool sends', int, '8', 8],
    ['a negative integer with no range', any, '-3', -3],
    ['a fraction', wait, '0.5', 0.5],
    ['zero seconds', wait, '0', 0],
    ['a whole number of seconds', wait, '300', 300],
    ['bytes', size, '1048576', 1048576],
    ['kibibytes', size, '512k', 512 * 1024],
    ['a fraction of a mebibyte, rounded down to a byte', size, '1.5MiB', 1.5 * 1024 ** 2],
    ['the largest size', size, '2g', 2 * 1024 ** 3],
    ['a number of bytes a tool sends', size, 10, 10],
    ['"" for a field it clears, as null', minutes, '', null],
  ])('takes %s', (_, option, value, expected) => {
    expect(coerceValue(option, value)).toBe(expected);
  });

  it.each<[string, ReturnType<typeof compileOption>, unknown, string]>([
    ['a word', int, 'lots', '--concurrency must be a whole number from 1 to 32, not "lots"'],
    ['nothing', int, '', '--concurrency must be a whole number from 1 to 32, not ""'],
    ['below the range', int, '0', '--concurrency must be a whole number from 1 to 32, not "0"'],
    ['above the range', int, '33', '--concurrency must be a whole number from 1 to 32, not "33"'],
    ['a number above the range, from a tool', int, 40, '--concurrency must be a whole number from 1 to 32, not "40"'],
    ['a fraction for a whole number', int, '1.5', '--concurrency must be a whole number from 1 to 32, not "1.5"'],
    ['hexadecimal', int, '0x10', '--concurrency must be a whole number from 1 to 32, not "0x10"'],
    ['an exponent', int, '1e1', '--concurrency must be a whole number from 1 to 32, not "1e1"'],
    ['a boolean, from a tool', int, true, '--concurrency must be a whole number from 1 to 32, not true'],
    ['past a safe integer', any, '99999999999999999999', '--offset must be a whole number, not "99999999999999999999"'],
    ['a negative number of seconds', wait, '-1', '--lock-timeout must be a number of seconds (0 or more), not "-1"'],
    ['infinity', wait, 'Infinity', '--lock-timeout must be a number of seconds (0 or more), not "Infinity"'],
    ['a word for seconds', wait, 'soon', '--lock-timeout must be a number of seconds (0 or more), not "soon"'],
    [
      'a size of nothing',
      size,
      '0',
      '--max-body-size must be a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m, not "0"',
    ],
    [
      'a size past its range',
      size,
      '3g',
      '--max-body-size must be a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m, not "3g"',
    ],
    [
      'a size in a unit it does not know',
      size,
      '5t',
      '--max-body-size must be a size from 1 byte to 2 GiB, such as 1048576, 512k or 100m, not "5t"',
    ],
    ['"" where the field is not cleared', int, '', '--concurrency must be a whole number from 1 to 32, not ""'],
    ['a fraction where "" clears', minutes, '2.5', '--time-limit must be a whole number, not "2.5"'],
  ])('refuses %s, as a usage error', (_, option, value, message) => {
    expect(() => coerceValue(option, value)).toThrow(expect.objectContaining({ message, exitCode: 2 }));
  });

  it('passes text through', () => {
    expect(coerceValue(text, ' x ')).toBe(' x ');
  });
});

describe('one mistake, one message, on every surface', () => {
  const MESSAGE = '--concurrency must be a whole number from 1 to 32, not "lots"';
  const ROSTER = 'user,type\nsam,student\n';

  it.each<[string, string[], string?]>([
    ['a bulk import', ['enrollments', 'import', '--course', '1', '-', '--concurrency', 'lots'], ROSTER],
    ['apply', ['apply', '-f', '-', '--concurrency', 'lots'], 'courses: []\n'],
    ['grade --csv', ['grade', '--course', '1', '--csv', '-', '--concurrency', 'lots'], 'user,assignment,grade\n'],
    [
      'a default the command line gives',
      ['users', 'import', '--account', 'self', '-', '--concurrency=lots'],
      'login_id,name\n',
    ],
  ])('%s, from the command line', async (_, argv, stdin) => {
    const lms = session({ LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-options-state-')) });
    const r = await lms.run(argv, { stdin });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: ${MESSAGE}\n`);
  });

  it('a tool of lms mcp, with the exit class of a usage error', async () => {
    const tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
    const tool = tools.get('enrollments_import')!;
    expect(tool.inputSchema.properties.concurrency).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 32,
      default: 4,
    });
    const mock = jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool));
    const deps: Deps = {
      io: fakeIO(),
      env: { LMS_MOCK: '1', LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-options-state-')) },
      mock,
      configDir: mkdtempSync(join(tmpdir(), 'lms-options-config-')),
    };
    const globals: GlobalOptions = {
      all: false,
      perPage: 100,
      verbose: false,
      color: false,
      input: false,
      yes: false,
      timeoutSeconds: 30,
      insecure: false,
    };
    const server = {
      ctx: createContext(deps, globals),
      model: commandModel,
      allowWrites: true,
      allowDestructive: false,
      cursorKey: newCursorKey(),
    };
    const input = { course: '1', file_text: ROSTER, concurrency: 'lots' };
    const refused = await callTool(tool, input, server);
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toBe(`error: ${MESSAGE}`);
    expect(refused.structuredContent.error).toMatchObject({ class: 'usage', message: MESSAGE });
    // A number within the range runs, as a number or as its text.
    for (const concurrency of [2, '2']) {
      const ran = await callTool(tool, { ...input, concurrency, dry_run: true }, server);
      expect(ran.isError, JSON.stringify(ran.structuredContent)).toBeUndefined();
    }
  });
});

// invoke() checks a verb's arguments and options against its model before it runs: the command line,
// apply's verb calls and a tool call of lms mcp all reach it, and a mistake that reaches it is told
// in one message, whichever surface made it. (A surface with a front door of its own — a tool's input
// schema, an apply file's fields — refuses what it can in its own words first; `null` marks a mistake
// the surface cannot make at all.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/model/command.js';
import { createContext, type Context, type Deps, type GlobalOptions } from '../../src/model/context.js';
import { check, invoke } from '../../src/model/invoke.js';
import { verbCaller } from '../../src/apply/run.js';
import { kindVerbs } from '../../src/apply/fields.js';
import { callTool, newCursorKey } from '../../src/mcp/call.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW, session } from '../helpers/run-lms.js';
import { declaredVerbs, type DeclaredVerb } from '../helpers/verbs.js';

let verbs: DeclaredVerb[];
let tools: Map<string, Tool>;
let ctx: Context;

function verb(path: string): CommandSpec<never> {
  return verbs.find((v) => v.path.join(' ') === path)!.spec;
}

beforeAll(async () => {
  verbs = await declaredVerbs();
  tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
  const mock = jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool));
  const deps: Deps = {
    io: fakeIO(),
    env: { LMS_MOCK: '1', LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-invoke-state-')) },
    mock,
    configDir: mkdtempSync(join(tmpdir(), 'lms-invoke-config-')),
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
  ctx = createContext(deps, globals);
});

interface Mistake {
  what: string;
  verb: string;
  /** As invoke receives it. */
  given: { args: string[]; options: Record<string, unknown> };
  message: string;
  hint?: string;
  cli: string[] | null;
  /** A plan's call of the verb: the fields it sets, and the context options. */
  apply: { values: Record<string, string>; options: Record<string, string> } | null;
  /** The tool's input, and what its schema says first when it is the one to refuse. */
  mcp: { input: Record<string, unknown>; schema?: string } | null;
}

const QUIZ_TYPE =
  "option '--quiz-type <type>' argument 'survy' is invalid. Allowed choices are practice_quiz, assignment, " +
  'graded_survey, survey.';

const MISTAKES: Mistake[] = [
  {
    what: 'a missing required option',
    verb: 'quizzes create',
    given: { args: [], options: { course: '1' } },
    message: "required option '--title <title>' not specified",
    cli: ['quizzes', 'create', '--course', '1'],
    apply: { values: {}, options: { course: '1' } },
    mcp: { input: { course: '1' }, schema: 'quizzes_create: "title" is required' },
  },
  {
    what: 'a value not among the choices',
    verb: 'quizzes create',
    given: { args: [], options: { course: '1', title: 'Q', quizType: 'survy' } },
    message: QUIZ_TYPE,
    hint: 'did you mean survey?',
    cli: ['quizzes', 'create', '--course', '1', '--title', 'Q', '--quiz-type', 'survy'],
    apply: { values: { title: 'Q', quiz_type: 'survy' }, options: { course: '1' } },
    mcp: { input: { course: '1', title: 'Q', quiz_type: 'survy' } },
  },
  {
    what: 'a number that is none',
    verb: 'enrollments import',
    given: { args: ['-'], options: { course: '1', concurrency: 'lots' } },
    message: '--concurrency must be a whole number from 1 to 32, not "lots"',
    cli: ['enrollments', 'import', '--course', '1', '-', '--concurrency', 'lots'],
    apply: null,
    mcp: { input: { course: '1', file_text: 'user,type\nsam,student\n', concurrency: 'lots' } },
  },
  {
    what: 'a number out of range',
    verb: 'enrollments import',
    given: { args: ['-'], options: { course: '1', concurrency: '0' } },
    message: '--concurrency must be a whole number from 1 to 32, not "0"',
    cli: ['enrollments', 'import', '--course', '1', '-', '--concurrency', '0'],
    apply: null,
    mcp: { input: { course: '1', file_text: 'user,type\nsam,student\n', concurrency: '0' } },
  },
  {
    what: 'an option the verb does not have',
    verb: 'quizzes create',
    given: { args: [], options: { course: '1', title: 'Q', timeLimt: '3' } },
    message: "unknown option '--time-limt'",
    hint: 'did you mean --time-limit?',
    cli: ['quizzes', 'create', '--course', '1', '--title', 'Q', '--time-limt', '3'],
    apply: null,
    mcp: { input: { course: '1', title: 'Q', time_limt: '3' }, schema: 'quizzes_create: unknown argument "time_limt"' },
  },
  {
    what: 'an argument not among its choices',
    verb: 'completion',
    given: { args: ['bsh'], options: {} },
    message: "command-argument value 'bsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    hint: 'did you mean bash?',
    cli: ['completion', 'bsh'],
    apply: null,
    mcp: null,
  },
];

describe('invoke: one message for one mistake', () => {
  it.each(MISTAKES)('$what: invoke refuses it before the verb runs', async (m) => {
    const spec = verb(m.verb);
    let ran = false;
    const watched = {
      ...spec,
      run: async () => {
        ran = true;
        return undefined;
      },
    };
    const refused = invoke(watched, m.given, ctx);
    await expect(refused).rejects.toMatchObject({
      message: m.message,
      exitCode: 2,
      ...(m.hint ? { hint: m.hint } : {}),
    });
    expect(ran).toBe(false);
  });

  it.each(MISTAKES.filter((m) => m.cli))('$what: the command line says the same', async (m) => {
    const lms = session({ LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-invoke-state-')) });
    const r = await lms.run(m.cli!, { stdin: '' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: ${m.message}\n${m.hint ? `hint: ${m.hint}\n` : ''}`);
  });

  it.each(MISTAKES.filter((m) => m.apply))('$what: apply calling the verb says the same', async (m) => {
    const create = kindVerbs([verb(m.verb)]).create!;
    await expect(verbCaller(ctx)(create, [], m.apply!.values, m.apply!.options)).rejects.toMatchObject({
      message: m.message,
      exitCode: 2,
    });
  });

  it.each(MISTAKES.filter((m) => m.mcp))(
    '$what: a tool call says the same, or its schema refuses it first',
    async (m) => {
      const server = {
        ctx,
        model: commandModel,
        allowWrites: true,
        allowDestructive: false,
        cursorKey: newCursorKey(),
      };
      const tool = tools.get(m.verb.replace(' ', '_'))!;
      const result = await callTool(tool, m.mcp!.input, server);
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ class: 'usage', message: m.mcp!.schema ?? m.message });
      // Where the input is what the command line would say (no schema of its own), the words are the command line's,
      // hint and all.
      if (!m.mcp!.schema)
        expect(`${result.content[0].text}\n`).toBe(`error: ${m.message}\n${m.hint ? `hint: ${m.hint}\n` : ''}`);
    },
  );

  it('fills nothing in and passes what it checked: numbers as numbers, the dry run as the verb takes it', () => {
    const checked = check(
      verb('enrollments import'),
      { args: ['-'], options: { course: '1', concurrency: '8', dryRun: true } },
      { dryRun: 'plans' },
    );
    expect(checked.opts).toEqual({ course: '1', concurrency: 8, dryRun: true });
    expect(checked.destroying).toEqual([]);
    const stops = check(
      verb('quizzes create'),
      { args: [], options: { course: '1', title: 'Q', dryRun: true } },
      { dryRun: 'stops' },
    );
    expect(stops.opts).toEqual({ course: '1', title: 'Q' });
  });
});

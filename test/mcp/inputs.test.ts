// A tool's `…_text` input reaches the verb as the text it is: nothing is written for it, not even a
// temporary file, and messages name it by the input it came from.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext, type Deps, type GlobalOptions } from '../../src/model/context.js';
import { callTool, newCursorKey, type Session } from '../../src/mcp/call.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW } from '../helpers/run-lms.js';

let tools: Map<string, Tool>;
let server: Session;

beforeAll(async () => {
  tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
  const mock = jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool));
  const deps: Deps = {
    io: fakeIO(),
    env: { LMS_MOCK: '1', LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-inputs-state-')) },
    mock,
    configDir: mkdtempSync(join(tmpdir(), 'lms-inputs-config-')),
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
  server = {
    ctx: createContext(deps, globals),
    model: commandModel,
    allowWrites: true,
    allowDestructive: false,
    cursorKey: newCursorKey(),
  };
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('text inputs of lms mcp', () => {
  it.each<[string, string, Record<string, unknown>, (structured: Record<string, unknown>) => void]>([
    [
      'a CSV, read as it is',
      'enrollments_import',
      { course: '1', file_text: 'user,type\nsis_user_id:no-such-user,student\n', dry_run: true },
      (s) =>
        expect(s.error).toMatchObject({
          message: 'file has 1 problem; nothing was written:\n  file:2: user "sis_user_id:no-such-user" not found',
        }),
    ],
    [
      'a course file',
      'apply',
      { file_text: 'courses:\n  - sis_course_id: X\n    nmae: x\n' },
      (s) =>
        expect(s.error).toMatchObject({
          problems: [
            { file: 'file', line: 2 },
            { file: 'file', line: 3, at: 'courses[0].nmae' },
          ],
        }),
    ],
    [
      'a message body',
      'conv_send',
      { to: ['1'], subject: 'S', body_file_text: 'Hello from a file', dry_run: true },
      (s) => expect(JSON.stringify(s)).toContain('["body","Hello from a file"]'),
    ],
  ])('%s: reaches the verb, and no file is written', async (_, name, input, check) => {
    // A temporary directory that is not there: a file written for the input, even one removed
    // after the call, would have had to be made in it.
    const nowhere = join(mkdtempSync(join(tmpdir(), 'lms-inputs-tmp-')), 'none');
    for (const variable of ['TMPDIR', 'TMP', 'TEMP']) vi.stubEnv(variable, nowhere);
    expect(tmpdir()).toBe(nowhere);
    const tool = tools.get(name);
    expect(tool, name).toBeDefined();
    const result = await callTool(tool!, input, server);
    check(result.structuredContent);
    expect(existsSync(nowhere)).toBe(false);
  });
});

// A tool that creates or changes an object answers with it as read back from the instance through
// its noun's get verb, run in-process against an in-memory mock: what the instance holds, the write's
// own answer beside it, and the fields sent that came back otherwise.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandModel, Verbs } from '../../src/model/command.js';
import { createContext, type Deps } from '../../src/model/context.js';
import { commandModel } from '../../src/commands/index.js';
import { callTool, newCursorKey, type Session, type ToolResult } from '../../src/mcp/call.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import { fakeIO } from '../helpers/fake-io.js';
import { watchRoutes } from '../helpers/declared-routes.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW } from '../helpers/run-lms.js';

let tools: Map<string, Tool>;
let requests: string[];

beforeAll(async () => {
  tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
});

/** A session over a fresh seeded mock that allows writes; `edit` changes a noun's verbs as the session reads them. */
function server(edit: (noun: string, verbs: Verbs) => Verbs = (_, verbs) => verbs): Session {
  requests = [];
  const mock = watchRoutes(
    jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool)),
  );
  const handler = mock.handler;
  mock.handler = async (req) => {
    requests.push(`${req.method} ${new URL(req.url, 'http://mock').pathname}`);
    return handler(req);
  };
  const deps: Deps = {
    io: fakeIO(),
    env: { LMS_MOCK: '1', LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-mcp-state-')) },
    mock,
    configDir: mkdtempSync(join(tmpdir(), 'lms-mcp-config-')),
  };
  const ctx = createContext(deps, {
    all: false,
    perPage: 100,
    verbose: false,
    color: false,
    input: false,
    yes: false,
    timeoutSeconds: 30,
    insecure: false,
  });
  const model: CommandModel = {
    ...commandModel,
    nouns: commandModel.nouns.map((noun) => ({ ...noun, load: async () => edit(noun.name, await noun.load()) })),
  };
  return { ctx, model, allowWrites: true, allowDestructive: false, cursorKey: newCursorKey() };
}

const call = (session: Session, name: string, input: Record<string, unknown>): Promise<ToolResult> =>
  callTool(tools.get(name)!, input, session);
const summary = (result: ToolResult) => result.content[0].text;

describe('a write read back', () => {
  it(
    'answers a created section as the instance holds it, ' + 'read with sections get in the course it was created in',
    async () => {
      const session = server();
      const result = await call(session, 'sections_create', { course: 1, name: 'Lab C' });
      expect(result.isError).toBeUndefined();
      const s = result.structuredContent;
      const written = s.written as Record<string, unknown>;
      expect(written).toMatchObject({ name: 'Lab C', course_id: 1 });
      expect(s).toMatchObject({ id: written.id, name: 'Lab C', course_id: 1, read_back: { read: true, differs: [] } });
      expect(requests).toEqual([
        'POST /api/v1/courses/1/sections',
        `GET /api/v1/courses/1/sections/${String(written.id)}`,
      ]);
      expect(summary(result)).toContain(
        `read back with lms sections get ${String(written.id)}: the instance holds what was sent`,
      );
    },
  );

  it(
    'names the fields sent that the instance holds ' + 'otherwise, and not those it holds as sent in another form',
    async () => {
      const session = server();
      // The name comes back trimmed; the points, sent as text, come back as the same number.
      const result = await call(session, 'assignments_update', {
        id: '1',
        course: '1',
        name: '  Lab 4 (revised)  ',
        points: '25',
      });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({
        id: 1,
        name: 'Lab 4 (revised)',
        points_possible: 25,
        read_back: { read: true, differs: ['name'] },
      });
      expect((result.structuredContent.written as Record<string, unknown>).id).toBe(1);
      expect(requests).toEqual(['PUT /api/v1/courses/1/assignments/1', 'GET /api/v1/courses/1/assignments/1']);
      expect(summary(result)).toContain(
        'read back with lms assignments get 1: what the instance holds differs from what was sent in name',
      );
    },
  );

  it('answers the write as it did where the noun has no get verb, and says it was not read back', async () => {
    const session = server((noun, verbs) => (noun === 'sections' ? verbs.filter((v) => v.name !== 'get') : verbs));
    const result = await call(session, 'sections_create', { course: 1, name: 'Lab D' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      name: 'Lab D',
      read_back: { read: false, why: 'lms sections has no get verb' },
    });
    expect(result.structuredContent.written).toBeUndefined();
    expect(requests).toEqual(['POST /api/v1/courses/1/sections']);
    expect(summary(result)).toContain('sections_create: not read back (read_back.why says why)');
  });

  it('reads nothing back after a dry run', async () => {
    const session = server();
    const planned = await call(session, 'sections_create', { course: 1, name: 'Lab E', dry_run: true });
    expect(planned.structuredContent.read_back).toBeUndefined();
    // Only the dry run's check that the course it would go in is there: nothing read back.
    expect(requests).toEqual(['GET /api/v1/courses/1']);
  });
});

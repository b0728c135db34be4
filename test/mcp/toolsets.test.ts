// Toolsets, the dynamic mode, the budget of tools/list, and the annotations and output schemas
// every tool carries, read off the command tree and run in-process against an in-memory mock.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandModel } from '../../src/commands/index.js';
import { callTool, MAX_FIELD_CHARS, newCursorKey, type Session } from '../../src/mcp/call.js';
import { DEFAULT_SELECTION, Offer, selectionOf, type Listed } from '../../src/mcp/offer.js';
import { NOUN_TOOLSET, parseToolsets, TOOLSETS } from '../../src/mcp/toolsets.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { toolsetsHelp, toolsetsLine, toolsetsMarkdown } from '../../src/mcp/toolsets-help.js';
import { createContext, type Deps } from '../../src/model/context.js';
import { openMock } from '../../src/mock/runtime.js';
import { UsageError } from '../../src/errors.js';
import { watchRoutes } from '../helpers/declared-routes.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW, session as lmsSession } from '../helpers/run-lms.js';

let tools: Tool[];
beforeAll(async () => {
  tools = await toolsOf(commandModel);
});

function session(allow: { writes?: boolean; destructive?: boolean } = {}): Session {
  const mock = watchRoutes(
    jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool)),
  );
  const deps: Deps = {
    io: fakeIO(),
    env: { LMS_MOCK: '1', LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-mcp-state-')) },
    mock,
    configDir: mkdtempSync(join(tmpdir(), 'lms-mcp-config-')),
  };
  const globals = { all: false, perPage: 100, verbose: false, color: false, input: false, yes: false };
  return {
    ctx: createContext(deps, { ...globals, timeoutSeconds: 30, insecure: false }),
    model: commandModel,
    allowWrites: allow.writes === true || allow.destructive === true,
    allowDestructive: allow.destructive === true,
    cursorKey: newCursorKey(),
  };
}

/** tools/list's answer, in tokens as the budget counts them: bytes ÷ 4 of its JSON. */
const tokens = (listed: Listed[]) => Math.round(Buffer.byteLength(JSON.stringify(listed)) / 4);
const ALL = { toolsets: parseToolsets('all', 'test'), dynamic: false };

describe('toolsets', () => {
  it('puts every tool in a toolset: a noun with no row in NOUN_TOOLSET fails here', () => {
    const homeless = [...new Set(tools.filter((t) => t.toolset === undefined).map((t) => t.command.split(' ')[1]))];
    expect(homeless, 'add these nouns to NOUN_TOOLSET in src/mcp/toolsets.ts').toEqual([]);
    for (const set of Object.values(NOUN_TOOLSET)) expect(Object.keys(TOOLSETS)).toContain(set);
  });

  it('reads --toolsets: names, all, default; an unknown name is a usage error naming the right one', () => {
    expect([...parseToolsets('roster, grading', '--toolsets')]).toEqual(['roster', 'grading']);
    expect(parseToolsets('all', '--toolsets').size).toBe(Object.keys(TOOLSETS).length);
    expect([...parseToolsets('default', '--toolsets')]).toEqual([...DEFAULT_SELECTION.toolsets]);
    expect(() => parseToolsets('rostr', 'LMS_MCP_TOOLSETS')).toThrow(UsageError);
    expect(() => parseToolsets('rostr', 'LMS_MCP_TOOLSETS')).toThrow(/LMS_MCP_TOOLSETS: no toolset named "rostr"/);
    expect(() => parseToolsets(',', '--toolsets')).toThrow(/names no toolset/);
  });

  it('offers only the toolsets named, and the dynamic tools only when asked or by default', () => {
    const names = (o: Offer) => o.listed(tools).map((t) => t.name);
    const grading = names(new Offer(selectionOf(parseToolsets('grading', 'x'), false), session()));
    expect(grading).toEqual(expect.arrayContaining(['submissions_list', 'history_feed', 'read_rest']));
    expect(grading).not.toContain('users_list');
    expect(grading).not.toContain('enable_toolset');
    const dynamicAlone = names(new Offer(selectionOf(undefined, true), session()));
    expect(dynamicAlone).toEqual(['list_toolsets', 'describe_toolset', 'enable_toolset', 'read_rest']);
    const byDefault = names(new Offer(selectionOf(undefined, false), session()));
    expect(byDefault).toEqual(expect.arrayContaining(['users_list', 'courses_get', 'grade_export', 'enable_toolset']));
    expect(byDefault).not.toContain('topics_list');
  });
});

describe('the dynamic mode', () => {
  it(
    'enables a toolset for the session, saying tools/list ' + 'changed, and never widens what the flags allow',
    async () => {
      const s = session();
      const offer = new Offer(selectionOf(undefined, true), s);
      const before = offer.listed(tools).length;
      const described = await offer.call('describe_toolset', { toolset: 'discussions' }, tools)!;
      expect(described.changed).toBe(false);
      const listedTools = described.result.structuredContent.tools as { name: string; access: string }[];
      expect(listedTools.map((t) => t.name)).toContain('topics_list');
      // A server that only reads describes only the reads.
      expect(listedTools.every((t) => t.access === 'read')).toBe(true);
      const topicsList = tools.find((t) => t.name === 'topics_list')!;
      expect(offer.withheld(topicsList)?.content[0].text).toMatch(/enable_toolset with toolset "discussions"/);

      const enabled = await offer.call('enable_toolset', { toolset: 'discussions' }, tools)!;
      expect(enabled.changed).toBe(true);
      expect(enabled.result.structuredContent.added).toEqual(listedTools.map((t) => t.name));
      const after = offer.listed(tools).map((t) => t.name);
      expect(after.length).toBe(before + listedTools.length);
      expect(after).not.toContain('topics_create');
      expect(offer.withheld(topicsList)).toBeUndefined();
      // The tool runs once its toolset is on, against the instance.
      const r = await callTool(topicsList, { course: 1 }, s);
      expect(r.isError, r.content[0].text).toBeFalsy();
      // A write of the toolset is still refused, in callTool's words, on a server that only reads.
      const create = tools.find((t) => t.name === 'topics_create')!;
      expect(offer.withheld(create)).toBeUndefined();
      const refused = await callTool(create, { course: 1, title: 'x' }, s);
      expect(refused.content[0].text).toMatch(/only reads: refused/);
      // Enabling again changes nothing.
      expect((await offer.call('enable_toolset', { toolset: 'discussions' }, tools)!).changed).toBe(false);
      const unknown = await offer.call('enable_toolset', { toolset: 'nope' }, tools)!;
      expect(unknown.result.isError).toBe(true);
    },
  );

  it('refuses hostile input to its own tools as usage errors, enabling nothing', async () => {
    const offer = new Offer(selectionOf(undefined, true), session());
    const before = offer.listed(tools).length;
    for (const [name, input, message] of [
      ['enable_toolset', { toolset: { $ne: 1 } }, /"toolset" must be a string/],
      ['enable_toolset', { toolset: 'roster', also: 'grading' }, /unknown argument "also"/],
      [
        'enable_toolset',
        JSON.parse('{"__proto__": {"x": 1}, "toolset": "all"}'),
        /unknown argument "__proto__"|no toolset named "all"/,
      ],
      ['enable_toolset', { toolset: '../roster' }, /no toolset named "..\/roster"/],
      ['describe_toolset', ['roster'], /must be an object/],
      ['read_rest', { rest: 'x', offset: -1 }, /"offset" must be a whole number/],
      ['read_rest', { rest: 7 }, /"rest" must be a string/],
      ['read_rest', { rest: 'x', offset: 1.5 }, /"offset" must be a whole number/],
    ] as const) {
      const r = (await offer.call(name, input, tools))!;
      expect(r.result.isError, `${name} ${JSON.stringify(input)}`).toBe(true);
      expect(r.result.content[0].text).toMatch(message);
      expect(r.changed).toBe(false);
    }
    expect(offer.listed(tools).length).toBe(before);
  });

  it('lists the toolsets with how many tools the flags allow of each', async () => {
    const reads = await new Offer(selectionOf(undefined, true), session()).call('list_toolsets', {}, tools)!;
    const writes = await new Offer(selectionOf(undefined, true), session({ writes: true })).call(
      'list_toolsets',
      {},
      tools,
    )!;
    type Row = { name: string; tools: number; enabled: boolean };
    const count = (r: typeof reads, name: string) =>
      (r.result.structuredContent.items as Row[]).find((i) => i.name === name)!.tools;
    expect(count(reads, 'roster')).toBeGreaterThan(5);
    expect(count(writes, 'roster')).toBeGreaterThan(count(reads, 'roster'));
  });
});

describe('the budget of tools/list', () => {
  it('keeps the default within 10,000 tokens (bytes / 4), and says what all with writes costs', () => {
    const byDefault = tokens(new Offer(DEFAULT_SELECTION, session()).listed(tools));
    const all = tokens(new Offer(ALL, session({ destructive: true })).listed(tools));
    console.log(`tools/list: default ${byDefault} tokens; --toolsets all --allow-writes ${all} tokens`);
    expect(byDefault).toBeLessThanOrEqual(10_000);
    // Every tool still reachable from the default, through enable_toolset.
    expect(new Offer(DEFAULT_SELECTION, session()).listed(tools).map((t) => t.name)).toContain('enable_toolset');
  });

  it(
    'says the shared words once, in the instructions: no property repeats what limit, cursor, dry_run or confirm ' +
      'do',
    () => {
      for (const t of tools)
        for (const name of ['limit', 'cursor', 'dry_run', 'confirm'])
          expect(t.inputSchema.properties[name]?.description, `${t.name}.${name}`).toBeUndefined();
    },
  );
});

describe('annotations and output schemas', () => {
  const every = () => new Offer({ ...ALL, dynamic: true }, session({ destructive: true })).listed(tools);

  it('gives every tool its annotations and an object outputSchema; a tool without one fails here', () => {
    for (const t of every()) {
      expect(typeof t.annotations.readOnlyHint, t.name).toBe('boolean');
      expect(t.annotations.openWorldHint, t.name).toBe(false);
      if (t.annotations.readOnlyHint === false) expect(typeof t.annotations.destructiveHint, t.name).toBe('boolean');
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
  });

  it('says destructiveHint of an import whose file can delete, as of a verb that always does', () => {
    const hint = (name: string) => every().find((t) => t.name === name)?.annotations.destructiveHint;
    // A SIS file's deleted rows delete: the call is refused without --allow-destructive, so the hint says so.
    for (const name of ['users_import', 'courses_import', 'sections_import', 'users_delete', 'modules_relock'])
      expect(hint(name), name).toBe(true);
    for (const name of ['users_create', 'courses_update', 'outcomes_import']) expect(hint(name), name).toBe(false);
  });

  it('types the result of every tool: a route record, or a verb result of verb-results.ts; none is bare', () => {
    // Over every toolset, writes and destruction allowed: a verb whose answer is no route's record
    // needs its row in src/commands/verb-results.ts (then npm run mcp-shapes), or it fails here.
    const bare = every()
      .filter((t) => Object.keys(t.outputSchema.properties ?? {}).length === 0)
      .map((t) => t.name);
    expect(bare, 'name their result types in src/commands/verb-results.ts').toEqual([]);
    const users = every().find((t) => t.name === 'users_list')!.outputSchema.properties!;
    expect(users.items).toMatchObject({ type: 'array', items: { properties: { id: { type: 'number' } } } });
    expect(users.next_cursor).toEqual({ type: 'string' });
    const course = every().find((t) => t.name === 'courses_get')!.outputSchema.properties!;
    expect(course.name).toEqual({ type: 'string' });
    // A plan: its courses' actions, each shape said once as a $def.
    const diff = every().find((t) => t.name === 'diff')!.outputSchema;
    expect(diff.properties?.courses).toEqual({ type: 'array', items: { $ref: '#/$defs/CourseChanges' } });
    expect(diff.$defs?.CourseChanges.properties?.actions).toEqual({
      type: 'array',
      items: { $ref: '#/$defs/PlanAction' },
    });
    expect(diff.$defs?.PlanAction.properties?.action).toEqual({ type: 'string' });
    const imported = every().find((t) => t.name === 'sections_import')!.outputSchema;
    expect(imported.properties?.created).toEqual({ type: 'number' });
    expect(imported.$defs?.BulkRowResult.properties?.status).toEqual({ type: 'string' });
  });

  it('checks every $ref of an outputSchema against its $defs, each shape said once', () => {
    for (const t of every()) {
      const text = JSON.stringify(t.outputSchema);
      const refs = new Set([...text.matchAll(/"#\/\$defs\/(\w+)"/g)].map((m) => m[1]));
      expect(Object.keys(t.outputSchema.$defs ?? {}).sort(), t.name).toEqual([...refs].sort());
    }
  });

  it('answers what its outputSchema says, for a read of each kind', async () => {
    // The validator the SDK's client checks results with.
    const validator = new AjvJsonSchemaValidator();
    const s = session();
    const listed = new Map(every().map((t) => [t.name, t]));
    for (const [name, input] of [
      ['users_list', {}],
      ['users_get', { id: 'self' }],
      ['courses_get', { id: 1 }],
      ['sections_list', { course: 1 }],
      ['submissions_list', { course: 1, assignment: ['1'] }],
      ['enrollments_list', { course: 1 }],
      ['history_days', { course: 1 }],
      ['users_get', { id: 999999 }],
    ] as const) {
      const r = await callTool(tools.find((t) => t.name === name)!, input, s);
      const checked = validator.getValidator(listed.get(name)!.outputSchema)(r.structuredContent);
      expect(checked.valid, `${name}: ${checked.errorMessage}`).toBe(true);
    }
  });

  // The check type-checks the result types with the TypeScript compiler: more than a test's usual time
  // on a loaded machine.
  it('is made from the types as they are: the generated shapes are in step with src/spec/types', {
    timeout: 120_000,
  }, () => {
    execFileSync(process.execPath, ['scripts/mcp-shapes.mjs', '--check']);
  });
});

describe('the toolsets as help and docs', () => {
  it(
    'lists each toolset with its tools in lms mcp --help, ' + 'the README and docs/mcp.md, as the model has them',
    async () => {
      const help = await toolsetsHelp(commandModel);
      // lms mcp --help prints it after the examples, made when help is asked for.
      const r = await lmsSession().run(['mcp', '--help']);
      expect(r.stdout).toContain(help);
      expect(r.stdout).toMatch(/--toolsets <names>/);
      expect(help).toMatch(/\n {2}roster: Users.*\n {4}users_list users_get users_create\+/);
      expect(help).toContain('enrollments_import!');
      // As Biome pads a Markdown table: compared with the padding taken out.
      const flat = (text: string) => text.replace(/ {2,}/g, ' ').replace(/-{3,}/g, '---').replace(/ \|/g, '|');
      const docs = flat(readFileSync('docs/mcp.md', 'utf8'));
      expect(docs.includes(flat(await toolsetsMarkdown(commandModel))), 'docs/mcp.md: run npm run man').toBe(true);
      const line = await toolsetsLine(commandModel);
      expect(readFileSync('README.md', 'utf8').includes(line), 'README.md: run npm run man').toBe(true);
      expect(line).toMatch(/\*\*grading\*\*: `submissions_list` .*`grade_set\+`/);
    },
  );
});

describe('a long text field', () => {
  it('is cut with a note, and read_rest reads the rest of it', async () => {
    const s = session({ writes: true });
    const message = 'a'.repeat(MAX_FIELD_CHARS) + 'b'.repeat(MAX_FIELD_CHARS) + 'c'.repeat(100);
    const r = await callTool(
      tools.find((t) => t.name === 'topics_create')!,
      { course: 1, title: 'Long', message_file_text: message },
      s,
    );
    expect(r.isError, r.content[0].text).toBeFalsy();
    const cut = (r.structuredContent.left_out as { at: string; rest?: string; offset?: number }[]).find((c) => c.rest);
    expect(cut?.at).toMatch(/message/);
    expect(r.content[0].text).toMatch(/long text cut at 8,000 characters.+read_rest/);
    const offer = new Offer(DEFAULT_SELECTION, s);
    const first = await offer.call('read_rest', { rest: cut!.rest, offset: cut!.offset }, tools)!;
    expect(first.result.structuredContent.text).toBe('b'.repeat(MAX_FIELD_CHARS));
    expect(first.result.structuredContent.left).toBe(100);
    const last = await offer.call('read_rest', { rest: cut!.rest, offset: 2 * MAX_FIELD_CHARS }, tools)!;
    expect(last.result.structuredContent).toMatchObject({ text: 'c'.repeat(100), left: 0 });
    const wrong = await offer.call('read_rest', { rest: 'made-up' }, tools)!;
    expect(wrong.result.isError).toBe(true);
  });
});

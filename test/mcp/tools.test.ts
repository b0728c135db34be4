// The tools `lms mcp` makes of the command tree, and one call of each kind run in-process against
// an in-memory mock: what an input becomes on the verb's command line, and what the server refuses.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendsWrites } from '../../src/model/command.js';
import { createContext, type Context, type Deps, type GlobalOptions } from '../../src/model/context.js';
import { callTool, newCursorKey, type Session, type ToolResult } from '../../src/mcp/call.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { watchRoutes } from '../helpers/declared-routes.js';
import { declaredVerbs } from '../helpers/verbs.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW } from '../helpers/run-lms.js';

const GLOBALS: GlobalOptions = {
  all: false,
  perPage: 100,
  verbose: false,
  color: false,
  input: false,
  yes: false,
  timeoutSeconds: 30,
  insecure: false,
};

let tools: Map<string, Tool>;
let requests: { method: string; url: string }[];

function server(allow: { writes?: boolean; destructive?: boolean } = {}): Session {
  const mock = watchRoutes(
    jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool)),
  );
  const handler = mock.handler;
  mock.handler = async (req) => {
    requests.push({ method: req.method, url: req.url });
    return handler(req);
  };
  const deps: Deps = {
    io: fakeIO(),
    env: { LMS_MOCK: '1', LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-mcp-state-')) },
    mock,
    configDir: mkdtempSync(join(tmpdir(), 'lms-mcp-config-')),
  };
  const ctx: Context = createContext(deps, GLOBALS);
  return {
    ctx,
    model: commandModel,
    allowWrites: allow.writes === true || allow.destructive === true,
    allowDestructive: allow.destructive === true,
    cursorKey: newCursorKey(),
  };
}

const call = (session: Session, name: string, input: Record<string, unknown>): Promise<ToolResult> =>
  callTool(tools.get(name)!, input, session);
const writes = () => requests.filter((r) => r.method !== 'GET');

beforeAll(async () => {
  tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
});

describe('the tools read off the command tree', () => {
  it(
    'makes one tool of every verb that acts on the instance, under a name a client accepts (but an upload of a ' +
      'local file)',
    async () => {
      const verbs = (await declaredVerbs()).map(({ path }) => path.join(' '));
      const local = /^(profile|mock|api|doctor|completion|mcp|auth|version|log)\b/;
      expect([...tools.values()].map((t) => t.command.slice(4)).sort()).toEqual(
        verbs.filter((v) => !local.test(v) && !['users upload', 'courses upload'].includes(v)).sort(),
      );
      for (const name of tools.keys()) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
      for (const t of tools.values()) {
        for (const property of Object.keys(t.inputSchema.properties))
          expect(property, t.name).toMatch(/^[a-z][a-z0-9_]*$/);
      }
    },
  );

  it('gives every verb that writes a dry_run, and every list a limit and a cursor', () => {
    for (const t of tools.values()) {
      const properties = Object.keys(t.inputSchema.properties);
      expect(properties.includes('dry_run'), t.name).toBe(sendsWrites(t.spec));
      if (t.paged) expect(properties, t.name).toEqual(expect.arrayContaining(['limit', 'cursor']));
    }
    expect(tools.get('users_list')?.paged).toBe(true);
    expect(tools.get('users_get')?.paged).toBe(false);
  });

  it.each([
    ['users_list', 'read', []],
    ['diff', 'read', []],
    ['users_create', 'write', []],
    ['grade_set', 'write', []],
    ['users_delete', 'destructive', []],
    ['sections_delete', 'destructive', []],
    ['rubrics_list', 'read', []],
    ['rubrics_get', 'read', []],
    ['rubrics_create', 'write', []],
    ['rubrics_update', 'write', []],
    ['rubrics_delete', 'destructive', []],
    ['enrollments_conclude', 'destructive', []],
    ['enrollments_import', 'write', [{ property: 'sync' }]],
    ['apply', 'write', [{ property: 'prune' }]],
    ['enrollments_add', 'write', [{ property: 'state', values: ['inactive'] }]],
    ['conv_remove_messages', 'destructive', []],
    [
      'sis_import',
      'write',
      [{ property: 'batch_mode' }, { property: 'multi_term' }, { property: 'diffing_data_set_id' }],
    ],
    ['sis_abort', 'write', []],
    ['sis_list', 'read', []],
    ['users_import', 'write', []],
    ['modules_list', 'read', []],
    ['modules_items_list', 'read', []],
    ['modules_create', 'write', []],
    ['modules_relock', 'write', []],
    ['modules_items_done', 'write', []],
    ['modules_items_undone', 'write', []],
    ['modules_delete', 'destructive', []],
    ['modules_items_remove', 'destructive', []],
  ] as const)('%s is a %s', (name, access, destroying) => {
    expect(tools.get(name)?.access).toBe(access);
    expect(tools.get(name)?.destroying).toEqual(destroying.map((d) => ({ values: undefined, ...d })));
  });

  it('takes a text file a verb reads as its content, never a path, and leaves out the files a verb writes', () => {
    const properties = (name: string) => Object.keys(tools.get(name)!.inputSchema.properties);
    expect(properties('grade_set')).toContain('csv_text');
    expect(properties('grade_set')).not.toContain('csv');
    expect(properties('users_import')).toContain('file_text');
    expect(properties('users_import')).not.toContain('file');
    expect(tools.get('users_import')!.inputSchema.required).toContain('file_text');
    expect(properties('outcomes_import')).toContain('file_text');
    expect(tools.get('outcomes_import')!.inputSchema.required ?? []).not.toContain('file_text');
    expect(properties('diff')).toEqual(expect.arrayContaining(['file_text']));
    for (const t of tools.values()) {
      for (const [name, schema] of Object.entries(t.inputSchema.properties)) {
        if (/file$|^csv$|^attach$/.test(name)) expect.fail(`${t.name} takes a path: ${name} ${JSON.stringify(schema)}`);
      }
    }
    expect(properties('grade_set')).not.toContain('failed_out');
    // Nothing of this machine's is uploaded at an assistant's word.
    expect(tools.has('users_upload')).toBe(false);
    expect(properties('conv_send')).not.toContain('attach');
    expect(properties('topics_post')).not.toContain('attach');
    expect(properties('submissions_submit')).not.toContain('file');
    expect(Object.keys(tools.get('export_course')!.inputSchema.properties)).not.toContain('out');
    expect(Object.keys(tools.get('activity_list')!.inputSchema.properties)).not.toContain('watch');
  });
});

describe('a call', () => {
  it("runs in a context of its own that paces its requests with the server's one limiter", async () => {
    const s = server();
    const derived = await s.ctx.derive({}, s.ctx.globals);
    expect(derived).not.toBe(s.ctx);
    expect(derived.limiter()).toBe(s.ctx.limiter());
  });

  it('turns switches, --no- flags, lists and file contents into the verb command line', async () => {
    requests = [];
    const s = server({ writes: true });
    const added = await call(s, 'enrollments_add', {
      course: 1,
      user: 7,
      type: 'student',
      section_id: 1,
      notify: false,
      dry_run: true,
    });
    expect(added.isError, added.content[0].text).toBeFalsy();
    const body = JSON.stringify((added.structuredContent as { requests: { body: unknown }[] }).requests[0].body);
    expect(body).toMatch(/notify.*false/);
    const listed = await call(s, 'enrollments_list', { course: 1, type: ['student', 'ta'], limit: 50 });
    const roles = new Set((listed.structuredContent as { items: { type: string }[] }).items.map((e) => e.type));
    expect([...roles].sort()).toEqual(['StudentEnrollment', 'TaEnrollment']);
    const topic = await call(s, 'topics_create', {
      course: 1,
      title: 'From a file',
      message_file_text: '<p>Read chapter 4</p>',
    });
    expect(topic.isError, topic.content[0].text).toBeFalsy();
    expect((topic.structuredContent as { message: string }).message).toBe('<p>Read chapter 4</p>');
  });

  it('names a bad input by the argument it came in, not by where it was kept', async () => {
    const s = server({ writes: true });
    const r = await call(s, 'users_import', { file_text: 'name,login_id\nA\u0007,a\n', account: 1 });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/\bfile:2\b/);
    expect(r.content[0].text).not.toMatch(/lms-mcp-/);
  });

  it(
    'refuses what destroys on an answer (conv batch --event destroy) without --allow-destructive, and sends ' +
      'nothing',
    async () => {
      requests = [];
      const s = server({ writes: true });
      const r = await call(s, 'conv_batch', { ids: '1', event: 'destroy' });
      expect(r.isError).toBe(true);
      expect(r.structuredContent?.error).toMatchObject({ refused: true, needs: '--allow-destructive' });
      expect(writes()).toEqual([]);
      const read = await call(s, 'conv_batch', { ids: '1', event: 'mark_as_read', wait: false });
      expect(read.isError, read.content[0].text).toBeFalsy();
      expect(writes()).toHaveLength(1);
    },
  );

  it(
    'refuses users_update with suspend without ' + '--allow-destructive, and sends unsuspend with --allow-writes',
    async () => {
      requests = [];
      const s = server({ writes: true });
      const r = await call(s, 'users_update', { id: '7', suspend: true });
      expect(r.isError).toBe(true);
      expect(r.structuredContent?.error).toMatchObject({ refused: true, needs: '--allow-destructive' });
      expect(writes()).toEqual([]);
      const back = await call(s, 'users_update', { id: '7', unsuspend: true });
      expect(back.isError, back.content[0].text).toBeFalsy();
      expect(writes()).toHaveLength(1);
      const listed = await call(s, 'users_logins', { id: '7' });
      expect(listed.isError, listed.content[0].text).toBeFalsy();
      expect(JSON.stringify(listed.structuredContent)).toContain('"unique_id":"sam"');
    },
  );

  it('applies without --allow-destructive when nothing would be deleted, and refuses --prune', async () => {
    requests = [];
    const s = server({ writes: true });
    const file = 'courses:\n  - sis_course_id: MCP-2\n    name: Two\n    account: 1\n';
    const r = await call(s, 'apply', { file_text: file });
    expect(r.isError, r.content[0].text).toBeFalsy();
    expect(writes().length).toBeGreaterThan(0);
    const pruned = await call(s, 'apply', { file_text: file, prune: true });
    expect(pruned.structuredContent?.error).toMatchObject({ needs: '--allow-destructive' });
    const previewed = await call(s, 'apply', { file_text: file, prune: true, dry_run: true });
    expect(previewed.isError, previewed.content[0].text).toBeFalsy();
  });

  it('reads no local file a course file given as text names (a roster, an outcome tree)', async () => {
    const s = server({ writes: true });
    for (const name of ['diff', 'apply']) {
      const yaml =
        'courses:\n  - sis_course_id: BIO-101\n    enrollments:\n      - { csv: /etc/passwd }\n    outcomes: { ' +
        'file: ../../etc/hostname }\n';
      const r = await call(s, name, { file_text: yaml });
      expect(r.isError, name).toBe(true);
      expect(r.content[0].text).toMatch(/csv: \/etc\/passwd: a course file given as text names no other file/);
      expect(r.content[0].text).toMatch(
        /outcomes file: \.\.\/\.\.\/etc\/hostname: a course file given as text names no other file/,
      );
      expect(JSON.stringify(r)).not.toMatch(/root:|lms-mcp-/);
    }
  });

  it('gives an import its own dry run (the plan, nothing sent, no journal)', async () => {
    requests = [];
    const s = server({ writes: true });
    const r = await call(s, 'users_import', {
      account: 1,
      file_text: 'name,login_id\nNew Person,new.person\n',
      dry_run: true,
    });
    expect(r.isError, r.content[0].text).toBeFalsy();
    expect(writes()).toEqual([]);
    expect(JSON.stringify(r.structuredContent)).toMatch(/new\.person/);
    const journals = join(String(s.ctx.env.LMS_STATE_DIR), 'journals');
    expect(existsSync(journals) ? readdirSync(journals) : []).toEqual([]);
  });

  it.each([
    ['conv_remove_messages', { id: 5, message: ['9'] }],
    ['enrollments_add', { course: 1, user: 7, type: 'student', state: 'inactive' }],
    // Students who have not met its prerequisites lose what they had opened.
    ['modules_relock', { id: 1, course: 1 }],
    ['sis_import', { file_text: 'user_id,login_id,full_name,status\nu1,ada,Ada,deleted\n' }],
    [
      'sis_import',
      { file_text: 'course_id,short_name,long_name,status\nC1,M1,Maths,active\n', batch_mode: true, batch_term: '1' },
    ],
  ])('refuses %s, which destroys, without --allow-destructive, and sends nothing', async (name, input) => {
    requests = [];
    const r = await call(server({ writes: true }), name, input);
    expect(r.structuredContent?.error).toMatchObject({ refused: true, needs: '--allow-destructive' });
    expect(writes()).toEqual([]);
  });

  it('reads a conversation without marking it read on a server that only reads', async () => {
    requests = [];
    const r = await call(server(), 'conv_get', { id: 5 });
    expect(r.isError, r.content[0].text).toBeFalsy();
    expect(requests.map((q) => q.url)).toEqual([expect.stringMatching(/\/conversations\/5\?auto_mark_as_read=false$/)]);
  });
});

describe('sis_import through lms mcp', () => {
  it('answers an import that deletes with its plan and a confirm token, and runs it with the token', async () => {
    requests = [];
    const s = server({ destructive: true });
    const input = { file_text: 'user_id,login_id,full_name,status\nu1,ada,Ada,active\n' };
    const plain = await call(s, 'sis_import', input);
    expect(plain.isError, plain.content[0].text).toBeFalsy();
    expect(plain.structuredContent).toMatchObject({ workflow_state: 'imported' });
    const dropping = { file_text: 'user_id,login_id,full_name,status\nu1,ada,Ada,deleted\n' };
    const asked = await call(s, 'sis_import', dropping);
    const token = (asked.structuredContent as { confirm?: string }).confirm;
    expect(token, JSON.stringify(asked.structuredContent)).toEqual(expect.any(String));
    expect(writes().length).toBe(1);
    const done = await call(s, 'sis_import', { ...dropping, confirm: token });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ data: { counts: { users: 1 } } });
    expect(writes().length).toBe(2);
  });
});

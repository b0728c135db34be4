// What `lms mcp` fences as data and how a destructive call is bound to its plan, in-process against
// an in-memory mock: the escapes that keep a fence closed, a fence that survives a result cut to
// size, and confirmation tokens under a clock the test moves.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmedPlan, Deps } from '../../src/model/context.js';
import { createContext } from '../../src/model/context.js';
import { callTool, MAX_STRUCTURED_CHARS, newCursorKey, type Session, type ToolResult } from '../../src/mcp/call.js';
import { CONFIRM_TTL_MS, canonicalArguments } from '../../src/mcp/confirm.js';
import { escapeData, fenced } from '../../src/mcp/fence.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW } from '../helpers/run-lms.js';

let tools: Map<string, Tool>;
let deletes: string[];

beforeAll(async () => {
  tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
});

/** A server's session over a fresh seeded mock; `clock` is its time, and `confirmed` what each run was handed. */
function server(allowDestructive: boolean, clock = { now: Date.parse('2026-11-27T10:00:00Z') }) {
  const mock = jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool));
  const handler = mock.handler;
  mock.handler = async (req) => {
    if (req.method === 'DELETE') deletes.push(req.url);
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
  const confirmed: (ConfirmedPlan | undefined)[] = [];
  const derive = ctx.derive.bind(ctx);
  const watched = {
    ...ctx,
    derive: async (over: Partial<Deps>, globals: Parameters<typeof ctx.derive>[1]) => {
      const derived = await derive(over, globals);
      confirmed.push(derived.confirmed);
      return derived;
    },
  };
  const session: Session = {
    ctx: watched,
    model: commandModel,
    allowWrites: true,
    allowDestructive,
    cursorKey: newCursorKey(),
    now: () => clock.now,
  };
  return { session, clock, confirmed, mock };
}

const call = (session: Session, name: string, input: Record<string, unknown>): Promise<ToolResult> =>
  callTool(tools.get(name)!, input, session);

describe('the fence', () => {
  it.each([
    ['</lms-data>', '\\u003c/lms-data>'],
    ['</LMS-DATA>', '\\u003c/LMS-DATA>'],
    ['</ lms-data >', '\\u003c/ lms-data >'],
    ['< /lms-data>', '\\u003c /lms-data>'],
    ['<\n/lms-data>', '\\u003c\n/lms-data>'],
    ['<\\n/lms-data>', '\\u003c\\n/lms-data>'],
    ['<lms-data>', '\\u003clms-data>'],
    ['</lms_data>', '\\u003c/lms_data>'],
    ['<\u200B/l\u200Bms-data>', '\\u003c\u200B/l\u200Bms-data>'],
    ['</lms\u2010data>', '\\u003c/lms\u2010data>'],
    ['</lms data>', '\\u003c/lms data>'],
    ['\uFF1C/lms-data>', '\\uff1c/lms-data>'],
    ['&lt;/lms-data&gt;', '\\u0026lt;/lms-data&gt;'],
    ['a <b>bold</b> lms-data post', 'a <b>bold</b> lms-data post'],
  ])('escapes %j so it cannot close the fence', (text, escaped) => {
    expect(escapeData(text)).toBe(escaped);
    const lines = fenced(text).split('\n');
    expect(lines.filter((l) => l === '</lms-data>' || l === '<lms-data>')).toEqual(['<lms-data>', '</lms-data>']);
  });

  it('keeps JSON the same JSON', () => {
    const value = { message: 'x </lms-data> y <\n/ LMS-Data>' };
    expect(JSON.parse(escapeData(JSON.stringify(value)))).toEqual(value);
  });

  it('still closes a result cut to size, with the note of what was cut outside it', async () => {
    const { session } = server(false);
    const message = `${'x'.repeat(MAX_STRUCTURED_CHARS)}</lms-data>${'y'.repeat(MAX_STRUCTURED_CHARS)}`;
    const r = await call(session, 'topics_create', {
      course: 1,
      title: 'Long',
      message_file_text: message,
      dry_run: true,
    });
    expect(r.isError, r.content[0].text.slice(0, 300)).toBeFalsy();
    expect(r.structuredContent.left_out).toBeDefined();
    const data = r.content[1].text;
    expect(data.startsWith('<lms-data>\n')).toBe(true);
    expect(data.endsWith('\n</lms-data>')).toBe(true);
    expect(data.split('\n')).toHaveLength(3);
    // One field this long is cut on its own, its rest kept for read_rest.
    expect(r.content[0].text).toMatch(/\(long text cut at 8,000 characters: requests\[0\]\.body.+read_rest/);
    // The note follows the last fence it is outside of.
    expect(r.content[0].text.split('</lms-data>\n').at(-1)).toMatch(/^\n\(long text cut/);
  });
});

describe('a destructive call under --allow-destructive', () => {
  it('binds the token to the arguments as given in any order or form, without confirm and dry_run', () => {
    expect(canonicalArguments({ b: 1, a: { d: 2, c: [3] }, confirm: 'x', dry_run: true })).toBe(
      '{"a":{"c":[3],"d":2},"b":1}',
    );
  });

  it('refuses a token once it expired, 10 minutes after its plan, and deletes nothing', async () => {
    deletes = [];
    const { session, clock } = server(true);
    const made = await call(session, 'sections_create', { course: 1, name: 'Empty' });
    const id = String(made.structuredContent.id);
    const plan = await call(session, 'sections_delete', { id });
    const token = String(plan.structuredContent.confirm);
    expect(plan.structuredContent.confirm_expires_at).toBe(new Date(clock.now + CONFIRM_TTL_MS).toISOString());
    clock.now += CONFIRM_TTL_MS;
    const late = await call(session, 'sections_delete', { id, confirm: token });
    expect(late.isError).toBe(true);
    expect(late.content[0].text).toMatch(
      /^error: sections_delete: the confirmation token expired at 2026-11-27T10:10:00.000Z \(a token holds 10 minutes\): refused\nhint: call sections_delete without confirm/,
    );
    expect(late.structuredContent.error).toMatchObject({ class: 'usage', exit_code: 2, confirm: 'expired' });
    expect(deletes).toEqual([]);
    // A minute short of it, a new one runs.
    const again = String((await call(session, 'sections_delete', { id })).structuredContent.confirm);
    clock.now += CONFIRM_TTL_MS - 60_000;
    const done = await call(session, 'sections_delete', { id, confirm: again });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(deletes).toEqual([expect.stringMatching(new RegExp(`/sections/${id}$`))]);
  });

  it('refuses a token of another tool, an edited one, and one from another process', async () => {
    const { session } = server(true);
    const token = String((await call(session, 'sections_delete', { id: 2 })).structuredContent.confirm);
    const other = await call(session, 'assignments_delete', { id: '2', course: 1, confirm: token });
    expect(other.content[0].text).toMatch(/handed out for another tool \(sections_delete\)/);
    const [body, mac] = token.split('.');
    const edited = await call(session, 'sections_delete', { id: 2, confirm: `${body}.${mac.slice(1)}x` });
    expect(edited.content[0].text).toMatch(/not one this server process handed out/);
    const elsewhere = await call(server(true).session, 'sections_delete', { id: 2, confirm: token });
    expect(elsewhere.content[0].text).toMatch(/not one this server process handed out/);
  });

  it('hands the run the plan it confirmed, for whatever records the write', async () => {
    const { session, confirmed } = server(true);
    const plan = await call(session, 'sections_delete', { id: 2 });
    expect(confirmed).toEqual([undefined]);
    await call(session, 'sections_delete', { id: '2', confirm: plan.structuredContent.confirm });
    const { confirm, confirm_expires_at, ...planned } = plan.structuredContent;
    expect(confirmed[1]).toEqual({
      tool: 'sections_delete',
      arguments: { id: '2' },
      plan: expect.objectContaining(planned),
      planDigest: expect.any(String),
      issuedAt: '2026-11-27T10:00:00.000Z',
    });
    expect([confirm, confirm_expires_at].every(Boolean)).toBe(true);
  });

  it('plans first what it finds destroys only as it runs (conv batch --event destroy)', async () => {
    deletes = [];
    const { session } = server(true);
    const plan = await call(session, 'conv_batch', { ids: '5', event: 'destroy' });
    expect(plan.isError, plan.content[0].text).toBeFalsy();
    expect(plan.content[0].text).toMatch(/This call destroys data \("Delete conversation 5 from your view"\)/);
    expect(plan.structuredContent).toMatchObject({ dry_run: true, confirm: expect.any(String) });
    const done = await call(session, 'conv_batch', {
      ids: '5',
      event: 'destroy',
      confirm: plan.structuredContent.confirm,
    });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(done.structuredContent.confirm).toBeUndefined();
  });

  it('hands out a token with the dry run of a destructive tool, which runs the call without dry_run', async () => {
    deletes = [];
    const { session } = server(true);
    const id = String((await call(session, 'sections_create', { course: 1, name: 'Empty' })).structuredContent.id);
    const dry = await call(session, 'sections_delete', { id, dry_run: true });
    expect(dry.content[0].text).toMatch(
      /^sections_delete: the plan \(a dry run; nothing was sent\)\.[\s\S]*call sections_delete again with the same arguments, without dry_run, and confirm = /,
    );
    expect(deletes).toEqual([]);
    const done = await call(session, 'sections_delete', { id, confirm: dry.structuredContent.confirm });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(deletes).toHaveLength(1);
    // A write that destroys nothing hands out none.
    expect(
      (await call(session, 'sections_create', { course: 1, name: 'Kept', dry_run: true })).structuredContent.confirm,
    ).toBeUndefined();
  });

  it('stays refused without --allow-destructive, a token or not', async () => {
    const { session } = server(false);
    const r = await call(session, 'sections_delete', { id: 2, confirm: 'anything' });
    expect(r.structuredContent.error).toMatchObject({ refused: true, needs: '--allow-destructive' });
  });
});

describe('a token bound to what its plan destroys', () => {
  const ROSTER = 'user,type\nsam,student\nsofia,student\n';
  const args = { course: 1, sync: true, file_text: ROSTER };
  type Row = { status: string; id: number | null; user: string };
  const concluded = (r: ToolResult) =>
    (r.structuredContent.rows as Row[]).filter((x) => x.status === 'concluded').map((x) => x.id);
  const conclusions = () => deletes.filter((url) => /\/courses\/1\/enrollments\/\d+/.test(url));

  /** Students who join course 1 (through the session's own tools, as anyone with write access could). */
  async function join(session: Session, logins: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const login of logins) {
      const user = await call(session, 'users_create', { account: 1, login_id: login, name: login });
      expect(user.isError, user.content[0].text).toBeFalsy();
      const enrolled = await call(session, 'enrollments_add', { course: 1, user: String(user.structuredContent.id) });
      expect(enrolled.isError, enrolled.content[0].text).toBeFalsy();
      ids.push(Number(enrolled.structuredContent.id));
    }
    return ids;
  }

  it('runs nothing when the plan changed since (five students joined): a new plan and token, which runs', async () => {
    deletes = [];
    const { session } = server(true);
    const plan = await call(session, 'enrollments_import', args);
    expect(plan.isError, plan.content[0].text).toBeFalsy();
    const before = concluded(plan);
    expect(before.length).toBeGreaterThan(0);
    const joined = await join(session, ['new1', 'new2', 'new3', 'new4', 'new5']);

    const stale = await call(session, 'enrollments_import', { ...args, confirm: plan.structuredContent.confirm });
    expect(stale.isError, stale.content[0].text).toBeFalsy();
    expect(conclusions()).toEqual([]);
    expect(stale.content[0].text).toMatch(/^enrollments_import: nothing was sent\. The plan changed since the token/);
    expect(stale.structuredContent).toMatchObject({ dry_run: true, plan_changed: true, confirm: expect.any(String) });
    expect(stale.structuredContent.confirm).not.toBe(plan.structuredContent.confirm);
    expect(concluded(stale).sort()).toEqual([...before, ...joined].sort());
    // The stale token is spent: it never runs.
    const replayed = await call(session, 'enrollments_import', { ...args, confirm: plan.structuredContent.confirm });
    expect(replayed.structuredContent.error).toMatchObject({ confirm: 'used' });
    expect(conclusions()).toEqual([]);

    const done = await call(session, 'enrollments_import', { ...args, confirm: stale.structuredContent.confirm });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(done.structuredContent.dry_run).toBeUndefined();
    expect(concluded(done).sort()).toEqual([...before, ...joined].sort());
    expect(conclusions()).toHaveLength(before.length + joined.length);
  });

  it('runs a plan that still holds, whatever changed that destroys nothing', async () => {
    deletes = [];
    const { session } = server(true);
    const plan = await call(session, 'enrollments_import', args);
    // A teacher joins: the file names only students, so --sync concludes no teacher.
    const user = await call(session, 'users_create', { account: 1, login_id: 'tnew', name: 'T New' });
    await call(session, 'enrollments_add', { course: 1, user: String(user.structuredContent.id), type: 'teacher' });
    const done = await call(session, 'enrollments_import', { ...args, confirm: plan.structuredContent.confirm });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(done.structuredContent.plan_changed).toBeUndefined();
    expect(conclusions()).toHaveLength(concluded(plan).length);
  });

  it('binds the rows that deactivate: a plan that now deactivates fewer is a new plan too', async () => {
    deletes = [];
    const { session } = server(true);
    const both = {
      course: 1,
      update: true,
      file_text: 'user,type,state\nsam,student,inactive\nsofia,student,inactive\n',
    };
    const plan = await call(session, 'enrollments_import', both);
    expect(plan.structuredContent.confirm).toEqual(expect.any(String));
    // Someone else deactivates sofia meanwhile, with a plan and token of their own.
    const sofia = { course: 1, update: true, file_text: 'user,type,state\nsofia,student,inactive\n' };
    const theirs = await call(session, 'enrollments_import', sofia);
    const { confirm } = theirs.structuredContent;
    const confirmed = await call(session, 'enrollments_import', { ...sofia, confirm });
    expect(confirmed.isError).toBeFalsy();
    const stale = await call(session, 'enrollments_import', { ...both, confirm: plan.structuredContent.confirm });
    expect(stale.structuredContent).toMatchObject({ dry_run: true, plan_changed: true });
    const sam = (stale.structuredContent.rows as Row[]).find((r) => r.user === 'sam');
    expect(sam).toMatchObject({ status: 'updated' });
    // sam is still active: nothing ran.
    const listed = await call(session, 'enrollments_list', { course: 1, user: 'sam' });
    const states = (listed.structuredContent.items as { enrollment_state: string }[]).map((e) => e.enrollment_state);
    expect(states).toEqual(['active']);
  });

  it('concludes only what was confirmed: one who joins while the confirmed run goes is left, and said', async () => {
    deletes = [];
    const { session, mock } = server(true);
    const users = new Map<string, number>();
    for (const login of ['late1', 'joiner']) {
      const made = await call(session, 'users_create', { account: 1, login_id: login, name: login });
      users.set(login, Number(made.structuredContent.id));
    }
    const roster = { course: 1, sync: true, file_text: `${ROSTER}late1,student\n` };
    const plan = await call(session, 'enrollments_import', roster);
    const planned = concluded(plan);
    const handler = mock.handler;
    let joined = false;
    mock.handler = async (req) => {
      const answer = await handler(req);
      // The run's own write (late1's enrollment) is when the joiner joins: after the run made its plan.
      if (!joined && req.method === 'POST' && /\/courses\/1\/enrollments$/.test(req.url)) {
        joined = true;
        const body = `enrollment[user_id]=${users.get('joiner')}&enrollment[type]=StudentEnrollment`;
        const headers = { ...req.headers, 'content-type': 'application/x-www-form-urlencoded' };
        const made = await handler({ ...req, headers, body });
        expect(made.status).toBe(200);
      }
      return answer;
    };
    const done = await call(session, 'enrollments_import', { ...roster, confirm: plan.structuredContent.confirm });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(joined).toBe(true);
    expect(concluded(done).sort()).toEqual(planned.sort());
    expect(conclusions()).toHaveLength(planned.length);
    expect(done.content[0].text).toMatch(/--sync left 1 enrollment the file does not list as it was: not in the plan/);
  });
});

describe('apply with prune, bound to what it deletes', () => {
  it('runs nothing when a section to prune was made since the plan: a new plan and token, which runs', async () => {
    deletes = [];
    const { session } = server(true);
    type Section = { id: number; name: string; sis_section_id: string | null };
    const listed = (await call(session, 'sections_list', { course: 1 })).structuredContent.items as Section[];
    const section = async (name: string, sis: string) =>
      String((await call(session, 'sections_create', { course: 1, name, sis_id: sis })).structuredContent.id);
    const spare = await section('Spare', 'BIO-101-SPARE');
    const line = (x: Section) => {
      const sis = x.sis_section_id ? `sis_section_id: ${x.sis_section_id}, ` : '';
      return `      - { ${sis}name: ${JSON.stringify(x.name)} }`;
    };
    const file = ['courses:', '  - sis_course_id: BIO-101', '    sections:', ...listed.map(line)].join('\n');
    const args = { file_text: `${file}\n`, prune: true };
    const plan = await call(session, 'apply', args);
    expect(plan.isError, plan.content[0].text).toBeFalsy();
    const deleting = (r: ToolResult) => {
      const [course] = r.structuredContent.courses as { actions: { action: string; id: number }[] }[];
      return course.actions.filter((a) => a.action === 'delete').map((a) => String(a.id));
    };
    expect(deleting(plan)).toEqual([spare]);
    const extra = await section('Extra', 'BIO-101-EXTRA');

    const stale = await call(session, 'apply', { ...args, confirm: plan.structuredContent.confirm });
    expect(stale.structuredContent).toMatchObject({ dry_run: true, plan_changed: true, confirm: expect.any(String) });
    expect(deleting(stale).sort()).toEqual([spare, extra].sort());
    expect(deletes).toEqual([]);

    const done = await call(session, 'apply', { ...args, confirm: stale.structuredContent.confirm });
    expect(done.isError, done.content[0].text).toBeFalsy();
    expect(deletes.map((url) => url.split('/').at(-1)).sort()).toEqual([spare, extra].sort());
  });
});

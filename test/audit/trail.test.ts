// The audit log as every surface writes it: one line per write sent, naming the surface and verb,
// none for a read or a dry run, and never the token, a password or what a body carried.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/log.js';
import { createContext, type Deps, type GlobalOptions } from '../../src/model/context.js';
import { callTool, newCursorKey, type Session as McpSession } from '../../src/mcp/call.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { MOCK_ADMIN_TOKEN, openMock } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { counted, issueCourse } from '../apply/helpers.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool } from '../helpers/mock-client.js';
import { FIXED_NOW, session } from '../helpers/run-lms.js';

const logOf = (stateDir: string): AuditEntry[] => {
  let text: string;
  try {
    text = readFileSync(join(stateDir, 'audit.log'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEntry);
};
const rawLog = (stateDir: string) => readFileSync(join(stateDir, 'audit.log'), 'utf8');

describe('a write through the CLI', () => {
  it('adds one line: when, the instance, who, the surface and verb, method, path and status; mode 0600', async () => {
    const lms = session();
    const r = await lms.run(
      'users create --account 1 --name "Pat Secretkeeper" --login-id pat.audit --password hunter2-very-secret -o json',
    );
    expect(r.exitCode).toBe(0);
    const id = JSON.parse(r.stdout).id as number;
    const [line, ...more] = logOf(lms.stateDir);
    expect(more).toEqual([]);
    expect(line).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      instance: 'mock::memory:',
      user: { via: 'seeded admin' },
      surface: 'cli',
      verb: 'lms users create',
      method: 'POST',
      path: '/api/v1/accounts/1/users',
      status: 200,
    });
    expect(statSync(join(lms.stateDir, 'audit.log')).mode & 0o777).toBe(0o600);
    // Neither the token nor anything the body carried.
    const text = rawLog(lms.stateDir);
    for (const secret of [MOCK_ADMIN_TOKEN, 'hunter2-very-secret', 'Secretkeeper', 'pat.audit'])
      expect(text).not.toContain(secret);
    expect(id).toBeGreaterThan(0);
  });

  it("names the masqueraded user beside the token's", async () => {
    const lms = session();
    expect((await lms.run('users update 7 --name Renamed --as-user 1')).exitCode).toBe(0);
    const lines = logOf(lms.stateDir);
    expect(lines).toEqual([
      expect.objectContaining({
        as_user: '1',
        user: { via: 'seeded admin' },
        method: 'PUT',
        path: '/api/v1/users/7?as_user_id=1',
        verb: 'lms users update',
      }),
    ]);
  });

  it('adds nothing for a read, nor for a dry run, which sends no write', async () => {
    const lms = session();
    expect((await lms.run('users list --account 1')).exitCode).toBe(0);
    expect((await lms.run('users create --account 1 --name Dry --login-id dry.run --dry-run')).exitCode).toBe(0);
    expect((await lms.run('users delete 7 --dry-run')).exitCode).toBe(0);
    expect(logOf(lms.stateDir)).toEqual([]);
  });

  it('logs a refused write with the status it ended on', async () => {
    const lms = session();
    const r = await lms.run('users delete 99999 --yes');
    expect(r.exitCode).toBe(4);
    expect(logOf(lms.stateDir)).toEqual([
      expect.objectContaining({
        verb: 'lms users delete',
        method: 'DELETE',
        path: '/api/v1/accounts/self/users/99999',
        status: 404,
      }),
    ]);
  });

  it('refuses a bad LMS_AUDIT_KEEP_DAYS before the write is sent', async () => {
    const lms = session({ LMS_AUDIT_KEEP_DAYS: 'forever' });
    const r = await lms.run('users create --account 1 --name Never --login-id never.sent');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('LMS_AUDIT_KEEP_DAYS must be a positive number of days, not "forever"');
    expect(lms.mock.db.prepare(`SELECT count(*) AS n FROM pseudonyms WHERE unique_id = 'never.sent'`).get()).toEqual({
      n: 0,
    });
  });
});

describe('a bulk import', () => {
  it('logs each write of its rows, then the job: its counts and journal', async () => {
    const lms = session();
    const dir = mkdtempSync(join(tmpdir(), 'lms-audit-import-'));
    const file = join(dir, 'users.csv');
    writeFileSync(file, 'name,login_id,sis_user_id\nRow One,row.one,R-1\nRow Two,row.two,R-2\n');
    const r = await lms.run(`users import ${file} -o json`);
    expect(r.exitCode).toBe(0);
    const lines = logOf(lms.stateDir);
    const writes = lines.filter((l) => l.method);
    expect(writes).toHaveLength(2);
    for (const w of writes)
      expect(w).toMatchObject({ surface: 'cli', verb: 'lms users import', method: 'POST', status: 200 });
    const job = lines.at(-1)!;
    expect(job).toMatchObject({
      surface: 'cli',
      verb: 'lms users import',
      job: { name: 'users.import', counts: { total: 2, created: 2, failed: 0, invalid: 0 } },
    });
    expect(job.method).toBeUndefined();
    expect(statSync(job.job!.journal!).isFile()).toBe(true);
    expect(job.job!.journal!.startsWith(join(lms.stateDir, 'journals'))).toBe(true);
    expect(rawLog(lms.stateDir)).not.toContain('Row One');
    // Its dry run adds nothing.
    writeFileSync(file, 'name,login_id,sis_user_id\nRow Three,row.three,R-3\n');
    expect((await lms.run(`users import ${file} --dry-run -o json`)).exitCode).toBe(0);
    expect(logOf(lms.stateDir)).toHaveLength(lines.length);
  });
});

describe('lms apply', () => {
  it('logs its writes under the apply surface, then its counts', async () => {
    const s = counted();
    const file = issueCourse(s);
    const r = await s.run(`apply -f ${file} --yes -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const stateDir = join(s.dir, 'state');
    const lines = logOf(stateDir);
    const writes = lines.filter((l) => l.method);
    expect(writes.length).toBe(s.writes().length);
    expect(writes.length).toBeGreaterThan(3);
    for (const w of writes)
      expect(w).toMatchObject({ surface: 'apply', verb: 'lms apply', status: expect.any(Number) });
    expect(lines.at(-1)).toMatchObject({
      surface: 'apply',
      job: { name: 'apply', counts: { total: 15, created: 14, updated: 1, failed: 0, not_done: 0 } },
    });
    // The plan alone writes nothing.
    expect((await s.run(`apply -f ${file} --plan`)).exitCode).toBe(0);
    expect((await s.run(`apply -f ${file} --dry-run`)).exitCode).toBe(0);
    expect(logOf(stateDir)).toHaveLength(lines.length);
  });
});

describe('a tool of lms mcp', () => {
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

  beforeAll(async () => {
    tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
  });

  function server(stateDir: string): McpSession {
    const mock = jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool));
    const deps: Deps = {
      io: fakeIO(),
      env: { LMS_MOCK: '1', LMS_STATE_DIR: stateDir },
      mock,
      configDir: mkdtempSync(join(tmpdir(), 'lms-mcp-config-')),
    };
    return {
      ctx: createContext(deps, GLOBALS),
      model: commandModel,
      allowWrites: true,
      allowDestructive: false,
      cursorKey: newCursorKey(),
    };
  }

  it("logs a write under mcp:<tool>, and nothing for a read or the tool's dry run", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'lms-audit-mcp-'));
    const s = server(stateDir);
    const listed = await callTool(tools.get('users_list')!, { account: 1 }, s);
    expect(listed.isError).toBeFalsy();
    const dry = await callTool(
      tools.get('users_create')!,
      { account: 1, name: 'Dry Tool', login_id: 'dry.tool', dry_run: true },
      s,
    );
    expect(dry.isError).toBeFalsy();
    expect(logOf(stateDir)).toEqual([]);
    const made = await callTool(
      tools.get('users_create')!,
      { account: 1, name: 'Tool Made', login_id: 'tool.made' },
      s,
    );
    expect(made.isError).toBeFalsy();
    expect(logOf(stateDir)).toEqual([
      expect.objectContaining({
        surface: 'mcp:users_create',
        verb: 'lms users create',
        method: 'POST',
        path: '/api/v1/accounts/1/users',
        status: 200,
      }),
    ]);
    expect(rawLog(stateDir)).not.toContain('Tool Made');
    expect(rawLog(stateDir)).not.toContain(MOCK_ADMIN_TOKEN);
  });

  it('records the digest of the plan a confirmed destructive call ran, and nothing for the plan itself', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'lms-audit-mcp-'));
    const s = { ...server(stateDir), allowDestructive: true };
    const made = await callTool(tools.get('sections_create')!, { course: 1, name: 'To go' }, s);
    const id = (made.structuredContent as { id: number }).id;
    const plan = await callTool(tools.get('sections_delete')!, { id }, s);
    expect(plan.isError).toBeFalsy();
    expect(logOf(stateDir)).toHaveLength(1);
    const done = await callTool(
      tools.get('sections_delete')!,
      { id, confirm: String(plan.structuredContent?.confirm) },
      s,
    );
    expect(done.isError, done.content[0]?.text).toBeFalsy();
    expect(logOf(stateDir)).toEqual([
      expect.not.objectContaining({ confirmed: expect.anything() }),
      expect.objectContaining({
        surface: 'mcp:sections_delete',
        method: 'DELETE',
        confirmed: { plan_digest: expect.stringMatching(/^[\w-]{43}$/), issued_at: expect.any(String) },
      }),
    ]);
  });
});

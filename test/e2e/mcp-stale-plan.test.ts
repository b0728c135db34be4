// End to end: the stale-plan case of a confirmation token, with the official SDK's client over
// stdio. `enrollments_import` with `sync` plans "conclude N"; five students join the course (another
// lms, on the same mock database); the call with that plan's token concludes nothing and answers the
// new plan with a new token; the new token runs it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('mcp-stale');
const db = { ...env, LMS_MOCK_DB: join(dir, 'stale.db') };

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Row {
  user: string;
  status: string;
  id: number | null;
}

let client: Client;
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;
const byId = (a: number, b: number) => a - b;
const concluded = (r: Result) =>
  ((r.structuredContent?.rows ?? []) as Row[])
    .filter((x) => x.status === 'concluded')
    .map((x) => x.id!)
    .sort(byId);

/** The course's live student enrollments, as another lms reads them. */
async function liveStudents(): Promise<number[]> {
  const line = ['--mock', 'enrollments', 'list', '--course', '1', '--type', 'student', '--all', '-o', 'json'];
  const r = await spawnLms(line, db);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: number }[]).map((e) => e.id).sort(byId);
}

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], db);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  const args = [bin, '--mock', 'mcp', '--allow-destructive'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...db, LMS_MCP_TOOLSETS: 'all' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'lms-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

describe('lms mcp: a token whose plan went stale', () => {
  it('concludes nothing when five students joined since the plan: a new plan and token, which runs', async () => {
    const args = { course: 1, sync: true, file_text: 'user,type\nsam,student\nsofia,student\n' };
    const plan = await call('enrollments_import', args);
    expect(plan.isError, plan.content[0]?.text).toBeFalsy();
    const planned = concluded(plan);
    expect(planned.length).toBeGreaterThan(0);

    // Five students join, through another lms on the same school.
    const joined: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const create = ['users', 'create', '--account', '1', '--login-id', `joiner${i}`, '--name', `Joiner ${i}`];
      const user = await spawnLms(['--mock', ...create, '-o', 'json'], db);
      expect(user.exitCode, user.stderr).toBe(0);
      const id = String((JSON.parse(user.stdout) as { id: number }).id);
      const add = ['enrollments', 'add', '--course', '1', '--user', id];
      const enrolled = await spawnLms(['--mock', ...add, '-o', 'json'], db);
      expect(enrolled.exitCode, enrolled.stderr).toBe(0);
      joined.push((JSON.parse(enrolled.stdout) as { id: number }).id);
    }
    const live = await liveStudents();

    const stale = await call('enrollments_import', { ...args, confirm: plan.structuredContent?.confirm });
    expect(stale.isError, stale.content[0]?.text).toBeFalsy();
    expect(stale.content[0].text).toMatch(/^enrollments_import: nothing was sent\. The plan changed since the token/);
    expect(stale.structuredContent).toMatchObject({ dry_run: true, plan_changed: true, confirm: expect.any(String) });
    expect(stale.structuredContent?.confirm).not.toBe(plan.structuredContent?.confirm);
    expect(concluded(stale)).toEqual([...planned, ...joined].sort(byId));
    expect(await liveStudents()).toEqual(live);

    const done = await call('enrollments_import', { ...args, confirm: stale.structuredContent?.confirm });
    expect(done.isError, done.content[0]?.text).toBeFalsy();
    expect(done.structuredContent?.dry_run).toBeUndefined();
    expect(concluded(done)).toEqual([...planned, ...joined].sort(byId));
    const students = new Set([...planned, ...joined]);
    expect(await liveStudents()).toEqual(live.filter((id) => !students.has(id)));
  });
});

// Background jobs and their Progress: the runner's states, slices and failure report, and who may read it.
import { describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../src/spec/types/progress.js';
import { spawnSync } from 'node:child_process';
import { createJobRunner } from '../../src/mock/jobs.js';
import { clientFor, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { session } from '../helpers/run-lms.js';
import { value } from '../helpers/sql.js';

const renameJob = (names: string[], userId: number | null = 1) => ({
  tag: 'test_rename',
  context: { type: 'Course', id: 1 },
  userId,
  items: names,
  apply(db: import('../../src/mock/db/open.js').Db, name: string) {
    if (name.startsWith('!')) throw new Error('refused');
    db.prepare(`UPDATE users SET short_name = ? WHERE id = 7`).run(name);
  },
  label: (name: string) => name,
  results: (_db: unknown, outcome: { succeeded: number; failed: number }) => outcome,
});

describe('the job runner', () => {
  it('moves a Progress from queued through running to completed, one slice at a time', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const names = Array.from({ length: 45 }, (_, i) => `name ${i}`);
    // The runner's slices wait on setTimeout: faked, each poll sees exactly one more slice, however busy the machine.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const seen: Progress[] = [];
    try {
      const started = mock.jobs.start(renameJob(names));
      expect(started).toMatchObject({ workflow_state: 'queued', completion: 0, tag: 'test_rename' });
      for (;;) {
        const p = await admin.ops.progress.get({ id: started.id });
        seen.push(p);
        if (p.workflow_state === 'completed') break;
        vi.advanceTimersToNextTimer();
      }
    } finally {
      vi.useRealTimers();
    }
    const started = seen[0]!;
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      completion: 100,
      message: '45 items processed',
      results: { succeeded: 45, failed: 0 },
      url: `http://lms.mock/api/v1/progress/${started.id}`,
    });
    expect(seen.some((p) => p.workflow_state === 'running' && p.completion! > 0 && p.completion! < 100)).toBe(true);
    // completion only grows
    const completions = seen.map((p) => p.completion!);
    expect([...completions].sort((a, b) => a - b)).toEqual(completions);
    expect(value(mock.db, `SELECT short_name FROM users WHERE id = 7`)).toBe('name 44');
  });

  it('reports failed items by reason and completes when at least one succeeded', async () => {
    const mock = freshMock();
    const p = mock.jobs.start(renameJob(['a', '!b', '!c', 'd']));
    await mock.jobs.idle();
    const done = await clientFor(mock, TOKENS.admin).ops.progress.get({ id: p.id });
    expect(done).toMatchObject({
      workflow_state: 'completed',
      message: '4 items processed\nrefused: !b, !c',
      results: { succeeded: 2, failed: 2 },
    });
  });

  it('fails when no item succeeded, and a failed item leaves nothing half-applied', async () => {
    const mock = freshMock();
    const p = mock.jobs.start({
      ...renameJob(['!x']),
      apply(db, name: string) {
        db.prepare(`UPDATE users SET short_name = 'half' WHERE id = 7`).run();
        throw new Error(`no ${name}`);
      },
    });
    await mock.jobs.idle();
    expect(await clientFor(mock, TOKENS.admin).ops.progress.get({ id: p.id })).toMatchObject({
      workflow_state: 'failed',
      message: '1 items processed\nno !x: !x',
    });
    expect(value(mock.db, `SELECT short_name FROM users WHERE id = 7`)).not.toBe('half');
  });

  it('drops a job whose starting request rolled back', async () => {
    const mock = freshMock();
    let applied = 0;
    try {
      mock.db.transaction(() => {
        mock.jobs.start({ ...renameJob(['a']), apply: () => void applied++ });
        throw new Error('the request failed after starting its job');
      });
    } catch {
      /* the rollback under test */
    }
    await mock.jobs.idle();
    expect(applied).toBe(0);
  });
});

describe('GET /api/v1/progress/:id', () => {
  it.each([
    ['the admin', TOKENS.admin, 'ok'],
    ['a teacher of the course', TOKENS.teacher, 'ok'],
    ["the job's own user", TOKENS.student, 'ok'],
    ['a teacher of other courses only', TOKENS.otherTeacher, 401],
  ] as const)('%s: %s', async (_who, token, expected) => {
    const mock = freshMock();
    const p = mock.jobs.start({ ...renameJob(['a'], 7), context: { type: 'Course', id: 1 } });
    await mock.jobs.idle();
    expect(await statusOf(clientFor(mock, token).ops.progress.get({ id: p.id }))).toBe(expected);
  });

  it('is 404 for an unknown or malformed id, and carries no results while queued', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    expect(await statusOf(admin.ops.progress.get({ id: 99999 }))).toBe(404);
    expect(await statusOf(admin.ops.progress.get({ id: 'x1' }))).toBe(404);
    const p = mock.jobs.start(renameJob(['a']));
    const queued = await admin.ops.progress.get({ id: p.id });
    expect(queued.workflow_state).toBe('queued');
    expect('results' in queued).toBe(false);
    await mock.jobs.idle();
  });
});

describe('lms progress get', () => {
  it('shows a Progress, and with --wait follows it to the end', async () => {
    const lms = session();
    const p = lms.mock.jobs.start(renameJob(Array.from({ length: 30 }, (_, i) => `n${i}`)));
    const r = await lms.run(`progress get ${p.id} --wait -v -o json --fields workflow_state,completion`);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ workflow_state: 'completed', completion: 100 });
    expect(r.stderr).toMatch(/progress \d+ 100% completed/);
  });

  it("exits 1 with the job's message when the job fails", async () => {
    const lms = session();
    const p = lms.mock.jobs.start(renameJob(['!a']));
    const r = await lms.run(`progress get ${p.id} --wait`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('test_rename) failed: 1 items processed');
  });

  it('draws a bar on a terminal and clears it at the end', async () => {
    const lms = session();
    const p = lms.mock.jobs.start(renameJob(['a', 'b']));
    const r = await lms.run(`progress get ${p.id} --wait -o json`, { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/\[#*-*\] \d+%/);
    expect(r.stderr.endsWith('\r\x1b[K')).toBe(true);
  });
});

describe('jobs whose process is gone', () => {
  it('are failed when a runner starts, keeping how far they got; live processes keep theirs', () => {
    const mock = freshMock();
    const gone = spawnSync(process.execPath, ['-p', 'process.pid'], { encoding: 'utf8' }).stdout.trim();
    const insert = mock.db.prepare(
      'INSERT INTO progress (context_type, context_id, tag, completion, workflow_state, runner_pid, created_at, ' +
        `updated_at) VALUES ('Course', 1, 'x', ?, ?, ?, 'now', 'now')`,
    );
    const orphan = Number(insert.run(33, 'running', Number(gone)).lastInsertRowid);
    const queued = Number(insert.run(0, 'queued', Number(gone)).lastInsertRowid);
    const mine = Number(insert.run(50, 'running', process.pid).lastInsertRowid);
    const parents = Number(insert.run(10, 'running', process.ppid).lastInsertRowid);
    const finished = Number(insert.run(100, 'completed', Number(gone)).lastInsertRowid);
    createJobRunner(mock.db, { now: () => '2026-11-02T12:00:00.000Z', tickMs: 0 });
    const state = (id: number) =>
      mock.db.prepare(`SELECT workflow_state, completion, message FROM progress WHERE id = ?`).get(id);
    expect(state(orphan)).toEqual({
      workflow_state: 'failed',
      completion: 33,
      message: 'the server stopped before this job finished; run it again',
    });
    expect(state(queued)).toMatchObject({ workflow_state: 'failed' });
    expect(state(mine)).toMatchObject({ workflow_state: 'running' });
    expect(state(parents)).toMatchObject({ workflow_state: 'running' });
    expect(state(finished)).toMatchObject({ workflow_state: 'completed' });
  });
});

// Background jobs outlive no server: `lms mock serve` killed with -9 mid-job leaves a Progress that
// the next server fails, so `lms progress get --wait` returns (exit 1, the job's state); and every
// wait has a bound (LMS_WAIT_TIMEOUT), past which it exits 1 with the last state it saw.
import { describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms } from '../helpers/e2e.js';

/** Starts an update_grades job on the server and returns its Progress id. */
async function startGrading(url: string): Promise<number> {
  const body = new URLSearchParams({ 'grade_data[7][posted_grade]': '10', 'grade_data[8][posted_grade]': '11' });
  const res = await fetch(`${url}/api/v1/courses/1/assignments/1/submissions/update_grades`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}` },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

describe('a job its server did not finish', () => {
  it('is failed by the next server, and --wait returns with exit 1 and its state', async () => {
    await ensureBuilt();
    const { env } = e2eWorkspace('orphaned-job');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    // A slice a minute: the job is still running when its server dies.
    const first = await serveMock({ ...env, LMS_MOCK_JOB_TICK_MS: '60000' });
    const id = await startGrading(first.url);
    first.child.kill('SIGKILL');
    await first.child.catch(() => undefined);

    const second = await serveMock(env);
    try {
      const waited = await spawnLms(['progress', 'get', String(id), '--wait', '-o', 'json'], {
        ...env,
        LMS_BASE_URL: second.url,
        LMS_TOKEN: ADMIN,
        LMS_WAIT_TIMEOUT: '60',
      });
      expect(waited.exitCode).toBe(1);
      expect(JSON.parse(waited.stdout)).toMatchObject({
        id,
        workflow_state: 'failed',
        message: expect.stringContaining('the server stopped before this job finished'),
      });
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('a wait that runs past LMS_WAIT_TIMEOUT exits 1 with the last state seen', async () => {
    await ensureBuilt();
    const { env } = e2eWorkspace('wait-bound');
    expect((await spawnLms(['mock', 'seed', '--yes'], env)).exitCode).toBe(0);
    const server = await serveMock({ ...env, LMS_MOCK_JOB_TICK_MS: '60000' });
    try {
      const id = await startGrading(server.url);
      const waited = await spawnLms(['progress', 'get', String(id), '--wait'], {
        ...env,
        LMS_BASE_URL: server.url,
        LMS_TOKEN: ADMIN,
        LMS_WAIT_TIMEOUT: '1',
      });
      expect(waited.exitCode).toBe(1);
      expect(waited.stderr).toMatch(
        new RegExp(`progress ${id} did not finish within 1 s; last seen (queued|running), 0% done`),
      );
      expect(waited.stderr).toContain('LMS_WAIT_TIMEOUT');
    } finally {
      await server.stop();
    }
  }, 60_000);
});

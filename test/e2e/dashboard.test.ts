// End to end: what a student or teacher sees first (activity, to-do, upcoming), derived from what
// the other commands do, as the built binary runs them against `lms mock serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const TEACHER = '3~mock-tteacher';
const STUDENT = '7~mock-sam';

const { env } = e2eWorkspace('e2e-dashboard');
let server: Served;

async function json(line: string[], token: string): Promise<unknown> {
  const r = await spawnLms([...line, '-o', 'json'], { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: token });
  expect(r.exitCode, `${line.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as unknown;
}

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock(env, ['--quiet']);
});

afterAll(async () => {
  await server?.stop();
});

describe('the dashboard over HTTP', () => {
  it("a topic posted by the teacher comes first in the student's activity", async () => {
    await json(['topics', 'create', '--course', '1', '--title', 'Exam review thread', '--publish'], TEACHER);
    const stream = (await json(['activity', '--fields', 'type,title,read_state'], STUDENT)) as unknown[];
    expect(stream[0]).toEqual({ type: 'DiscussionTopic', title: 'Exam review thread', read_state: false });
  });

  it(
    "a submission puts a grading to-do on the teacher's " + 'list; the grade takes it away and reaches the student',
    async () => {
      const todo = (await json(['todo'], STUDENT)) as { type: string; assignment: { id: number; name: string } }[];
      const worksheet = todo.find((t) => t.type === 'submitting')!.assignment;
      expect(worksheet.name).toBe('Stereochemistry Worksheet');
      const upcoming = (await json(['upcoming', '--fields', 'id'], STUDENT)) as { id: unknown }[];
      expect(upcoming).toContainEqual({ id: `assignment_${worksheet.id}` });

      await json(
        ['submissions', 'submit', '--course', '2', '--assignment', String(worksheet.id), '--text', '<p>done</p>'],
        STUDENT,
      );
      expect(((await json(['todo'], STUDENT)) as unknown[]).length).toBe(0);
      const grading = (await json(['todo', '--fields', 'type,assignment.id,needs_grading_count'], TEACHER)) as Record<
        string,
        unknown
      >[];
      expect(grading).toContainEqual({ type: 'grading', 'assignment.id': worksheet.id, needs_grading_count: 1 });

      await json(['grade', '--course', '2', '--assignment', String(worksheet.id), '--user', '7', '14'], TEACHER);
      const after = (await json(['todo', '--fields', 'assignment.id'], TEACHER)) as Record<string, unknown>[];
      expect(after).not.toContainEqual({ 'assignment.id': worksheet.id });
      const stream = (await json(['activity', '--fields', 'type,title'], STUDENT)) as { type: string; title: string }[];
      expect(stream.slice(0, 2)).toEqual(
        expect.arrayContaining([
          { type: 'Submission', title: 'Stereochemistry Worksheet' },
          { type: 'Message', title: 'Grade posted: Stereochemistry Worksheet' },
        ]),
      );
    },
  );

  it('an ignored to-do stays away over HTTP', async () => {
    const before = (await json(['todo', '--fields', 'assignment.id'], TEACHER)) as { 'assignment.id': number }[];
    expect(before.length).toBeGreaterThan(0);
    const id = before[0]!['assignment.id'];
    expect(await json(['todo', 'ignore', String(id)], TEACHER)).toEqual({ ignored: true });
    expect((await json(['todo', '--fields', 'assignment.id'], TEACHER)) as unknown[]).not.toContainEqual({
      'assignment.id': id,
    });
  });
});

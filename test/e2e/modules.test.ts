// End to end: modules as the built binary runs them against `lms mock serve` — a teacher builds a
// module with every kind of requirement, a student works through it and the teacher reads their
// progress — and a client written the way ucfopen/canvasapi is (its Requester and PaginatedList:
// bracketed form fields from nested keyword arguments, per_page, Link rel="next" followed as given,
// `complete()`/`uncomplete()` parsing the answer as JSON) working unmodified against the same server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginated, requester } from '../helpers/canvasapi.js';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-modules');
const servers: Served[] = [];
const TEACHER = '3~mock-tteacher';
const SAM = '7~mock-sam';

beforeAll(ensureBuilt);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function server(name: string): Promise<Served> {
  const s = await serveMock({ ...env, LMS_MOCK_DB: join(dir, `${name}.db`) }, ['--quiet']);
  servers.push(s);
  return s;
}

describe('lms modules over HTTP', () => {
  it('builds a module, a student works through it, the teacher reads their progress', async () => {
    const s = await server('cli');
    const as = (token: string) => ({ ...env, LMS_BASE_URL: s.url, LMS_TOKEN: token });
    const lms = async (token: string, ...args: string[]) => {
      const r = await spawnLms([...args, '-o', 'json'], as(token));
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout ? JSON.parse(r.stdout) : undefined;
    };
    const made = await lms(TEACHER, 'modules', 'create', '--course', '1', '--name', 'Lab week', '--publish');
    expect(made).toMatchObject({ published: true, position: 4 });
    const id = String(made.id);
    const view = await lms(
      TEACHER,
      'modules',
      'items',
      'add',
      id,
      '--course',
      '1',
      '--type',
      'ExternalUrl',
      '--title',
      'Protocol',
      '--external-url',
      'https://example.edu/protocol',
      '--requirement',
      'must_view',
    );
    const done = await lms(
      TEACHER,
      'modules',
      'items',
      'add',
      id,
      '--course',
      '1',
      '--type',
      'Assignment',
      '--content-id',
      '3',
      '--requirement',
      'must_mark_done',
    );
    await lms(TEACHER, 'modules', 'items', 'update', id, String(view.id), '--course', '1', '--published', 'true');
    const state = async () => (await lms(TEACHER, 'modules', 'get', id, '--course', '1', '--student', '7')).state;
    expect(await state()).toBe('unlocked');
    const read = await spawnLms(['modules', 'items', 'read', id, String(view.id), '--course', '1'], as(SAM));
    expect(read.exitCode, read.stderr).toBe(0);
    expect(await state()).toBe('started');
    await lms(SAM, 'modules', 'items', 'done', id, String(done.id), '--course', '1');
    expect(await state()).toBe('completed');
    const mine = await lms(SAM, 'modules', 'items', 'list', id, '--course', '1');
    expect(
      mine.map((i: { completion_requirement: { completed: boolean } }) => i.completion_requirement.completed),
    ).toEqual([true, true]);
    const refused = await spawnLms(['modules', 'delete', id, '--course', '1', '--yes'], as(SAM));
    expect(refused.exitCode).toBe(3);
    expect((await lms(TEACHER, 'modules', 'delete', id, '--course', '1', '--yes')).workflow_state).toBe('deleted');
  });
  it("uploads a file into the course's files and makes it a File item a student views", async () => {
    const s = await server('files');
    const as = (token: string) => ({ ...env, LMS_BASE_URL: s.url, LMS_TOKEN: token });
    const lms = async (token: string, ...args: string[]) => {
      const r = await spawnLms([...args, '-o', 'json'], as(token));
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout ? JSON.parse(r.stdout) : undefined;
    };
    const path = join(dir, 'handout.pdf');
    writeFileSync(path, '%PDF-1.4 handout');
    const file = await lms(TEACHER, 'courses', 'upload', '1', path);
    expect(file).toMatchObject({ display_name: 'handout.pdf', 'content-type': 'application/pdf', size: 16 });
    const refused = await spawnLms(['courses', 'upload', '1', path], as(SAM));
    expect(refused.exitCode).toBe(3);
    const made = await lms(TEACHER, 'modules', 'create', '--course', '1', '--name', 'Handouts', '--publish');
    const id = String(made.id);
    const item = await lms(
      TEACHER,
      'modules',
      'items',
      'add',
      id,
      '--course',
      '1',
      '--type',
      'File',
      '--content-id',
      String(file.id),
      '--requirement',
      'must_view',
    );
    expect(item).toMatchObject({ type: 'File', title: 'handout.pdf', content_id: file.id });
    await lms(TEACHER, 'modules', 'items', 'update', id, String(item.id), '--course', '1', '--published', 'true');
    expect(await lms(SAM, 'files', 'get', String(file.id))).toMatchObject({ id: file.id, size: 16 });
    const bytes = await fetch(file.url);
    expect(await bytes.text()).toBe('%PDF-1.4 handout');
    const state = async () => (await lms(TEACHER, 'modules', 'get', id, '--course', '1', '--student', '7')).state;
    expect(await state()).toBe('unlocked');
    const read = await spawnLms(['modules', 'items', 'read', id, String(item.id), '--course', '1'], as(SAM));
    expect(read.exitCode, read.stderr).toBe(0);
    expect(await state()).toBe('completed');
  });
});

describe('a canvasapi-style client against lms mock serve', () => {
  it('lists, creates, edits, completes and deletes as canvasapi calls them', async () => {
    const s = await server('canvasapi');
    const teacher = requester(s.url, TEACHER);
    const student = requester(s.url, SAM);
    // course.get_modules(include=['items']) and module.list_module_items()
    const modules = await paginated(teacher, 'courses/1/modules', { include: ['items'] });
    expect(modules.map((m) => m.name)).toEqual(['Week 1: Cells', 'Week 2: Genetics', 'Week 3 (draft)']);
    expect(modules.map((m) => (m.items as unknown[]).length)).toEqual([5, 2, 1]);
    const items = await paginated(teacher, 'courses/1/modules/1/items', {});
    expect(items.map((i) => i.position)).toEqual([1, 2, 3, 4, 5]);
    // course.create_module(module={...})
    const made = (
      await teacher('POST', 'courses/1/modules', {
        module: { name: 'From canvasapi', prerequisite_module_ids: [1], require_sequential_progress: true },
      })
    ).json as { id: number; prerequisite_module_ids: number[]; require_sequential_progress: boolean };
    expect(made).toMatchObject({ prerequisite_module_ids: [1], require_sequential_progress: true });
    // module.edit(module={'published': True})
    const edited = (
      await teacher('PUT', `courses/1/modules/${made.id}`, { module: { published: true, name: 'Renamed' } })
    ).json as { name: string; published: boolean };
    expect(edited).toMatchObject({ name: 'Renamed', published: true });
    // module.create_module_item(module_item={'type': ..., 'content_id': ...}) — canvasapi always sends content_id
    const created = (
      await teacher('POST', `courses/1/modules/${made.id}/items`, {
        module_item: { type: 'Assignment', content_id: 3, completion_requirement: { type: 'must_mark_done' } },
      })
    ).json as { id: number; module_id: number; completion_requirement: { type: string } };
    expect(created).toMatchObject({ module_id: made.id, completion_requirement: { type: 'must_mark_done' } });
    // module_item.edit(module_item={'indent': 1})
    const moved = (
      await teacher('PUT', `courses/1/modules/${made.id}/items/${created.id}`, { module_item: { indent: 1 } })
    ).json as { indent: number };
    expect(moved.indent).toBe(1);
    // module.relock()
    expect(((await teacher('PUT', `courses/1/modules/${made.id}/relock`)).json as { id: number }).id).toBe(made.id);
    // module_item.complete() and uncomplete(), as the student; each answer is JSON.
    const reach = await teacher('GET', `courses/1/modules/${made.id}`, { student_id: 7 });
    expect((reach.json as { state: string }).state).toBe('locked');
    await expect(student('PUT', `courses/1/modules/${made.id}/items/${created.id}/done`)).rejects.toThrow(/403/);
    expect((await student('PUT', 'courses/1/modules/1/items/5/done')).json).toEqual({ message: 'OK' });
    expect((await student('DELETE', 'courses/1/modules/1/items/5/done')).json).toEqual({ message: 'OK' });
    // module_item.delete() and module.delete()
    expect(
      ((await teacher('DELETE', `courses/1/modules/${made.id}/items/${created.id}`)).json as { id: number }).id,
    ).toBe(created.id);
    expect(
      ((await teacher('DELETE', `courses/1/modules/${made.id}`)).json as { workflow_state: string }).workflow_state,
    ).toBe('deleted');
  });
});

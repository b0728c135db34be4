// Modules in the mock: who sees what, the rules of each parameter, and a student's progression as
// Canvas evaluates it, walked through every requirement type (must_submit by a submission,
// must_contribute by a topic entry, min_score by a grade, must_view by marking the item read,
// must_mark_done), prerequisites, sequential progress, relocking and the unlock date.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { createPendingAttachment, makeAvailable } from '../../src/mock/areas/files/repo.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import type { Module, ModuleItem } from '../../src/spec/types/modules.js';
import { clientFor, collect, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const teacher = () => as(TOKENS.teacher);
const SOFIA = 8;

describe('reading', () => {
  it('shows students the published modules and items; managers all, with published', async () => {
    const staff = await collect(teacher().modules.list({ course_id: 1 }));
    expect(staff.map((m) => [m.id, m.name, m.published])).toEqual([
      [1, 'Week 1: Cells', true],
      [2, 'Week 2: Genetics', true],
      [3, 'Week 3 (draft)', false],
    ]);
    const sam = await collect(as(TOKENS.student).modules.list({ course_id: 1 }));
    expect(sam.map((m) => m.id)).toEqual([1, 2]);
    expect(sam[0]).not.toHaveProperty('published');
    expect(await statusOf(as(TOKENS.student).modules.get({ course_id: 1, id: 3 }))).toBe(404);
    expect(await statusOf(collect(as(TOKENS.otherTeacher).modules.list({ course_id: 1 })))).toBe(401);
    // The observer sees what the student sees, without a progress of their own.
    const olive = await collect(as(TOKENS.observer).modules.list({ course_id: 1 }));
    expect(olive.map((m) => [m.id, m.state])).toEqual([
      [1, undefined],
      [2, undefined],
    ]);
  });

  it('carries the caller’s progress for a student, and a student’s for those who may read their grades', async () => {
    const mine = await collect(as(TOKENS.student).modules.list({ course_id: 1 }));
    expect(mine.map((m) => m.state)).toEqual(['started', 'locked']);
    const bySam = await collect(teacher().modules.list({ course_id: 1, student_id: 7 }));
    expect(bySam.map((m) => m.state)).toEqual(['started', 'locked']);
    // As the student sees them: no draft module.
    expect(bySam.map((m) => m.id)).toEqual([1, 2]);
    expect((await collect(as(TOKENS.observer).modules.list({ course_id: 1, student_id: 7 }))).length).toBe(2);
    expect(await statusOf(collect(as(TOKENS.observer).modules.list({ course_id: 1, student_id: SOFIA })))).toBe(401);
    expect(await statusOf(collect(as(TOKENS.student).modules.list({ course_id: 1, student_id: SOFIA })))).toBe(401);
    // A teacher is no student of the course.
    expect(await statusOf(collect(teacher().modules.list({ course_id: 1, student_id: 3 })))).toBe(401);
    expect(await statusOf(collect(teacher().modules.list({ course_id: 1, student_id: 999 })))).toBe(401);
  });

  it('inlines items, searches modules by name and, with items, items by title', async () => {
    const withItems = await collect(teacher().modules.list({ course_id: 1, include: ['items'] }));
    expect(withItems.map((m) => m.items?.length)).toEqual([5, 2, 1]);
    expect((await collect(teacher().modules.list({ course_id: 1, search_term: 'genet' }))).map((m) => m.id)).toEqual([
      2,
    ]);
    const found = await collect(teacher().modules.list({ course_id: 1, include: ['items'], search_term: 'quiz' }));
    expect(found.map((m) => [m.id, m.items?.map((i) => i.title)])).toEqual([[2, ['Microscope Safety Quiz']]]);
    expect((await failure(collect(teacher().modules.list({ course_id: 1, search_term: 'q' })))).status).toBe(400);
  });

  it('pages modules and items by key', async () => {
    const c = clientFor(mock, TOKENS.teacher, { perPage: 2 }).ops.modules;
    expect((await collect(c.list({ course_id: 1 }))).map((m) => m.id)).toEqual([1, 2, 3]);
    expect((await collect(c.listItems({ course_id: 1, module_id: 1 }))).map((i) => i.position)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it('hides an item whose content students cannot see', async () => {
    const draft = await teacher().assignments.create({
      course_id: 1,
      assignment: { name: 'Draft assignment', published: false },
    });
    const item = await teacher().modules.createItem({
      course_id: 1,
      module_id: 1,
      module_item: { type: 'Assignment', content_id: draft.id, published: true },
    });
    await teacher().modules.updateItem({ course_id: 1, module_id: 1, id: item.id, module_item: { published: true } });
    const seen = await collect(as(TOKENS.student).modules.listItems({ course_id: 1, module_id: 1 }));
    expect(seen.map((i) => i.title)).not.toContain('Draft assignment');
    expect(await statusOf(as(TOKENS.student).modules.getItem({ course_id: 1, module_id: 1, id: item.id }))).toBe(404);
    expect((await teacher().modules.getItem({ course_id: 1, module_id: 1, id: item.id })).published).toBe(true);
    await teacher().assignments.update({ course_id: 1, id: draft.id, assignment: { published: true } });
    expect((await as(TOKENS.student).modules.getItem({ course_id: 1, module_id: 1, id: item.id })).title).toBe(
      'Draft assignment',
    );
  });
});

describe('writing', () => {
  it('creates modules unpublished, at a position, with earlier modules as prerequisites', async () => {
    const m = teacher().modules;
    const made = await m.create({
      course_id: 1,
      module: { name: 'Orientation', position: 1, prerequisite_module_ids: [] },
    });
    expect(made).toMatchObject({ name: 'Orientation', position: 1, published: false, prerequisite_module_ids: [] });
    expect((await collect(m.list({ course_id: 1 }))).map((x) => [x.id, x.position])).toEqual([
      [made.id, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    // A prerequisite after the module is ignored, as Canvas does.
    const later = await m.update({ course_id: 1, id: made.id, module: { prerequisite_module_ids: [2] } });
    expect(later.prerequisite_module_ids).toEqual([]);
    const week3 = await m.update({ course_id: 1, id: 3, module: { prerequisite_module_ids: [1, 2], published: true } });
    expect(week3).toMatchObject({ prerequisite_module_ids: [1, 2], published: true });
    expect((await m.listItems({ course_id: 1, module_id: 3 }).next()).value?.published).toBe(true);
  });

  it.each([
    [{}, 'missing module parameter'],
    [{ name: '   ' }, 'missing module name'],
    [{ name: 'x'.repeat(256) }, 'too long'],
    [{ name: 'A', position: 0 }, 'position'],
    [{ name: 'A', unlock_at: 'someday' }, 'unlock_at'],
    [{ name: 'A', prerequisite_module_ids: [999] }, '999 is not a module of course 1'],
    [{ name: 'A', require_sequential_progress: 'maybe' }, 'true or false'],
  ])('refuses module %j with 400 (%s), writing nothing', async (module, message) => {
    const before = await collect(teacher().modules.list({ course_id: 1 }));
    const f = await failure(teacher().modules.create({ course_id: 1, module: module as never }));
    expect(f.status).toBe(400);
    expect(JSON.stringify(f.body)).toContain(message);
    expect(await collect(teacher().modules.list({ course_id: 1 }))).toEqual(before);
  });

  it('adds every type of item, checking its content against the course', async () => {
    const m = teacher().modules;
    const on = { course_id: 1, module_id: 3 };
    const add = (module_item: Record<string, unknown>) => m.createItem({ ...on, module_item: module_item as never });
    expect(
      await add({ type: 'Assignment', content_id: 3, completion_requirement: { type: 'must_submit' } }),
    ).toMatchObject({
      type: 'Assignment',
      title: 'Genetics Essay',
      content_id: 3,
      completion_requirement: { type: 'must_submit' },
    });
    expect(await add({ type: 'Quiz', content_id: 1 })).toMatchObject({ title: 'Cell Biology Check-in' });
    expect(await add({ type: 'Discussion', content_id: 3 })).toMatchObject({ title: 'Cell membrane questions' });
    expect(await add({ type: 'ExternalUrl', title: 'Atlas', external_url: 'https://example.edu/a' })).toMatchObject({
      external_url: 'https://example.edu/a',
      published: false,
    });
    expect(
      await add({ type: 'ExternalTool', title: 'Lab sim', external_url: 'https://tool.example/launch', new_tab: true }),
    ).toMatchObject({
      new_tab: true,
    });
    expect(await add({ type: 'Page', page_url: 'course-syllabus' })).toMatchObject({ page_url: 'course-syllabus' });
    const header = await add({ type: 'SubHeader', title: 'Part two', position: 1, indent: 2 });
    expect(header).toMatchObject({ position: 1, indent: 2 });
    // Canvas drops a requirement the type cannot have.
    expect(
      await add({ type: 'Quiz', content_id: 2, completion_requirement: { type: 'must_contribute' } }),
    ).not.toHaveProperty('completion_requirement');
    expect((await collect(m.listItems(on))).map((i) => i.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("adds a file of the course's own, and no one else's", async () => {
    const now = '2026-09-20T10:00:00Z';
    const file = createPendingAttachment(mock.db, {
      uuid: 'moduleslabhandout000000000000001',
      owner: { type: 'Course', id: 1 },
      folderPath: 'course files',
      name: 'lab-handout.pdf',
      contentType: 'application/pdf',
      onDuplicate: 'rename',
      uploadToken: 'modules-lab-handout',
      now,
    });
    makeAvailable(mock.db, file, 'lab-handout.pdf', now);
    const on = { course_id: 1, module_id: 3 };
    const added = await teacher().modules.createItem({ ...on, module_item: { type: 'File', content_id: file } });
    expect(added).toMatchObject({ type: 'File', title: 'lab-handout.pdf', content_id: file });
    // Course 2's own file is not course 1's.
    mock.db.prepare('UPDATE attachments SET context_id = 2 WHERE id = ?').run(file);
    const f = await failure(teacher().modules.createItem({ ...on, module_item: { type: 'File', content_id: file } }));
    expect([f.status, f.body]).toEqual([400, { message: 'Could not find content' }]);
  });

  it.each([
    [{}, 'missing module item parameter'],
    [{ type: 'Video' }, 'module_item[type]'],
    [{ type: 'Assignment' }, 'missing content_id'],
    [{ type: 'Assignment', content_id: 4 }, 'Could not find content'],
    [{ type: 'Quiz', content_id: 3 }, 'Could not find content'],
    [{ type: 'Discussion', content_id: 12 }, 'Could not find content'],
    // File 1 is Tess's own (a conversation's attachment): no file of the course.
    [{ type: 'File', content_id: 1 }, 'Could not find content'],
    [{ type: 'Page' }, 'missing page_url'],
    [{ type: 'Page', page_url: 'no-such-page' }, 'invalid page_url'],
    [{ type: 'ExternalUrl', title: 'x', external_url: 'javascript:alert(1)' }, 'http or https'],
    [{ type: 'SubHeader' }, "can't be blank"],
    [{ type: 'Assignment', content_id: 1, completion_requirement: { type: 'min_score' } }, 'min_score'],
    [{ type: 'Assignment', content_id: 1, completion_requirement: { type: 'must_win' } }, 'must be one of'],
    [{ type: 'SubHeader', title: 'x', indent: -1 }, 'indent'],
  ])('refuses item %j with 400 (%s)', async (module_item, message) => {
    const f = await failure(
      teacher().modules.createItem({ course_id: 1, module_id: 3, module_item: module_item as never }),
    );
    expect(f.status).toBe(400);
    expect(JSON.stringify(f.body)).toContain(message);
    expect((await collect(teacher().modules.listItems({ course_id: 1, module_id: 3 }))).length).toBe(1);
  });

  it('moves an item into another module, and deletes a module with its items', async () => {
    const m = teacher().modules;
    const moved = await m.updateItem({ course_id: 1, module_id: 1, id: 5, module_item: { module_id: 2, position: 1 } });
    expect(moved).toMatchObject({ module_id: 2, position: 1 });
    expect((await collect(m.listItems({ course_id: 1, module_id: 1 }))).map((i) => i.position)).toEqual([1, 2, 3, 4]);
    expect(await statusOf(m.getItem({ course_id: 1, module_id: 1, id: 5 }))).toBe(404);
    const gone = await m.delete({ course_id: 1, id: 1 });
    expect(gone.workflow_state).toBe('deleted');
    expect(await statusOf(m.get({ course_id: 1, id: 1 }))).toBe(404);
    // Week 2 no longer waits for it.
    expect((await m.get({ course_id: 1, id: 2 })).prerequisite_module_ids).toEqual([]);
    expect((await collect(m.list({ course_id: 1 }))).map((x) => [x.id, x.position])).toEqual([
      [2, 1],
      [3, 2],
    ]);
  });

  it('lets only those who manage the content write, and refuses a module of another course', async () => {
    expect(await statusOf(as(TOKENS.student).modules.create({ course_id: 1, module: { name: 'Mine' } }))).toBe(401);
    expect(await statusOf(teacher().modules.update({ course_id: 2, id: 1, module: { name: 'x' } }))).not.toBe('ok');
    expect(await statusOf(teacher().modules.getItem({ course_id: 1, module_id: 2, id: 1 }))).toBe(404);
  });
});

describe("a student's progression", () => {
  /** A course of its own in BIO-101: one item per requirement type, then a sequential module after it. */
  async function course() {
    const t = teacher();
    const assignment = async (name: string, points = 10) =>
      (
        await t.assignments.create({
          course_id: 1,
          assignment: { name, points_possible: points, submission_types: ['online_text_entry'], published: true },
        })
      ).id;
    const submitIt = await assignment('Lab write-up');
    const scoreIt = await assignment('Practical exam');
    const doneIt = await assignment('Reading log');
    const topic = (await t.discussions.createTopic({ course_id: 1, title: 'Share a result', published: true })).id;
    const first = await t.modules.create({ course_id: 1, module: { name: 'Unit A' } });
    const on = { course_id: 1, module_id: first.id };
    const add = async (module_item: Record<string, unknown>) =>
      (await t.modules.createItem({ ...on, module_item: module_item as never })).id;
    const items = {
      submit: await add({ type: 'Assignment', content_id: submitIt, completion_requirement: { type: 'must_submit' } }),
      contribute: await add({
        type: 'Discussion',
        content_id: topic,
        completion_requirement: { type: 'must_contribute' },
      }),
      score: await add({
        type: 'Assignment',
        content_id: scoreIt,
        completion_requirement: { type: 'min_score', min_score: 7 },
      }),
      view: await add({
        type: 'ExternalUrl',
        title: 'Read this',
        external_url: 'https://example.edu/read',
        completion_requirement: { type: 'must_view' },
      }),
      done: await add({ type: 'Assignment', content_id: doneIt, completion_requirement: { type: 'must_mark_done' } }),
    };
    const second = await t.modules.create({
      course_id: 1,
      module: { name: 'Unit B', prerequisite_module_ids: [first.id], require_sequential_progress: true },
    });
    const on2 = { course_id: 1, module_id: second.id };
    const add2 = async (title: string) =>
      (
        await t.modules.createItem({
          ...on2,
          module_item: {
            type: 'ExternalUrl',
            title,
            external_url: `https://example.edu/${title}`,
            completion_requirement: { type: 'must_view' },
          },
        })
      ).id;
    const step1 = await add2('step-1');
    const step2 = await add2('step-2');
    for (const id of [first.id, second.id]) await t.modules.update({ course_id: 1, id, module: { published: true } });
    return { first: first.id, second: second.id, items, step1, step2, submitIt, scoreIt, topic };
  }

  const sofia = () => as(TOKENS.otherStudent).modules;
  async function state(id: number): Promise<Module> {
    return sofia().get({ course_id: 1, id });
  }
  async function completed(moduleId: number): Promise<Record<number, boolean | undefined>> {
    const items = await collect(sofia().listItems({ course_id: 1, module_id: moduleId }));
    return Object.fromEntries(items.map((i: ModuleItem) => [i.id, i.completion_requirement?.completed]));
  }

  it('walks every requirement type to completed, and unlocks the module after it', async () => {
    const c = await course();
    const { items: i } = c;
    expect((await state(c.first)).state).toBe('unlocked');
    expect((await state(c.second)).state).toBe('locked');
    expect(Object.values(await completed(c.first))).toEqual([false, false, false, false, false]);
    // A locked module's items cannot be marked.
    expect((await failure(sofia().markRead({ course_id: 1, module_id: c.second, id: c.step1 }))).status).toBe(403);

    // must_submit: a submission.
    await as(TOKENS.otherStudent).submissions.submit({
      course_id: 1,
      assignment_id: c.submitIt,
      submission: { submission_type: 'online_text_entry', body: 'My write-up' },
    });
    expect((await state(c.first)).state).toBe('started');
    expect((await completed(c.first))[i.submit]).toBe(true);

    // must_contribute: an entry in the topic.
    await as(TOKENS.otherStudent).discussions.createEntry({ course_id: 1, topic_id: c.topic, message: 'Mine: 42' });
    expect((await completed(c.first))[i.contribute]).toBe(true);

    // min_score: a grade under the minimum does not meet it; one at or over it does.
    await teacher().submissions.grade({
      course_id: 1,
      assignment_id: c.scoreIt,
      user_id: SOFIA,
      submission: { posted_grade: '6' },
    });
    expect((await completed(c.first))[i.score]).toBe(false);
    await teacher().submissions.grade({
      course_id: 1,
      assignment_id: c.scoreIt,
      user_id: SOFIA,
      submission: { posted_grade: '7' },
    });
    expect((await completed(c.first))[i.score]).toBe(true);

    // must_view: the item marked read.
    expect(await sofia().markRead({ course_id: 1, module_id: c.first, id: i.view })).toEqual({ message: 'OK' });
    expect((await completed(c.first))[i.view]).toBe(true);
    expect((await state(c.first)).state).toBe('started');

    // must_mark_done: the last one completes the module, and its completion unlocks the next.
    await sofia().markDone({ course_id: 1, module_id: c.first, id: i.done });
    const done = await state(c.first);
    expect(done.state).toBe('completed');
    expect(done.completed_at).toBe('2026-11-02T12:00:00.000Z');
    expect((await state(c.second)).state).toBe('unlocked');

    // The teacher reads the same through student_id; Sam, who did none of it, is elsewhere.
    expect((await teacher().modules.get({ course_id: 1, id: c.first, student_id: SOFIA })).state).toBe('completed');
    expect((await as(TOKENS.student).modules.get({ course_id: 1, id: c.first })).state).toBe('unlocked');
  });

  it('locks the items after the first unmet requirement of a sequential module', async () => {
    const c = await course();
    const on = { course_id: 1, module_id: c.first };
    await as(TOKENS.otherStudent).submissions.submit({
      course_id: 1,
      assignment_id: c.submitIt,
      submission: { submission_type: 'online_text_entry', body: 'x' },
    });
    await as(TOKENS.otherStudent).discussions.createEntry({ course_id: 1, topic_id: c.topic, message: 'x' });
    await teacher().submissions.grade({
      course_id: 1,
      assignment_id: c.scoreIt,
      user_id: SOFIA,
      submission: { posted_grade: '9' },
    });
    await sofia().markRead({ ...on, id: c.items.view });
    await sofia().markDone({ ...on, id: c.items.done });

    const on2 = { course_id: 1, module_id: c.second, include: ['content_details' as const] };
    const locks = async () =>
      (await collect(sofia().listItems(on2))).map(
        (i) => (i.content_details as { locked_for_user: boolean }).locked_for_user,
      );
    expect(await locks()).toEqual([false, true]);
    expect((await failure(sofia().markRead({ ...on2, id: c.step2 }))).status).toBe(403);
    await sofia().markRead({ ...on2, id: c.step1 });
    expect(await locks()).toEqual([false, false]);
    expect((await state(c.second)).state).toBe('started');
    await sofia().markRead({ ...on2, id: c.step2 });
    expect((await state(c.second)).state).toBe('completed');
  });

  it(
    'locks a student out of a module given a prerequisite ' + 'after it was made, unless they had seen it open',
    async () => {
      const t = teacher();
      const first = await t.modules.create({ course_id: 1, module: { name: 'Part 1' } });
      const second = await t.modules.create({ course_id: 1, module: { name: 'Part 2' } });
      await t.modules.createItem({
        course_id: 1,
        module_id: first.id,
        module_item: {
          type: 'ExternalUrl',
          title: 'Read first',
          external_url: 'https://example.edu/first',
          completion_requirement: { type: 'must_view' },
        },
      });
      for (const m of [first, second]) await t.modules.update({ course_id: 1, id: m.id, module: { published: true } });
      // Sam sees Part 2 open before it is given its prerequisite; Sofia has not looked yet.
      const sam = as(TOKENS.student).modules;
      // With nothing to meet, an open module is complete.
      expect((await sam.get({ course_id: 1, id: second.id })).state).toBe('completed');
      await t.modules.update({ course_id: 1, id: second.id, module: { prerequisite_module_ids: [first.id] } });
      // Canvas makes a progression when it first evaluates one: hers starts locked, his stays open.
      expect((await state(second.id)).state).toBe('locked');
      expect((await sam.get({ course_id: 1, id: second.id })).state).toBe('completed');
    },
  );

  it('keeps a module unlocked when a prerequisite changes, until it is relocked', async () => {
    const c = await course();
    const on = { course_id: 1, module_id: c.first };
    await as(TOKENS.otherStudent).submissions.submit({
      course_id: 1,
      assignment_id: c.submitIt,
      submission: { submission_type: 'online_text_entry', body: 'x' },
    });
    await as(TOKENS.otherStudent).discussions.createEntry({ course_id: 1, topic_id: c.topic, message: 'x' });
    await teacher().submissions.grade({
      course_id: 1,
      assignment_id: c.scoreIt,
      user_id: SOFIA,
      submission: { posted_grade: '10' },
    });
    await sofia().markRead({ ...on, id: c.items.view });
    await sofia().markDone({ ...on, id: c.items.done });
    expect((await state(c.second)).state).toBe('unlocked');

    // Taking a mark back leaves the first module started; the second stays open.
    await sofia().markNotDone({ ...on, id: c.items.done });
    expect((await state(c.first)).state).toBe('started');
    expect((await state(c.second)).state).toBe('unlocked');
    // A new requirement in the first module does not lock her out either.
    await teacher().modules.createItem({
      ...on,
      module_item: {
        type: 'ExternalUrl',
        title: 'More',
        external_url: 'https://example.edu/more',
        completion_requirement: { type: 'must_view' },
      },
    });
    expect((await state(c.second)).state).toBe('unlocked');
    // Relocking does.
    const relocked = await teacher().modules.relock({ course_id: 1, id: c.second });
    expect(relocked.id).toBe(c.second);
    expect((await state(c.second)).state).toBe('locked');
  });

  it('counts an excused assignment as met, and a grade without a submission as no submission', async () => {
    const c = await course();
    await teacher().submissions.grade({
      course_id: 1,
      assignment_id: c.submitIt,
      user_id: SOFIA,
      submission: { posted_grade: '10' },
    });
    expect((await completed(c.first))[c.items.submit]).toBe(false);
    await teacher().submissions.grade({
      course_id: 1,
      assignment_id: c.submitIt,
      user_id: SOFIA,
      submission: { excuse: true },
    });
    expect((await completed(c.first))[c.items.submit]).toBe(true);
  });

  it('locks a module until its unlock date', async () => {
    const c = await course();
    await teacher().modules.update({ course_id: 1, id: c.first, module: { unlock_at: '2026-12-01T00:00:00Z' } });
    expect((await state(c.first)).state).toBe('locked');
    expect((await failure(sofia().markRead({ course_id: 1, module_id: c.first, id: c.items.view }))).status).toBe(403);
    await teacher().modules.update({ course_id: 1, id: c.first, module: { unlock_at: null } });
    expect((await state(c.first)).state).toBe('unlocked');
  });
});

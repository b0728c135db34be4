// Every answer the mock gives for modules and module items, held to Canvas's published models
// (test/fixtures/models/modules.json): a scenario calls every module route as a teacher, a student,
// an observer and with student_id, with and without items inline and content details, and each
// Module and ModuleItem in each answer is checked field by field.
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';
import { loadModels, modelProblems } from '../helpers/models.js';

const models = loadModels('modules.json');

describe('module answers as the models say', () => {
  it('checks every answer of every module route', async () => {
    const mock = freshMock();
    const answers: { req: ApiRequest; status: number; json: unknown }[] = [];
    const handler = mock.handler;
    mock.handler = async (req) => {
      const res = await handler(req);
      if (new URL(req.url).pathname.includes('/modules')) answers.push({ req, status: res.status, json: res.json });
      return res;
    };
    const t = clientFor(mock, TOKENS.teacher).ops.modules;
    const both = ['items' as const, 'content_details' as const];
    for (const token of [TOKENS.teacher, TOKENS.student, TOKENS.observer]) {
      const m = clientFor(mock, token).ops.modules;
      await collect(m.list({ course_id: 1 }));
      await collect(m.list({ course_id: 1, include: both }));
      await m.get({ course_id: 1, id: 1, include: ['items'] });
      await collect(m.listItems({ course_id: 1, module_id: 1, include: ['content_details'] }));
      await collect(m.listItems({ course_id: 1, module_id: 2, include: ['content_details'] }));
      await m.getItem({ course_id: 1, module_id: 1, id: 2, include: ['content_details'] });
    }
    await collect(t.list({ course_id: 1, include: both, student_id: 7 }));
    await collect(
      clientFor(mock, TOKENS.observer).ops.modules.listItems({ course_id: 1, module_id: 1, student_id: 7 }),
    );
    const made = await t.create({
      course_id: 1,
      module: { name: 'Unit 9', unlock_at: '2026-12-01T00:00:00Z', prerequisite_module_ids: [1] },
    });
    await t.update({ course_id: 1, id: made.id, module: { published: true, require_sequential_progress: true } });
    const on = { course_id: 1, module_id: made.id };
    const items = [
      await t.createItem({
        ...on,
        module_item: {
          type: 'Assignment',
          content_id: 3,
          completion_requirement: { type: 'min_score', min_score: 50 },
        },
      }),
      await t.createItem({
        ...on,
        module_item: { type: 'Quiz', content_id: 1, completion_requirement: { type: 'must_submit' } },
      }),
      await t.createItem({
        ...on,
        module_item: { type: 'Discussion', content_id: 2, completion_requirement: { type: 'must_contribute' } },
      }),
      await t.createItem({
        ...on,
        module_item: { type: 'Page', page_url: 'course-syllabus', completion_requirement: { type: 'must_mark_done' } },
      }),
      await t.createItem({
        ...on,
        module_item: {
          type: 'ExternalUrl',
          title: 'Site',
          external_url: 'https://example.edu/',
          completion_requirement: { type: 'must_view' },
        },
      }),
      await t.createItem({
        ...on,
        module_item: { type: 'ExternalTool', title: 'Tool', external_url: 'https://tool.example/', new_tab: true },
      }),
      await t.createItem({ ...on, module_item: { type: 'SubHeader', title: 'Part 2', indent: 1 } }),
    ];
    await t.updateItem({ ...on, id: items[0].id, module_item: { title: 'Essay', position: 2, indent: 1 } });
    await collect(clientFor(mock, TOKENS.student).ops.modules.listItems({ ...on, include: ['content_details'] }));
    await t.relock({ course_id: 1, id: made.id });
    const sam = clientFor(mock, TOKENS.student).ops.modules;
    await sam.markRead({ course_id: 1, module_id: 1, id: 5 });
    await sam.markDone({ course_id: 1, module_id: 1, id: 5 });
    await sam.markNotDone({ course_id: 1, module_id: 1, id: 5 });
    await t.deleteItem({ ...on, id: items[6].id });
    await t.delete({ course_id: 1, id: made.id });

    const checked = { Module: 0, ModuleItem: 0, message: 0 };
    const problems: string[] = [];
    for (const { req, status, json } of answers) {
      expect(status, `${req.method} ${req.url}`).toBe(200);
      const path = new URL(req.url).pathname;
      const values = Array.isArray(json) ? json : [json];
      if (/\/items\/\d+\/(done|mark_read)$/.test(path)) {
        expect(json).toEqual({ message: 'OK' });
        checked.message++;
        continue;
      }
      const model = /\/items(\/\d+)?$/.test(path) ? 'ModuleItem' : 'Module';
      for (const v of values) {
        problems.push(...modelProblems(models, model, v, `${req.method} ${path}`));
        checked[model]++;
        if (model === 'Module') checked.ModuleItem += ((v as { items?: unknown[] }).items ?? []).length;
      }
    }
    expect(problems).toEqual([]);
    // The scenario reached what it means to check: modules, items inline and alone, every mark.
    expect(checked.Module).toBeGreaterThan(20);
    expect(checked.ModuleItem).toBeGreaterThan(60);
    expect(checked.message).toBe(3);
  });

  it('fails an answer the model does not allow', () => {
    expect(modelProblems(models, 'Module', { id: 1, name: 'x' })).toContain('Module.position: missing (integer)');
    expect(
      modelProblems(models, 'ModuleItem', {
        id: 1,
        module_id: 1,
        position: 1,
        title: 't',
        indent: 0,
        type: 'Video',
        html_url: 'u',
        extra: 1,
        completion_requirement: { type: 'must_view', completed: 'yes' },
      }),
    ).toEqual([
      'ModuleItem.extra: not a field of ModuleItem',
      'ModuleItem.type: "Video" is not one of File, Page, Discussion, Assignment, Quiz, SubHeader, ExternalUrl, ' +
        'ExternalTool',
      'ModuleItem.completion_requirement.completed: "yes" is not a boolean',
    ]);
  });
});

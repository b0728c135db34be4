// Every answer the mock gives for rubrics, held to canvas-lms's published models: each object's
// fields are the model's (test/fixtures/models/rubrics.json records the @model field lists of
// rubrics_api_controller.rb, and the few fields beyond them with where canvas-lms sends them),
// and the fields a model always carries are there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AssessmentFields } from '../../src/spec/types/rubrics.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';

const { models, beyond, required } = JSON.parse(
  readFileSync(new URL('../fixtures/models/rubrics.json', import.meta.url), 'utf8'),
) as {
  models: Record<string, string[]>;
  beyond: Record<string, Record<string, string>>;
  required: Record<string, string[]>;
};

type Obj = Record<string, unknown>;

/** Checks one object against its model, and what it holds against theirs. */
function check(model: string, value: unknown, where: string): void {
  expect(value, where).toBeTypeOf('object');
  const o = value as Obj;
  const allowed = [...models[model], ...Object.keys(beyond[model] ?? {})];
  expect(
    Object.keys(o).filter((k) => !allowed.includes(k)),
    `${where}: fields outside ${model}`,
  ).toEqual([]);
  expect(
    required[model].filter((k) => !(k in o)),
    `${where}: ${model} fields missing`,
  ).toEqual([]);
  const each = (field: string, inner: string) => {
    if (o[field] === undefined) return;
    expect(Array.isArray(o[field]), `${where}.${field}`).toBe(true);
    (o[field] as unknown[]).forEach((x, i) => {
      check(inner, x, `${where}.${field}[${i}]`);
    });
  };
  if (model === 'Rubric') {
    each('data', 'RubricCriterion');
    each('criteria', 'RubricCriterion');
    each('assessments', 'RubricAssessment');
    each('associations', 'RubricAssociation');
  }
  if (model === 'RubricCriterion') each('ratings', 'RubricRating');
}

describe('the mock answers rubrics as canvas-lms models them', () => {
  it('in every answer of every rubrics route', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const made = await teacher.ops.rubrics.create({
      course_id: 1,
      rubric: {
        title: 'Poster',
        criteria: { 0: { description: 'Layout', points: 5, ratings: { 0: { description: 'Tidy', points: 5 } } } },
      },
      rubric_association: { association_type: 'Assignment', association_id: 3, use_for_grading: true },
    });
    check('Rubric', made.rubric, 'create.rubric');
    check('RubricAssociation', made.rubric_association, 'create.rubric_association');
    expect(Object.keys(made).sort()).toEqual(['rubric', 'rubric_association']);
    for (const r of await collect(teacher.ops.rubrics.list({ course_id: 1 }))) check('Rubric', r, `list ${r.id}`);
    for (const include of [['assessments'], ['graded_assessments'], ['associations'], ['course_associations']] as const)
      for (const style of [undefined, 'full', 'comments_only'] as const) {
        if (style && !include[0].includes('assessments')) continue;
        const r = await teacher.ops.rubrics.get({
          course_id: 1,
          id: 1,
          include: [...include],
          ...(style ? { style } : {}),
        });
        check('Rubric', r, `get ${include[0]} ${style ?? ''}`);
        if (include[0].includes('assessments')) expect(r.assessments!.length).toBeGreaterThan(0);
      }
    const updated = await teacher.ops.rubrics.update({
      course_id: 1,
      id: made.rubric.id,
      rubric: { title: 'Poster (v2)' },
      rubric_association: { association_type: 'Assignment', association_id: 3, use_for_grading: false },
    });
    check('Rubric', updated.rubric, 'update.rubric');
    check('RubricAssociation', updated.rubric_association, 'update.rubric_association');
    const linked = await teacher.ops.rubrics.createAssociation({
      course_id: 1,
      rubric_association: { rubric_id: made.rubric.id, association_type: 'Assignment', association_id: 1 },
    });
    check('Rubric', linked.rubric, 'createAssociation.rubric');
    check('RubricAssociation', linked.rubric_association, 'createAssociation.rubric_association');
    const relinked = await teacher.ops.rubrics.updateAssociation({
      course_id: 1,
      id: linked.rubric_association!.id,
      rubric_association: { use_for_grading: true },
    });
    check('RubricAssociation', relinked.rubric_association, 'updateAssociation.rubric_association');
    const under = { course_id: 1, rubric_association_id: linked.rubric_association!.id };
    const rubric_assessment: AssessmentFields = { user_id: 9, assessment_type: 'grading' };
    rubric_assessment[`criterion_${made.rubric.data[0].id}`] = { points: 4 };
    const assessed = await teacher.ops.rubrics.createAssessment({ ...under, rubric_assessment });
    check('RubricAssessment', assessed, 'createAssessment');
    check(
      'RubricAssessment',
      await teacher.ops.rubrics.updateAssessment({ ...under, id: assessed.id, rubric_assessment: {} }),
      'updateAssessment',
    );
    check(
      'RubricAssessment',
      await teacher.ops.rubrics.deleteAssessment({ ...under, id: assessed.id }),
      'deleteAssessment',
    );
    check(
      'RubricAssociation',
      await teacher.ops.rubrics.deleteAssociation({ course_id: 1, id: linked.rubric_association!.id }),
      'deleteAssociation',
    );
    check('Rubric', await teacher.ops.rubrics.delete({ course_id: 1, id: made.rubric.id }), 'delete');
  });
});

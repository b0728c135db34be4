// `lms rubrics`: a course's rubrics — their criteria and ratings, the assignment each grades — and
// what they assessed (`get --assessments`); their associations and assessments (links.ts). Grading
// by rubric is also `lms grade --rubric`.
import { answerRow, item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import { UsageError } from '../../errors.js';
import type { RubricInclude, RubricWriteParams } from '../../spec/types/rubrics.js';
import { criteriaHash } from './criteria.js';
import { linkVerbs } from './links.js';

const COLUMNS = ['id', 'title', 'points_possible', 'context_id', 'free_form_criterion_comments'];
/** A write's answer, `{ rubric, rubric_association }`: the rubric and what it is associated with. */
const WRITE_COLUMNS = [
  'rubric.id',
  'rubric.title',
  'rubric.points_possible',
  'rubric_association.id',
  'rubric_association.association_type',
  'rubric_association.association_id',
  'rubric_association.purpose',
  'rubric_association.use_for_grading',
];

const course = { ...contextFlags.course, required: true } as const;

const fieldFlags = {
  title: { long: 'title', value: 'text', description: 'the rubric title', field: { name: 'title' } },
  criterion: {
    long: 'criterion',
    value: 'spec',
    description:
      'a criterion, DESCRIPTION:POINTS, with ratings after a second colon: ' +
      '"Analysis:10:Thorough=10,Partial=6,Missing=0" (repeatable, in order; replaces every criterion)',
    repeatable: true,
    field: { name: 'criteria', type: 'criteria' },
  },
  freeFormComments: {
    long: 'free-form-comments',
    description: 'graders write their own comments instead of choosing a rating',
    field: { name: 'free_form_criterion_comments' },
  },
  assignment: {
    long: 'assignment',
    value: 'id',
    ids: 'assignment',
    description: 'the assignment it grades (an assignment has one grading rubric: it replaces the one before)',
    field: { name: 'assignment_id', type: 'integer' },
  },
  useForGrading: {
    long: 'use-for-grading',
    description: "with --assignment: the rubric's points set the assignment's, and its assessments the grade",
    field: { name: 'use_for_grading' },
  },
  purpose: {
    long: 'purpose',
    value: 'purpose',
    choices: ['grading', 'bookmark'],
    description: 'with --assignment: grading (the default) or bookmark',
    field: { name: 'purpose' },
  },
  hideScoreTotal: {
    long: 'hide-score-total',
    description: "hide the rubric's total from students (not with --use-for-grading)",
  },
} as const;

interface FieldOpts {
  course: string;
  title?: string;
  criterion?: string[];
  freeFormComments?: boolean;
  assignment?: string;
  useForGrading?: boolean;
  purpose?: 'grading' | 'bookmark';
  hideScoreTotal?: boolean;
}

function writeParams(opts: FieldOpts): RubricWriteParams {
  if ((opts.useForGrading || opts.purpose || opts.hideScoreTotal) && !opts.assignment)
    throw new UsageError('--use-for-grading, --purpose and --hide-score-total go with --assignment');
  if (opts.useForGrading && opts.hideScoreTotal)
    throw new UsageError('a rubric used for grading shows its total: give --use-for-grading or --hide-score-total');
  const rubric: NonNullable<RubricWriteParams['rubric']> = {};
  if (opts.title !== undefined) rubric.title = opts.title;
  if (opts.criterion?.length) rubric.criteria = criteriaHash(opts.criterion);
  if (opts.freeFormComments) rubric.free_form_criterion_comments = true;
  const params: RubricWriteParams = { course_id: opts.course };
  if (Object.keys(rubric).length) params.rubric = rubric;
  if (opts.assignment)
    params.rubric_association = {
      association_type: 'Assignment',
      association_id: opts.assignment,
      purpose: opts.purpose ?? 'grading',
      use_for_grading: opts.useForGrading ?? false,
      ...(opts.hideScoreTotal ? { hide_score_total: true } : {}),
    };
  return params;
}

const listRubrics = command({
  name: 'list',
  summary: "List a course's rubrics",
  aliases: ['ls'],
  routes: ['rubrics.list'],
  columns: COLUMNS,
  options: { course },
  examples: ['lms rubrics list --course sis_course_id:BIO-101'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return list(client.ops.rubrics.list({ course_id: opts.course }, { limit: ctx.pageLimit() }));
  },
});

const getRubric = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: 'Show a rubric: its criteria and ratings, and with flags its associations and assessments',
  routes: ['rubrics.get'],
  columns: COLUMNS,
  options: {
    course,
    associations: { long: 'associations', description: 'include what it is associated with (assignments, the course)' },
    assessments: { long: 'assessments', description: 'include the assessments made with it, each rating in full' },
  },
  examples: ['lms rubrics get 1 --course 1 -o json', 'lms rubrics get 1 --course 1 --assessments --associations'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    const include: RubricInclude[] = [];
    if (opts.assessments) include.push('assessments');
    if (opts.associations) include.push('associations');
    return item(
      await client.ops.rubrics.get({
        course_id: opts.course,
        id: args[0],
        ...(include.length ? { include } : {}),
        ...(opts.assessments ? { style: 'full' as const } : {}),
      }),
    );
  },
});

const createRubric = command({
  name: 'create',
  summary: 'Create a rubric with its criteria and ratings, optionally grading an assignment',
  routes: ['rubrics.create'],
  writes: 'create',
  columns: WRITE_COLUMNS,
  options: { course, ...fieldFlags, title: { ...fieldFlags.title, required: true } },
  examples: [
    'lms rubrics create --course 1 --title "Lab report" --criterion "Hypothesis:5" --criterion ' +
      '"Analysis:10:Thorough=10,Partial=6,Missing=0"',
    'lms rubrics create --course 1 --title Essay --criterion "Thesis:4" --assignment 3 --use-for-grading',
  ],
  async run({ opts, ctx }) {
    if (!opts.criterion?.length) throw new UsageError('give the criteria: --criterion DESCRIPTION:POINTS (repeatable)');
    const client = await ctx.client();
    return answerRow(ctx, await client.ops.rubrics.create(writeParams(opts)), WRITE_COLUMNS);
  },
});

const updateRubric = command({
  name: 'update',
  args: [{ name: 'id' }],
  summary: "Change a rubric's title, criteria, or the assignment it grades",
  routes: ['rubrics.update'],
  writes: 'update',
  columns: WRITE_COLUMNS,
  options: { course, ...fieldFlags },
  examples: [
    'lms rubrics update 1 --course 1 --title "Lab report (v2)"',
    'lms rubrics update 1 --course 1 --assignment 3 --use-for-grading',
  ],
  async run({ args, opts, ctx }) {
    const params = writeParams(opts);
    if (!params.rubric && !params.rubric_association)
      throw new UsageError('nothing to change: give --title, --criterion, --free-form-comments or --assignment');
    const client = await ctx.client();
    return answerRow(ctx, await client.ops.rubrics.update({ ...params, id: args[0] }), WRITE_COLUMNS);
  },
});

const deleteRubric = command({
  name: 'delete',
  args: [{ name: 'id' }],
  summary: 'Delete a rubric and its associations (the assignments it graded keep their grades)',
  routes: ['rubrics.delete'],
  writes: 'delete',
  columns: COLUMNS,
  options: { course },
  examples: ['lms rubrics delete 1 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete rubric ${args[0]} of course ${opts.course}`);
    const client = await ctx.client();
    return item(await client.ops.rubrics.delete({ course_id: opts.course, id: args[0] }));
  },
});

export const rubricsVerbs: Verbs = [
  listRubrics,
  getRubric,
  createRubric,
  updateRubric,
  deleteRubric,
  ...linkVerbs,
] as Verbs;

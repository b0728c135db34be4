// `lms rubrics associate`, `update-association`, `delete-association`: what a rubric grades or is
// bookmarked in, through the associations API; `assess` and `delete-assessment`: one student's
// submission assessed under an association, its points checked against the criteria first.
import { UsageError } from '../../errors.js';
import { item, type Verbs } from '../../model/command.js';
import { command, contextFlags, trueOrFalse } from '../../model/define.js';
import type { AssessmentFields, AssociationWriteParams, RubricAssociation } from '../../spec/types/rubrics.js';
import { assessmentOf } from '../grade/rubric.js';

const course = { ...contextFlags.course, required: true } as const;

const ASSOCIATION_COLUMNS = ['id', 'rubric_id', 'association_type', 'association_id', 'purpose', 'use_for_grading'];
const ASSESSMENT_COLUMNS = ['id', 'rubric_id', 'rubric_association_id', 'artifact_id', 'assessment_type', 'score'];

const settings = {
  purpose: {
    long: 'purpose',
    value: 'purpose',
    choices: ['grading', 'bookmark'],
    description: 'grading (an assignment it grades) or bookmark (listed where it is)',
  },
  hideScoreTotal: {
    long: 'hide-score-total',
    value: 'bool',
    choices: ['true', 'false'],
    description: "hide the rubric's total from students (true or false; not with a rubric used for grading)",
  },
  bookmarked: {
    long: 'bookmarked',
    value: 'bool',
    choices: ['true', 'false'],
    description: "list the rubric among the course's rubrics (true or false)",
  },
} as const;

const associate = command({
  name: 'associate',
  args: [{ name: 'id' }],
  summary: 'Associate a rubric with an assignment it grades, or bookmark it in its course',
  routes: ['rubrics.createAssociation'],
  writes: 'create',
  options: {
    course,
    assignment: { long: 'assignment', value: 'id', ids: 'assignment', description: 'the assignment it is for' },
    useForGrading: {
      long: 'use-for-grading',
      description: "with --assignment: the rubric's points set the assignment's, and its assessments the grade",
    },
    ...settings,
  },
  examples: [
    'lms rubrics associate 1 --course 1 --assignment 3 --use-for-grading',
    'lms rubrics associate 1 --course 1 --bookmarked true',
  ],
  async run({ args, opts, ctx }) {
    if (opts.useForGrading && !opts.assignment) throw new UsageError('--use-for-grading goes with --assignment');
    const association: AssociationWriteParams['rubric_association'] = {
      rubric_id: args[0],
      association_type: opts.assignment ? 'Assignment' : 'Course',
      association_id: opts.assignment ?? opts.course,
      purpose: opts.purpose ?? (opts.assignment ? 'grading' : 'bookmark'),
      ...(opts.useForGrading ? { use_for_grading: true } : {}),
      ...(opts.hideScoreTotal !== undefined ? { hide_score_total: trueOrFalse(opts.hideScoreTotal) } : {}),
      ...(opts.bookmarked !== undefined ? { bookmarked: trueOrFalse(opts.bookmarked) } : {}),
    };
    const client = await ctx.client();
    return item(
      await client.ops.rubrics.createAssociation({ course_id: opts.course, rubric_association: association }),
    );
  },
});

const updateAssociation = command({
  name: 'update-association',
  args: [{ name: 'id' }],
  summary: "Change a rubric's association: whether it grades, its purpose, its total, its bookmark",
  routes: ['rubrics.updateAssociation'],
  writes: 'update',
  options: {
    course,
    useForGrading: {
      long: 'use-for-grading',
      value: 'bool',
      choices: ['true', 'false'],
      description: "the rubric's assessments grade the assignment (true or false)",
    },
    ...settings,
  },
  examples: ['lms rubrics update-association 2 --course 1 --use-for-grading false'],
  async run({ args, opts, ctx }) {
    const association: AssociationWriteParams['rubric_association'] = {
      ...(opts.useForGrading !== undefined ? { use_for_grading: trueOrFalse(opts.useForGrading) } : {}),
      ...(opts.purpose ? { purpose: opts.purpose } : {}),
      ...(opts.hideScoreTotal !== undefined ? { hide_score_total: trueOrFalse(opts.hideScoreTotal) } : {}),
      ...(opts.bookmarked !== undefined ? { bookmarked: trueOrFalse(opts.bookmarked) } : {}),
    };
    if (!Object.keys(association).length)
      throw new UsageError('nothing to change: give --use-for-grading, --purpose, --hide-score-total or --bookmarked');
    const client = await ctx.client();
    return item(
      await client.ops.rubrics.updateAssociation({
        course_id: opts.course,
        id: args[0],
        rubric_association: association,
      }),
    );
  },
});

const deleteAssociation = command({
  name: 'delete-association',
  args: [{ name: 'id' }],
  summary: 'Delete an association (a rubric then in no bookmark and grading nothing goes too)',
  routes: ['rubrics.deleteAssociation'],
  writes: 'delete',
  columns: ASSOCIATION_COLUMNS,
  options: { course },
  examples: ['lms rubrics delete-association 2 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete rubric association ${args[0]} of course ${opts.course}`);
    const client = await ctx.client();
    return item(await client.ops.rubrics.deleteAssociation({ course_id: opts.course, id: args[0] }));
  },
});

/** The association to assess under: the one given, or the rubric's one grading an assignment. */
function gradingAssociation(associations: readonly RubricAssociation[], rubric: string, given?: string): string {
  if (given) return given;
  const grading = associations.filter((a) => a.association_type === 'Assignment' && a.purpose === 'grading');
  if (grading.length === 1) return String(grading[0].id);
  throw new UsageError(
    grading.length
      ? `rubric ${rubric} grades ${grading.length} assignments: give --association ID`
      : `rubric ${rubric} grades no assignment: associate it with one first (lms rubrics associate)`,
  );
}

const assess = command({
  name: 'assess',
  args: [{ name: 'id' }],
  summary: "Assess a student's submission with a rubric, each criterion's points checked against its range",
  routes: ['rubrics.createAssessment', 'rubrics.updateAssessment'],
  lookups: ['rubrics.get'],
  writes: 'update',
  columns: ASSESSMENT_COLUMNS,
  options: {
    course,
    user: { long: 'user', value: 'id', description: "the student's user id", required: true },
    score: {
      long: 'score',
      value: 'spec',
      repeatable: true,
      description: 'a criterion (its id or description), its points and a comment: "Method=4,Name the control"',
    },
    association: {
      long: 'association',
      value: 'id',
      description: 'the association it is under (default: the one grading an assignment)',
    },
    assessment: { long: 'assessment', value: 'id', description: 'change this assessment instead of assessing anew' },
    type: {
      long: 'type',
      value: 'type',
      choices: ['grading', 'peer_review'],
      description: 'grading (the default: with a rubric used for grading it sets the score) or peer_review',
    },
  },
  examples: ['lms rubrics assess 1 --course 1 --user 7 --score hypothesis=5 --score "Method=3,Name the control"'],
  async run({ args, opts, ctx }) {
    if (!opts.score?.length) throw new UsageError('give the points: --score CRITERION=POINTS[,COMMENT] (repeatable)');
    const client = await ctx.client();
    const rubric = await client.ops.rubrics.get({ course_id: opts.course, id: args[0], include: ['associations'] });
    const given = assessmentOf(rubric.data, opts.score, '--score');
    const fields: AssessmentFields = { user_id: opts.user, assessment_type: opts.type ?? 'grading' };
    for (const [id, c] of Object.entries(given)) fields[`criterion_${id}`] = c;
    const under = gradingAssociation(rubric.associations ?? [], args[0], opts.association);
    const params = { course_id: opts.course, rubric_association_id: under, rubric_assessment: fields };
    return item(
      opts.assessment
        ? await client.ops.rubrics.updateAssessment({ ...params, id: opts.assessment })
        : await client.ops.rubrics.createAssessment(params),
    );
  },
});

const deleteAssessment = command({
  name: 'delete-assessment',
  args: [{ name: 'id' }],
  summary: 'Delete a rubric assessment (the grade it gave stays)',
  routes: ['rubrics.deleteAssessment'],
  writes: 'delete',
  columns: ASSESSMENT_COLUMNS,
  options: {
    course,
    association: { long: 'association', value: 'id', description: 'the association it is under', required: true },
  },
  examples: ['lms rubrics delete-assessment 1 --course 1 --association 2 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete rubric assessment ${args[0]} of course ${opts.course}`);
    const client = await ctx.client();
    return item(
      await client.ops.rubrics.deleteAssessment({
        course_id: opts.course,
        rubric_association_id: opts.association,
        id: args[0],
      }),
    );
  },
});

export const linkVerbs: Verbs = [associate, updateAssociation, deleteAssociation, assess, deleteAssessment] as Verbs;

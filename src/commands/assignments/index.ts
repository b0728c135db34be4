// `lms assignments`: the assignments of a course; find them, create them, change and delete them.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags, type OptionsOf } from '../../model/define.js';
import type { AssignmentFields } from '../../spec/types/school.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'name', 'points_possible', 'grading_type', 'due_at', 'published'];
const GRADING_TYPES = ['points', 'percent', 'pass_fail', 'letter_grade', 'gpa_scale', 'not_graded'] as const;
const course = { ...contextFlags.course, required: true } as const;

/** The flags of create and update, named after `assignment[...]` in kebab case. */
const fieldFlags = {
  name: { long: 'name', value: 'name', description: 'assignment name', field: { name: 'name' } },
  points: {
    long: 'points',
    value: 'n',
    description: 'points possible',
    type: 'number',
    min: 0,
    field: { name: 'points_possible', type: 'number' },
  },
  gradingType: {
    long: 'grading-type',
    value: 'type',
    description: 'how it is graded',
    choices: GRADING_TYPES,
    field: { name: 'grading_type' },
  },
  submissionTypes: {
    long: 'submission-types',
    value: 'list',
    description: 'comma-separated, e.g. online_upload,online_text_entry',
    field: { name: 'submission_types', type: 'list' },
  },
  dueAt: { long: 'due-at', value: 'time', description: 'due date (ISO 8601)', field: { name: 'due_at', type: 'time' } },
  gradingStandardId: {
    long: 'grading-standard-id',
    value: 'id',
    description: 'letter grading scheme id',
    field: { name: 'grading_standard_id', type: 'integer' },
  },
  description: {
    long: 'description',
    value: 'html',
    description: 'description (HTML)',
    field: { name: 'description' },
  },
  assignmentGroupId: {
    long: 'assignment-group-id',
    value: 'id',
    type: 'integer',
    min: 1,
    description: "the assignment group it counts in (the course's first unless given)",
    field: { name: 'assignment_group_id', type: 'integer' },
  },
} as const;

type FieldOpts = Partial<OptionsOf<typeof fieldFlags>>;

/** The flags given, as `assignment[...]`; "" clears a due date or a grading scheme where the verb allows it. */
function assignmentFields(opts: FieldOpts): AssignmentFields {
  const { points, dueAt, gradingStandardId } = opts;
  if (dueAt !== undefined && dueAt !== '' && Number.isNaN(Date.parse(dueAt)))
    throw new UsageError(`--due-at is not a date or time: "${dueAt}"`);
  if (gradingStandardId !== undefined && gradingStandardId !== '' && !/^\d+$/.test(gradingStandardId)) {
    throw new UsageError(`--grading-standard-id must be a numeric id, got "${gradingStandardId}"`);
  }
  const fields: AssignmentFields = {
    name: opts.name,
    points_possible: points,
    grading_type: opts.gradingType,
    submission_types: opts.submissionTypes
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    due_at: dueAt === '' ? null : dueAt,
    grading_standard_id:
      gradingStandardId === undefined ? undefined : gradingStandardId === '' ? null : Number(gradingStandardId),
    description: opts.description,
    assignment_group_id: opts.assignmentGroupId,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as AssignmentFields;
}

const listAssignments = command({
  name: 'list',
  summary: 'List the assignments of a course',
  aliases: ['ls'],
  routes: ['assignments.list'],
  examples: ['lms assignments list --course sis_course_id:BIO-101 --search lab'],
  columns: COLUMNS,
  options: { course, search: { long: 'search', value: 'term', description: 'partial name' } },
  async run({ opts, ctx }) {
    return list(
      (await ctx.client()).ops.assignments.list(
        { course_id: opts.course, search_term: opts.search },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getAssignment = command({
  name: 'get',
  args: [{ name: 'id' }],
  argIds: { id: 'assignment' },
  summary: 'Show one assignment',
  routes: ['assignments.get'],
  examples: ['lms assignments get 3 --course 1'],
  options: { course },
  async run({ args, opts, ctx }) {
    return item(await (await ctx.client()).ops.assignments.get({ course_id: opts.course, id: args[0] }));
  },
});

const createAssignment = command({
  name: 'create',
  summary: 'Create an assignment',
  routes: ['assignments.create'],
  writes: 'create',
  examples: [
    'lms assignments create --course 1 --name "Lab 4" --points 10 --due-at 2026-12-01T23:59:00Z --submission-types ' +
      'online_upload',
  ],
  columns: COLUMNS,
  options: {
    course,
    ...fieldFlags,
    name: { ...fieldFlags.name, required: true },
    publish: {
      long: 'publish',
      negated: true,
      description: 'create it unpublished',
      field: { name: 'published', value: false },
    },
  },
  async run({ opts, ctx }) {
    if (opts.dueAt === '') throw new UsageError('--due-at is not a date or time: ""');
    if (opts.gradingStandardId === '') throw new UsageError('--grading-standard-id must be a numeric id, got ""');
    const assignment = { ...assignmentFields(opts), name: opts.name, published: opts.publish };
    return item(await (await ctx.client()).ops.assignments.create({ course_id: opts.course, assignment }));
  },
});

const updateAssignment = command({
  name: 'update',
  args: [{ name: 'id' }],
  argIds: { id: 'assignment' },
  summary: 'Change an assignment (one a quiz grades is changed through the quiz)',
  routes: ['assignments.update'],
  writes: 'update',
  examples: [
    'lms assignments update 1 --course 1 --points 25 --due-at 2026-09-21T23:59:00Z',
    'lms assignments update 4 --course sis_course_id:CHEM-201 --name "Reaction Mechanisms (revised)" --due-at "" ' +
      '--unpublish',
  ],
  columns: COLUMNS,
  options: {
    course,
    ...fieldFlags,
    dueAt: {
      ...fieldFlags.dueAt,
      description: 'due date (ISO 8601; "" for none)',
      field: { ...fieldFlags.dueAt.field, clears: true },
    },
    gradingStandardId: {
      ...fieldFlags.gradingStandardId,
      description: 'letter grading scheme id ("" for the default scheme)',
      field: { ...fieldFlags.gradingStandardId.field, clears: true },
    },
    publish: { long: 'publish', description: 'publish it', field: { name: 'published' } },
    unpublish: {
      long: 'unpublish',
      description: 'unpublish it (refused once students have turned work in)',
      field: { name: 'published', value: false },
    },
  },
  async run({ args, opts, ctx }) {
    if (opts.publish && opts.unpublish) throw new UsageError('--publish and --unpublish go one at a time');
    const assignment: AssignmentFields = {
      ...assignmentFields(opts),
      ...(opts.publish ? { published: true } : opts.unpublish ? { published: false } : {}),
    };
    if (Object.keys(assignment).length === 0)
      throw new UsageError('nothing to change: give at least one flag (see --help)');
    return item(await (await ctx.client()).ops.assignments.update({ course_id: opts.course, id: args[0], assignment }));
  },
});

const deleteAssignment = command({
  name: 'delete',
  args: [{ name: 'id' }],
  argIds: { id: 'assignment' },
  summary:
    'Delete an assignment: it leaves every list, its grades are kept, and a discussion it grades is deleted with it',
  routes: ['assignments.delete'],
  writes: 'delete',
  columns: COLUMNS,
  options: { course },
  examples: ['lms assignments delete 2 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete assignment ${args[0]} of course ${opts.course}`);
    return item(await (await ctx.client()).ops.assignments.delete({ course_id: opts.course, id: args[0] }));
  },
});

export const assignmentsVerbs: Verbs = [
  listAssignments,
  getAssignment,
  createAssignment,
  updateAssignment,
  deleteAssignment,
];

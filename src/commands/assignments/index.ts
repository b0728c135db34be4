// `lms assignments`: the assignments of a course; find them, create them.
import { item, list, type Verbs } from '../../cli/command.js';
import { command, contextFlags } from '../../cli/define.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'name', 'points_possible', 'grading_type', 'due_at', 'published'];
const GRADING_TYPES = ['points', 'percent', 'pass_fail', 'letter_grade', 'gpa_scale', 'not_graded'] as const;
const course = { ...contextFlags.course, required: true } as const;

const listAssignments = command({
  name: 'list',
  summary: 'List the assignments of a course',
  aliases: ['ls'],
  routes: ['assignments.list'],
  examples: ['lms assignments list --course sis_course_id:BIO-101 --search lab'],
  columns: COLUMNS,
  options: { course, search: { flags: '--search <term>', description: 'partial name' } },
  async run({ opts, ctx }) {
    return list((await ctx.client()).ops.assignments.list({ course_id: opts.course, search_term: opts.search }, { limit: ctx.pageLimit() }));
  },
});

const getAssignment = command({
  name: 'get <id>',
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
  examples: ['lms assignments create --course 1 --name "Lab 4" --points 10 --due-at 2026-12-01T23:59:00Z --submission-types online_upload'],
  columns: COLUMNS,
  options: {
    course,
    name: { flags: '--name <name>', description: 'assignment name', required: true, field: { name: 'name' } },
    points: { flags: '--points <n>', description: 'points possible', field: { name: 'points_possible', type: 'number' } },
    gradingType: { flags: '--grading-type <type>', description: 'how it is graded', choices: GRADING_TYPES, field: { name: 'grading_type' } },
    submissionTypes: { flags: '--submission-types <list>', description: 'comma-separated, e.g. online_upload,online_text_entry', field: { name: 'submission_types', type: 'list' } },
    dueAt: { flags: '--due-at <time>', description: 'due date (ISO 8601)', field: { name: 'due_at', type: 'time' } },
    gradingStandardId: { flags: '--grading-standard-id <id>', description: 'letter grading scheme id', field: { name: 'grading_standard_id', type: 'integer' } },
    description: { flags: '--description <html>', description: 'description (HTML)', field: { name: 'description' } },
    publish: { flags: '--no-publish', description: 'create it unpublished', field: { name: 'published', value: false } },
  },
  async run({ opts, ctx }) {
    if (opts.points !== undefined && !(Number(opts.points) >= 0)) throw new UsageError(`--points must be a number of at least 0, got "${opts.points}"`);
    if (opts.dueAt !== undefined && Number.isNaN(Date.parse(opts.dueAt))) throw new UsageError(`--due-at is not a date or time: "${opts.dueAt}"`);
    if (opts.gradingStandardId !== undefined && !/^\d+$/.test(opts.gradingStandardId)) throw new UsageError(`--grading-standard-id must be a numeric id, got "${opts.gradingStandardId}"`);
    const client = await ctx.client();
    return item(
      await client.ops.assignments.create({
        course_id: opts.course,
        assignment: {
          name: opts.name,
          points_possible: opts.points === undefined ? undefined : Number(opts.points),
          grading_type: opts.gradingType,
          submission_types: opts.submissionTypes?.split(',').map((s) => s.trim()).filter(Boolean),
          due_at: opts.dueAt,
          grading_standard_id: opts.gradingStandardId === undefined ? undefined : Number(opts.gradingStandardId),
          published: opts.publish,
          description: opts.description,
        },
      }),
    );
  },
});

export const assignmentsVerbs: Verbs = [listAssignments, getAssignment, createAssignment];

// Supporting nouns: accounts, courses, assignments, groups — reads to find ids, creates to provision.
import { defineCommand, item, list, type Verbs } from '../cli/command.js';
import { UsageError } from '../errors.js';

const courseOption = { flags: '--course <id>', description: 'course id or SIS form (sis_course_id:X)', required: true };

export const accountsVerbs: Verbs = [
    defineCommand({
      name: 'list',
      summary: 'List the accounts you administer',
      aliases: ['ls'],
      routes: ['accounts.list'],
      columns: ['id', 'name', 'parent_account_id', 'sis_account_id'],
      async run({ ctx }) {
        return list((await ctx.client()).ops.accounts.list({}, { limit: ctx.pageLimit() }));
      },
    }),
    defineCommand({
      name: 'get <id>',
      summary: 'Show one account',
      routes: ['accounts.get'],
      async run({ args, ctx }) {
        return item(await (await ctx.client()).ops.accounts.get({ id: args[0] }));
      },
    }),
  ];

const COURSE_COLUMNS = ['id', 'course_code', 'name', 'sis_course_id', 'workflow_state'];

export const coursesVerbs: Verbs = [
    defineCommand<{ account?: string; search?: string; enrollmentType?: string }>({
      name: 'list',
      summary: "List your courses, or an account's with --account",
      aliases: ['ls'],
      routes: ['courses.list', 'courses.listAccount'],
      columns: COURSE_COLUMNS,
      options: [
        { flags: '--account <id>', description: "list the account's courses (admins), sub-accounts included" },
        { flags: '--search <term>', description: 'with --account: partial name, code or SIS id' },
        { flags: '--enrollment-type <type>', description: 'your courses where you are this', choices: ['teacher', 'student', 'ta', 'observer', 'designer'] },
      ],
      async run({ opts, ctx }) {
        if (opts.search && !opts.account) throw new UsageError('--search works with --account');
        if (opts.enrollmentType && opts.account) throw new UsageError('--enrollment-type lists your own courses; drop --account');
        const client = await ctx.client();
        const limit = { limit: ctx.pageLimit() };
        return list(
          opts.account
            ? client.ops.courses.listAccount({ account_id: opts.account, search_term: opts.search }, limit)
            : client.ops.courses.list({ enrollment_type: opts.enrollmentType }, limit),
        );
      },
    }),
    defineCommand({
      name: 'get <id>',
      summary: 'Show one course',
      routes: ['courses.get'],
      async run({ args, ctx }) {
        return item(await (await ctx.client()).ops.courses.get({ id: args[0] }));
      },
    }),
    defineCommand<{ account: string; name: string; courseCode?: string; sisCourseId?: string; startAt?: string; endAt?: string; publish?: boolean }>({
      name: 'create',
      summary: 'Create a course in an account',
      routes: ['courses.create'],
      columns: COURSE_COLUMNS,
      options: [
        { flags: '--account <id>', description: 'account id or SIS form', default: 'self' },
        { flags: '--name <name>', description: 'course name', required: true },
        { flags: '--course-code <code>', description: 'short code, e.g. BIO-101' },
        { flags: '--sis-course-id <id>', description: 'SIS id (needs SIS permission)' },
        { flags: '--start-at <time>', description: 'start date (ISO 8601)' },
        { flags: '--end-at <time>', description: 'end date (ISO 8601)' },
        { flags: '--publish', description: 'make the course available now' },
      ],
      async run({ opts, ctx }) {
        const o = opts;
        const client = await ctx.client();
        return item(
          await client.ops.courses.create({
            account_id: o.account,
            course: { name: o.name, course_code: o.courseCode, sis_course_id: o.sisCourseId, start_at: o.startAt, end_at: o.endAt },
            ...(o.publish ? { offer: true } : {}),
          }),
        );
      },
    }),
  ];

const ASSIGNMENT_COLUMNS = ['id', 'name', 'points_possible', 'grading_type', 'due_at', 'published'];
const GRADING_TYPES = ['points', 'percent', 'pass_fail', 'letter_grade', 'gpa_scale', 'not_graded'];

interface CreateAssignmentOpts {
  course: string;
  name: string;
  points?: string;
  gradingType?: string;
  submissionTypes?: string;
  dueAt?: string;
  gradingStandardId?: string;
  description?: string;
  publish: boolean;
}

export const assignmentsVerbs: Verbs = [
    defineCommand<{ course: string; search?: string }>({
      name: 'list',
      summary: 'List the assignments of a course',
      aliases: ['ls'],
      routes: ['assignments.list'],
      columns: ASSIGNMENT_COLUMNS,
      options: [courseOption, { flags: '--search <term>', description: 'partial name' }],
      async run({ opts, ctx }) {
        return list((await ctx.client()).ops.assignments.list({ course_id: opts.course, search_term: opts.search }, { limit: ctx.pageLimit() }));
      },
    }),
    defineCommand<{ course: string }>({
      name: 'get <id>',
      summary: 'Show one assignment',
      routes: ['assignments.get'],
      options: [courseOption],
      async run({ args, opts, ctx }) {
        return item(await (await ctx.client()).ops.assignments.get({ course_id: opts.course, id: args[0] }));
      },
    }),
    defineCommand<CreateAssignmentOpts>({
      name: 'create',
      summary: 'Create an assignment',
      routes: ['assignments.create'],
      columns: ASSIGNMENT_COLUMNS,
      options: [
        courseOption,
        { flags: '--name <name>', description: 'assignment name', required: true },
        { flags: '--points <n>', description: 'points possible' },
        { flags: '--grading-type <type>', description: 'how it is graded', choices: GRADING_TYPES },
        { flags: '--submission-types <list>', description: 'comma-separated, e.g. online_upload,online_text_entry' },
        { flags: '--due-at <time>', description: 'due date (ISO 8601)' },
        { flags: '--grading-standard-id <id>', description: 'letter grading scheme id' },
        { flags: '--description <html>', description: 'description (HTML)' },
        { flags: '--no-publish', description: 'create it unpublished' },
      ],
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
    }),
  ];

export const groupsVerbs: Verbs = [
    defineCommand<{ course: string }>({
      name: 'list',
      summary: 'List the groups of a course',
      aliases: ['ls'],
      routes: ['groups.list'],
      columns: ['id', 'name', 'members_count'],
      options: [courseOption],
      async run({ opts, ctx }) {
        return list((await ctx.client()).ops.groups.list({ course_id: opts.course }, { limit: ctx.pageLimit() }));
      },
    }),
  ];

export const filesVerbs: Verbs = [
    defineCommand({
      name: 'get <id>',
      summary: "Show a file's record (name, type, size, download URL)",
      routes: ['files.get'],
      columns: ['id', 'display_name', 'content-type', 'size', 'url'],
      async run({ args, ctx }) {
        return item(await (await ctx.client()).ops.files.get({ id: args[0] }));
      },
    }),
  ];

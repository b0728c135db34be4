// `lms courses`: find courses (yours, or an account's) and create them.
import { item, list, type Verbs } from '../../cli/command.js';
import { command, contextFlags } from '../../cli/define.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'course_code', 'name', 'sis_course_id', 'workflow_state'];

const listCourses = command({
  name: 'list',
  summary: "List your courses, or an account's with --account",
  aliases: ['ls'],
  routes: ['courses.list', 'courses.listAccount'],
  examples: ['lms courses list --enrollment-type teacher', 'lms courses list --account 1 --search BIO'],
  columns: COLUMNS,
  options: {
    account: { ...contextFlags.account, description: "list the account's courses (admins), sub-accounts included" },
    search: { flags: '--search <term>', description: 'with --account: partial name, code or SIS id' },
    enrollmentType: { flags: '--enrollment-type <type>', description: 'your courses where you are this', choices: ['teacher', 'student', 'ta', 'observer', 'designer'] },
  },
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
});

const getCourse = command({
  name: 'get <id>',
  summary: 'Show one course',
  routes: ['courses.get'],
  examples: ['lms courses get sis_course_id:BIO-101'],
  async run({ args, ctx }) {
    return item(await (await ctx.client()).ops.courses.get({ id: args[0] }));
  },
});

const createCourse = command({
  name: 'create',
  summary: 'Create a course in an account',
  routes: ['courses.create'],
  writes: 'create',
  examples: ['lms courses create --account 1 --name "Biology 102" --course-code BIO-102 --publish', 'lms courses create --account 1 --name "Field Studies" --time-zone America/Denver'],
  columns: COLUMNS,
  options: {
    account: { ...contextFlags.account, default: 'self' },
    name: { flags: '--name <name>', description: 'course name', required: true, field: { name: 'name' } },
    courseCode: { flags: '--course-code <code>', description: 'short code, e.g. BIO-101', field: { name: 'course_code' } },
    sisCourseId: { flags: '--sis-course-id <id>', description: 'SIS id (needs SIS permission)', field: { name: 'sis_course_id' } },
    startAt: { flags: '--start-at <time>', description: 'start date (ISO 8601)', field: { name: 'start_at', type: 'time' } },
    endAt: { flags: '--end-at <time>', description: 'end date (ISO 8601)', field: { name: 'end_at', type: 'time' } },
    timeZone: { flags: '--time-zone <zone>', description: "the course's time zone, e.g. America/Denver (default: its account's)", field: { name: 'time_zone' } },
    publish: { flags: '--publish', description: 'make the course available now' },
  },
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return item(
      await client.ops.courses.create({
        account_id: opts.account,
        course: { name: opts.name, course_code: opts.courseCode, sis_course_id: opts.sisCourseId, start_at: opts.startAt, end_at: opts.endAt, time_zone: opts.timeZone },
        ...(opts.publish ? { offer: true } : {}),
      }),
    );
  },
});

export const coursesVerbs: Verbs = [listCourses, getCourse, createCourse];

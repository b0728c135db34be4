// `lms courses`: find courses (yours, or an account's), create them, change them and upload into their files.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import type { CourseFields } from '../../spec/types/school.js';
import { UsageError } from '../../errors.js';
import { importCourses } from './import.js';
import { upload } from './upload.js';

const COLUMNS = ['id', 'course_code', 'name', 'sis_course_id', 'workflow_state'];

/** The flags of create and update, named after `course[...]` in kebab case. */
const fieldFlags = {
  name: { long: 'name', value: 'name', description: 'course name', field: { name: 'name' } },
  courseCode: {
    long: 'course-code',
    value: 'code',
    description: 'short code, e.g. BIO-101',
    field: { name: 'course_code' },
  },
  sisCourseId: {
    long: 'sis-course-id',
    value: 'id',
    description: 'SIS id (needs SIS permission)',
    field: { name: 'sis_course_id' },
  },
  startAt: {
    long: 'start-at',
    value: 'time',
    description: 'start date (ISO 8601)',
    field: { name: 'start_at', type: 'time' },
  },
  endAt: { long: 'end-at', value: 'time', description: 'end date (ISO 8601)', field: { name: 'end_at', type: 'time' } },
  term: {
    long: 'term',
    value: 'term',
    description: "its term: an id or sis_term_id:X (default: the root account's default term)",
    // The course shows it as enrollment_term_id, a number: lms apply reads the term it names (plan.ts).
    field: { name: 'term' },
  },
  integrationId: {
    long: 'integration-id',
    value: 'id',
    description: 'integration id (needs SIS permission)',
    field: { name: 'integration_id' },
  },
  timeZone: {
    long: 'time-zone',
    value: 'zone',
    description: "the course's time zone, e.g. America/Denver (default: its account's)",
    field: { name: 'time_zone' },
  },
} as const;

const listCourses = command({
  name: 'list',
  summary: "List your courses, or an account's with --account",
  aliases: ['ls'],
  routes: ['courses.list', 'courses.listAccount'],
  examples: [
    'lms courses list --enrollment-type teacher',
    'lms courses list --account 1 --search BIO',
    'lms courses list --account 1 --term sis_term_id:2026-FA',
  ],
  columns: COLUMNS,
  options: {
    account: { ...contextFlags.account, description: "list the account's courses (admins), sub-accounts included" },
    search: { long: 'search', value: 'term', description: 'with --account: partial name, code or SIS id' },
    term: {
      long: 'term',
      value: 'term',
      description: 'with --account: only the courses in this term (id or sis_term_id:X)',
    },
    enrollmentType: {
      long: 'enrollment-type',
      value: 'type',
      description: 'your courses where you are this',
      choices: ['teacher', 'student', 'ta', 'observer', 'designer'],
    },
  },
  async run({ opts, ctx }) {
    if (opts.search && !opts.account) throw new UsageError('--search works with --account');
    if (opts.term && !opts.account) throw new UsageError('--term works with --account');
    if (opts.enrollmentType && opts.account)
      throw new UsageError('--enrollment-type lists your own courses; drop --account');
    const client = await ctx.client();
    const limit = { limit: ctx.pageLimit() };
    if (opts.account)
      return list(
        client.ops.courses.listAccount(
          { account_id: opts.account, search_term: opts.search, enrollment_term_id: opts.term },
          limit,
        ),
      );
    // An admin enrolled in nothing sees no course of their own: the account's are elsewhere.
    const whenEmpty =
      `You are enrolled in no course${opts.enrollmentType ? ` as ${opts.enrollmentType}` : ''}. An ` +
      `admin lists an account's courses with --account ID (lms accounts list shows yours).`;
    return { ...list(client.ops.courses.list({ enrollment_type: opts.enrollmentType }, limit)), whenEmpty };
  },
});

const getCourse = command({
  name: 'get',
  args: [{ name: 'id' }],
  argIds: { id: 'course' },
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
  examples: [
    'lms courses create --account 1 --name "Biology 102" --course-code BIO-102 --publish',
    'lms courses create --account 1 --name "Field Studies" --time-zone America/Denver',
  ],
  columns: COLUMNS,
  options: {
    account: { ...contextFlags.account, default: 'self' },
    ...fieldFlags,
    name: { ...fieldFlags.name, required: true },
    publish: { long: 'publish', description: 'make the course available now' },
  },
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return item(
      await client.ops.courses.create({
        account_id: opts.account,
        course: {
          name: opts.name,
          course_code: opts.courseCode,
          sis_course_id: opts.sisCourseId,
          start_at: opts.startAt,
          end_at: opts.endAt,
          time_zone: opts.timeZone,
          term_id: opts.term,
          integration_id: opts.integrationId,
        },
        ...(opts.publish ? { offer: true } : {}),
      }),
    );
  },
});

/** A date flag's value: "" clears the date (the API's null). */
function checkTime(flag: string, v: string | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === '') return null;
  if (Number.isNaN(Date.parse(v))) throw new UsageError(`${flag} is not a date or time: "${v}"`);
  return v;
}

const updateCourse = command({
  name: 'update',
  args: [{ name: 'id' }],
  argIds: { id: 'course' },
  summary: "Change a course's name, code, SIS id, dates or time zone; publish or unpublish it",
  routes: ['courses.update'],
  writes: 'update',
  examples: [
    'lms courses update sis_course_id:BIO-101 --name "Introduction to Biology (Fall)" --course-code BIO-101F',
    'lms courses update 3 --end-at "" --time-zone America/New_York',
    'lms courses update 1 --weighted',
  ],
  columns: COLUMNS,
  options: {
    ...fieldFlags,
    startAt: {
      ...fieldFlags.startAt,
      description: 'start date (ISO 8601; "" clears it)',
      field: { ...fieldFlags.startAt.field, clears: true },
    },
    endAt: {
      ...fieldFlags.endAt,
      description: 'end date (ISO 8601; "" clears it)',
      field: { ...fieldFlags.endAt.field, clears: true },
    },
    timeZone: { ...fieldFlags.timeZone, description: "the course's time zone, e.g. America/Denver" },
    term: { ...fieldFlags.term, description: 'its term: an id or sis_term_id:X' },
    integrationId: { ...fieldFlags.integrationId, description: 'integration id (needs SIS permission; "" clears it)' },
    publish: { long: 'publish', description: 'make the course available' },
    unpublish: { long: 'unpublish', description: 'make it unavailable again (refused once its students have grades)' },
    weighted: {
      long: 'weighted',
      description: "weigh the final grade by the assignment groups' weights (teachers may change this alone)",
      field: { name: 'apply_assignment_group_weights' },
    },
    unweighted: {
      long: 'unweighted',
      description: 'count the final grade as points over points again',
      field: { name: 'apply_assignment_group_weights', value: false },
    },
  },
  async run({ args, opts, ctx }) {
    if (opts.publish && opts.unpublish) throw new UsageError('--publish and --unpublish go one at a time');
    if (opts.weighted && opts.unweighted) throw new UsageError('--weighted and --unweighted go one at a time');
    const fields: CourseFields = {
      name: opts.name,
      course_code: opts.courseCode,
      sis_course_id: opts.sisCourseId,
      start_at: checkTime('--start-at', opts.startAt),
      end_at: checkTime('--end-at', opts.endAt),
      time_zone: opts.timeZone,
      term_id: opts.term,
      integration_id: opts.integrationId,
      event: opts.publish ? 'offer' : opts.unpublish ? 'claim' : undefined,
      apply_assignment_group_weights: opts.weighted ? true : opts.unweighted ? false : undefined,
    };
    const course = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as CourseFields;
    if (Object.keys(course).length === 0)
      throw new UsageError('nothing to change: give at least one flag (see --help)');
    return item(await (await ctx.client()).ops.courses.update({ id: args[0], course }));
  },
});

export const coursesVerbs: Verbs = [listCourses, getCourse, createCourse, updateCourse, importCourses, upload] as Verbs;

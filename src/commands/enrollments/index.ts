// `lms enrollments`: who is in a course, section or user's courses, and adding and ending enrollments.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags, oneContext } from '../../model/define.js';
import { ENROLLMENT_STATES, type EnrollmentState, type EnrollmentType } from '../../spec/types/roster.js';
import { enrollmentTypeOf } from '../../spec/vocabulary.js';
import { UsageError } from '../../errors.js';
import { exportEnrollments } from './export.js';
import { importEnrollments } from './import.js';
import { stateFlag } from './state.js';
import { courseScope, resolveUserPath } from '../../client/user-ref.js';

const COLUMNS = ['id', 'user_id', 'user.name', 'type', 'role', 'enrollment_state', 'course_id', 'course_section_id'];
const ONE_COLUMNS = ['id', 'user_id', 'type', 'role', 'enrollment_state', 'course_id', 'course_section_id'];

/** `student` or `StudentEnrollment` → StudentEnrollment. */
export function enrollmentType(word: string): EnrollmentType {
  const found = enrollmentTypeOf(word);
  if (!found) throw new UsageError(`unknown enrollment type "${word}": use student, teacher, ta, designer or observer`);
  return found;
}

function enrollmentState(word: string): EnrollmentState {
  if (!(ENROLLMENT_STATES as readonly string[]).includes(word))
    throw new UsageError(`unknown enrollment state "${word}": use ${ENROLLMENT_STATES.join(', ')}`);
  return word as EnrollmentState;
}

const listEnrollments = command({
  name: 'list',
  summary:
    "List the enrollments of a course, a section or a user, or one user's in a course or section (active and " +
    'invited unless --state says otherwise)',
  aliases: ['ls'],
  routes: ['enrollments.listCourse', 'enrollments.listSection', 'enrollments.listUser'],
  lookups: ['courses.users', 'sections.get', 'users.list'],
  columns: COLUMNS,
  options: {
    course: contextFlags.course,
    section: contextFlags.section,
    user: {
      ...contextFlags.user,
      description: `${contextFlags.user.description}; with --course or --section, that user's enrollments there`,
    },
    type: {
      long: 'type',
      value: 'type',
      description: 'student, teacher, ta, designer or observer (repeatable)',
      repeatable: true,
    },
    role: {
      long: 'role',
      value: 'role',
      description: 'a role name, custom roles included (repeatable; --type is then ignored)',
      repeatable: true,
    },
    state: {
      long: 'state',
      value: 'state',
      description: `${ENROLLMENT_STATES.join(', ')} (repeatable)`,
      repeatable: true,
    },
  },
  examples: [
    'lms enrollments list --course sis_course_id:BIO-101 --type student',
    'lms enrollments list --user self --state active --state completed',
    'lms enrollments list --course 1 --user sis_user_id:S-009',
  ],
  async run({ opts, ctx }) {
    // A user with a course or section narrows that roster to them (the API's user_id); a user alone
    // lists their enrollments everywhere.
    const inPlace = opts.user !== undefined && (opts.course !== undefined || opts.section !== undefined);
    const where = inPlace ? oneContext(opts, ['course', 'section']) : oneContext(opts, ['course', 'section', 'user']);
    const client = await ctx.client();
    // An address is looked for among the people of the course or section given, else the instance's users.
    const scope =
      where.type === 'user'
        ? { account_id: 'self' }
        : courseScope(client, where.type === 'course' ? { course_id: where.id } : { section_id: where.id });
    const filter = {
      type: opts.type?.map(enrollmentType),
      role: opts.role,
      state: opts.state?.map(enrollmentState),
      ...(inPlace ? { user_id: await resolveUserPath(client, opts.user!, scope) } : {}),
    };
    const options = { limit: ctx.pageLimit() };
    const e = client.ops.enrollments;
    const items =
      where.type === 'course'
        ? e.listCourse({ course_id: where.id, ...filter }, options)
        : where.type === 'section'
          ? e.listSection({ section_id: where.id, ...filter }, options)
          : e.listUser({ user_id: await resolveUserPath(client, where.id, scope), ...filter }, options);
    return list(items);
  },
});

const addEnrollment = command({
  name: 'add',
  summary: 'Enrol a user in a course or a section (invited unless --state active)',
  routes: ['enrollments.enrollCourse', 'enrollments.enrollSection'],
  lookups: ['users.list'],
  columns: ONE_COLUMNS,
  options: {
    course: contextFlags.course,
    section: contextFlags.section,
    user: { ...contextFlags.user, required: true },
    type: { long: 'type', value: 'type', description: 'student (default), teacher, ta, designer or observer' },
    role: {
      long: 'role',
      value: 'role',
      description: 'a course role by name, e.g. a custom one; the type follows from it',
    },
    state: stateFlag,
    sectionId: {
      long: 'section-id',
      value: 'id',
      description: "with --course: the section to enrol into (default: the course's default section)",
    },
    limitToSection: {
      long: 'limit-to-section',
      description: 'a teacher or TA may only see and act in their own section',
    },
    observee: { long: 'observee', value: 'id', description: 'for an observer: the student they observe' },
    notify: { long: 'notify', negated: true, description: 'send no enrollment notice' },
  },
  examples: [
    'lms enrollments add --course 1 --user sis_user_id:S-042 --state active',
    'lms enrollments add --section 2 --user 5 --role Grader --limit-to-section',
  ],
  async run({ opts, ctx }) {
    const where = oneContext(opts, ['course', 'section']);
    if (opts.sectionId && where.type === 'section')
      throw new UsageError('--section-id goes with --course; with --section the section is already chosen');
    const client = await ctx.client();
    // Who is enrolled is not in the course yet: an address is looked for among the instance's users.
    const enrollment = {
      user_id: await resolveUserPath(client, opts.user, { account_id: 'self' }),
      type: opts.type ? enrollmentType(opts.type) : undefined,
      role: opts.role,
      enrollment_state: opts.state,
      course_section_id: opts.sectionId,
      limit_privileges_to_course_section: opts.limitToSection || undefined,
      associated_user_id: opts.observee,
      notify: opts.notify,
    };
    const e = client.ops.enrollments;
    return item(
      where.type === 'course'
        ? await e.enrollCourse({ course_id: where.id, enrollment })
        : await e.enrollSection({ section_id: where.id, enrollment }),
    );
  },
});

/** conclude, deactivate and delete: the same DELETE request with another `task`. */
function endVerb(name: 'conclude' | 'deactivate' | 'delete', summary: string) {
  return command({
    name,
    args: [{ name: 'id' }],
    summary,
    routes: ['enrollments.end'],
    columns: ONE_COLUMNS,
    options: { course: { ...contextFlags.course, required: true } },
    examples: [`lms enrollments ${name} 4 --course sis_course_id:BIO-101 --yes`],
    async run({ args, opts, ctx }) {
      // Each ends the user's access to the course, or some of it: asked as a delete is.
      await ctx.confirm(`${name[0].toUpperCase()}${name.slice(1)} enrollment ${args[0]} of course ${opts.course}`);
      const client = await ctx.client();
      return item(await client.ops.enrollments.end({ course_id: opts.course, id: args[0], task: name }));
    },
  });
}

export const enrollmentsVerbs: Verbs = [
  listEnrollments,
  addEnrollment,
  endVerb('conclude', 'Conclude an enrollment (it becomes completed; the user keeps read access to the course)'),
  endVerb('deactivate', 'Deactivate an enrollment (inactive: the user loses access until reactivated)'),
  endVerb('delete', 'Delete an enrollment'),
  importEnrollments,
  exportEnrollments,
] as Verbs;

import {
  badRequest,
  bool,
  invalid,
  list,
  notFound,
  obj,
  paginate,
  keysetSource,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { findAccount, findCourse, rootOf } from '../lookup.js';
import { canManageContent, demand, permit, readableCourse } from '../access.js';
import { setWeighsGroups, weighsGroups } from '../assignment-groups/repo.js';
import { ianaZone } from '../../time-zones.js';
import { ENROLLMENT_TYPE_WORDS } from '../../../spec/vocabulary.js';
import type { ParamsObject } from '../../decode.js';
import { enrollmentsOfUserInCourse } from '../../school/enrollments/repo.js';
import { defaultSectionOf } from '../../school/sections/repo.js';
import { coursesPolicy } from '../../school/courses/policy.js';
import { filesPolicy } from '../files/policy.js';
import { startUpload } from '../files/upload.js';
import {
  courseById,
  courseIdTaken,
  coursesOfAccountTreeQuery,
  coursesOfUserQuery,
  createCourse,
  findTerm,
  hasGradedStudentWork,
  liveTerm,
  updateCourse,
  type CourseChange,
  type CourseRow,
} from '../../school/courses/repo.js';
import { courseJson } from '../../school/courses/present.js';

/**
 * `course[term_id]` (or `enrollment_term_id`): an id or `sis_term_id:X` among the root account's
 * terms; one not found is a 404, as Canvas's api_find answers. Undefined when not given.
 */
function termOf(ctx: MockCtx, course: ParamsObject, root: number): number | undefined {
  const raw = (str(course, 'term_id') || str(course, 'enrollment_term_id'))?.trim();
  if (!raw) return undefined;
  const term = liveTerm(ctx.db, root, raw);
  if (!term) throw notFound();
  return term.id;
}

/** `course[integration_id]`, held by no other course of the root account; "" is none. */
function integrationIdOf(ctx: MockCtx, raw: string, root: number, except?: number): string | null {
  const id = raw.trim() || null;
  if (id !== null && courseIdTaken(ctx.db, root, 'integration_id', id, except))
    throw invalid('course', 'integration_id', 'taken', `Integration ID "${id}" is already in use`);
  return id;
}

const listMine: Handler = (ctx) => {
  const word = str(ctx.params, 'enrollment_type');
  const type = word === undefined ? undefined : ENROLLMENT_TYPE_WORDS.get(word);
  if (word !== undefined && !type)
    throw badRequest(`enrollment_type must be one of ${[...ENROLLMENT_TYPE_WORDS.keys()].join(', ')}`);
  const query = coursesOfUserQuery(ctx.caller.id, type, list(ctx.params, 'state').map(String));
  return paginate(ctx, keysetSource<CourseRow>(ctx.db, query), (c) =>
    courseJson(c, {
      enrollments: enrollmentsOfUserInCourse(ctx.db, ctx.caller.id, c.id).map((e) => ({
        ...e,
        type: e.type.replace('Enrollment', '').toLowerCase(),
      })),
    }),
  );
};

const listOfAccount: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  demand(ctx, coursesPolicy.listAccount, { account });
  const term = str(ctx.params, 'search_term');
  if (term !== undefined && term.length < 2) throw badRequest('search_term must be at least 2 characters');
  // As accounts_controller.rb finds it, among the root account's terms: one it lacks is a 404.
  const termRef = str(ctx.params, 'enrollment_term_id');
  const inTerm = termRef === undefined ? undefined : findTerm(ctx.db, rootOf(account), termRef);
  if (termRef !== undefined && !inTerm) throw notFound();
  return paginate(ctx, keysetSource<CourseRow>(ctx.db, coursesOfAccountTreeQuery(account.id, term, inTerm?.id)), (c) =>
    courseJson(c),
  );
};

const create: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  demand(ctx, coursesPolicy.manage, { account });
  const course = obj(ctx.params, 'course');
  const name = str(course, 'name')?.trim() || 'Unnamed Course';
  const code = str(course, 'course_code')?.trim() || name.slice(0, 20);
  const sis = str(course, 'sis_course_id')?.trim() || undefined;
  const root = rootOf(account);
  if (sis !== undefined) {
    demand(ctx, coursesPolicy.setSis, { account });
    if (courseIdTaken(ctx.db, root, 'sis_course_id', sis))
      throw invalid('course', 'sis_source_id', 'taken', `SIS ID "${sis}" is already in use`);
  }
  const rawIntegration = str(course, 'integration_id');
  if (rawIntegration !== undefined) demand(ctx, coursesPolicy.setSis, { account });
  const integrationId = rawIntegration === undefined ? null : integrationIdOf(ctx, rawIntegration, root);
  const term = termOf(ctx, course, root);
  const startAt = timestamp(course, 'start_at');
  const endAt = timestamp(course, 'end_at');
  if (startAt && endAt && startAt > endAt)
    throw invalid('course', 'conclude_at', 'invalid', 'end date must be after the start date');
  const zoneName = str(course, 'time_zone')?.trim() || undefined;
  const timeZone = zoneName === undefined ? undefined : ianaZone(zoneName);
  if (zoneName !== undefined && !timeZone)
    throw invalid('course', 'time_zone', 'inclusion', `'${zoneName}' is not a known time zone`);
  const now = ctx.now();
  const id = createCourse(ctx.db, {
    account: account.id,
    root,
    name,
    code,
    sis,
    state: bool(ctx.params, 'offer') ? 'available' : 'unpublished',
    startAt,
    endAt,
    timeZone,
    term,
    integrationId,
    now,
  });
  const created = courseById(ctx.db, id)!;
  defaultSectionOf(ctx.db, created, now);
  return courseJson(created);
};

/** Whether the course's final grade weighs its assignment groups, as every course answer says. */
const weighting = (ctx: MockCtx, c: CourseRow) => ({ apply_assignment_group_weights: weighsGroups(ctx.db, c.id) });

const get: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.id);
  return courseJson(course, weighting(ctx, course));
};

/**
 * `course[event]`: the states the mock's courses move between, as Canvas's update takes them
 * (courses_controller.rb#update: claim, offer, conclude, delete). A deleted course is gone to the
 * API, so nothing moves it back.
 */
const EVENTS: Record<string, string> = {
  offer: 'available',
  claim: 'unpublished',
  conclude: 'completed',
  delete: 'deleted',
};

/**
 * Changes what `course[...]` names and leaves the rest, under the rules create applies to the same
 * fields. Who may: those who may create a course in its account; the SIS id asks more, as on create
 * (policy.ts).
 */
const update: Handler = (ctx) => {
  const current = findCourse(ctx, ctx.path.id);
  const account = { id: current.account_id };
  const p = obj(ctx.params, 'course');
  // Weighing the groups is a grading setting those who manage the course's content change; the rest
  // asks what creating a course asks.
  const weights = bool(p, 'apply_assignment_group_weights');
  if (weights === undefined || Object.keys(p).some((k) => k !== 'apply_assignment_group_weights'))
    demand(ctx, coursesPolicy.manage, { account });
  else permit(canManageContent(ctx, current));
  const next: CourseChange = { ...current };
  // A blank name or code falls back as on create: real instances never keep an empty one.
  const name = str(p, 'name');
  if (name !== undefined) next.name = name.trim() || 'Unnamed Course';
  const code = str(p, 'course_code');
  if (code !== undefined) next.course_code = code.trim() || next.name.slice(0, 20);
  const sis = str(p, 'sis_course_id');
  if (sis !== undefined) {
    demand(ctx, coursesPolicy.setSis, { account });
    next.sis_course_id = sis.trim() || null;
    if (
      next.sis_course_id !== null &&
      courseIdTaken(ctx.db, current.root_account_id, 'sis_course_id', next.sis_course_id, current.id)
    ) {
      throw invalid('course', 'sis_source_id', 'taken', `SIS ID "${next.sis_course_id}" is already in use`);
    }
  }
  const integration = str(p, 'integration_id');
  if (integration !== undefined) {
    demand(ctx, coursesPolicy.setSis, { account });
    next.integration_id = integrationIdOf(ctx, integration, current.root_account_id, current.id);
  }
  next.enrollment_term_id = termOf(ctx, p, current.root_account_id) ?? next.enrollment_term_id;
  // "" clears a date; a date not named stays.
  for (const field of ['start_at', 'end_at'] as const) {
    if (str(p, field) === '') next[field] = null;
    else next[field] = timestamp(p, field) ?? next[field];
  }
  if (next.start_at && next.end_at && next.start_at > next.end_at)
    throw invalid('course', 'conclude_at', 'invalid', 'end date must be after the start date');
  const zoneName = str(p, 'time_zone')?.trim();
  if (zoneName) {
    const zone = ianaZone(zoneName);
    if (!zone) throw invalid('course', 'time_zone', 'inclusion', `'${zoneName}' is not a known time zone`);
    next.time_zone = zone;
  }
  const event = str(p, 'event');
  if (event !== undefined) {
    const state = EVENTS[event];
    if (!state) throw invalid('course', 'event', 'inclusion', `must be one of ${Object.keys(EVENTS).join(', ')}`);
    // Unpublishing hides a live course's grades from its students; reopening a concluded one does not.
    if (state === 'unpublished' && current.workflow_state === 'available' && hasGradedStudentWork(ctx.db, current.id)) {
      throw invalid(
        'course',
        'workflow_state',
        'invalid',
        'Course cannot be unpublished if student submissions exist.',
      );
    }
    next.workflow_state = state;
  }
  updateCourse(ctx.db, current.id, next);
  if (weights !== undefined) setWeighsGroups(ctx.db, current.id, weights);
  return courseJson(courseById(ctx.db, current.id)!, weighting(ctx, current));
};

/**
 * Step 1 of a file's upload into the course's files (courses_controller.rb#create_file), for whoever
 * adds to them; the file lands in the course's root folder, which real instances name "course files".
 */
const uploadFile: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  demand(ctx, filesPolicy.manageCourse, { course });
  return startUpload(ctx, { type: 'Course', id: course.id }, 'course files');
};

export const coursesHandlers = {
  'courses.list': listMine,
  'courses.listAccount': listOfAccount,
  'courses.create': create,
  'courses.get': get,
  'courses.update': update,
  'courses.uploadFile': uploadFile,
};

import type { Enrollment } from '../../../spec/types/roster.js';
import {
  bool,
  rejected,
  int,
  list,
  notFound,
  obj,
  paginate,
  keysetSource,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { domainRootAccountId, find, findCourse, findSection, findUser } from '../lookup.js';
import { allows, demand, permit, reachOf } from '../access.js';
import { studentScores } from '../assignment-groups/scores.js';
import { enrollmentsPolicy, manageRuleFor } from '../../school/enrollments/policy.js';
import { enrollmentInvitation } from '../activity/notifications.js';
import {
  ACCOUNT_MEMBERSHIP,
  ENROLLMENT_TYPES,
  builtInRole,
  roleById,
  roleByName,
  type RoleRow,
} from '../../school/accounts/repo.js';
import { canReadCourse } from '../permissions.js';
import { courseById, type CourseRow } from '../../school/courses/repo.js';
import { defaultSectionOf, type SectionRow } from '../../school/sections/repo.js';
import { users } from '../../school/users/repo.js';
import {
  ENROLLMENT_STATES,
  createEnrollment,
  enrollmentById,
  enrollments,
  enrollmentsQuery,
  existingEnrollment,
  observeesIn,
  setEnrollmentState,
  type EnrollmentFilter,
  type EnrollmentRow,
} from '../../school/enrollments/repo.js';
import { enrollmentJson as recordJson } from '../../school/enrollments/present.js';

const DEFAULT_STATES = ['active', 'invited'];

/**
 * A student enrollment's grades as the course computes them (its groups' drop rules and weights),
 * for those who may see them: the student, who observes them there, and who sees every grade.
 * Anyone else gets the link alone. The mock's courses have no letter scheme: no course grade.
 */
function gradesOf(ctx: MockCtx, e: EnrollmentRow, course: CourseRow, htmlUrl: string) {
  const sees =
    e.user_id === ctx.caller.id ||
    observeesIn(ctx.db, ctx.caller.id, course.id).includes(e.user_id) ||
    allows(ctx, enrollmentsPolicy.seeGrades, { course });
  if (!sees) return { html_url: htmlUrl };
  const scores = studentScores(ctx.db, course.id, e.user_id);
  return {
    html_url: htmlUrl,
    current_score: scores.current_score,
    final_score: scores.final_score,
    current_grade: null,
    final_grade: null,
    unposted_current_score: scores.current_score,
    unposted_final_score: scores.final_score,
    unposted_current_grade: null,
    unposted_final_grade: null,
  };
}

/** An enrollment as the school shows it, a student's with the grades the course computes. */
function enrollmentJson(ctx: MockCtx, e: EnrollmentRow, options: { withUser?: boolean } = {}): Enrollment {
  const json = recordJson(ctx, e, options);
  if (e.type !== 'StudentEnrollment') return json;
  return { ...json, grades: gradesOf(ctx, e, courseById(ctx.db, e.course_id)!, `${json.html_url}/grades`) };
}
/** `type[]`, `role[]` (names) and `state[]`, checked; roles resolve in the account the course belongs to. */
function filters(ctx: MockCtx, accountId: number): Pick<EnrollmentFilter, 'types' | 'roleIds' | 'states'> {
  const types = list(ctx.params, 'type').map(String);
  const badType = types.find((t) => !(ENROLLMENT_TYPES as readonly string[]).includes(t));
  if (badType) throw rejected(`Invalid type ${badType}`);
  const states = list(ctx.params, 'state').map(String);
  const badState = states.find((s) => !(ENROLLMENT_STATES as readonly string[]).includes(s));
  if (badState) throw rejected(`Invalid state ${badState}; use one of ${ENROLLMENT_STATES.join(', ')}`);
  const roleNames = list(ctx.params, 'role').map(String);
  const roleIds = [
    ...roleNames.map((n) => roleByName(ctx.db, n, accountId)?.id ?? -1),
    ...list(ctx.params, 'role_id').map(Number),
  ];
  return { types, roleIds, states: states.length ? states : DEFAULT_STATES };
}

function listInCourse(ctx: MockCtx, course: CourseRow, section?: SectionRow): ReturnType<Handler> {
  permit(canReadCourse(ctx.db, ctx.caller.id, course));
  // A section-limited caller sees the roster of their own sections only.
  const reach = reachOf(ctx, enrollmentsPolicy.listCourse, course);
  const userRaw = str(ctx.params, 'user_id');
  const user = userRaw ? findUser(ctx, userRaw) : undefined;
  const query = enrollmentsQuery({
    course: course.id,
    section: section?.id,
    user: user?.id,
    sectionsIn: reach === 'all' ? undefined : reach,
    ...filters(ctx, course.account_id),
  });
  return paginate(ctx, keysetSource<EnrollmentRow>(ctx.db, query), (e) => enrollmentJson(ctx, e, { withUser: true }));
}

const listCourse: Handler = (ctx) => listInCourse(ctx, findCourse(ctx, ctx.path.course_id));

const listSection: Handler = (ctx) => {
  const section = findSection(ctx, ctx.path.section_id);
  return listInCourse(ctx, courseById(ctx.db, section.course_id)!, section);
};

const listUser: Handler = (ctx) => {
  const user = findUser(ctx, ctx.path.user_id);
  const root = domainRootAccountId(ctx.db);
  demand(ctx, enrollmentsPolicy.listUser, { account: { id: root } }, user.id);
  return paginate(
    ctx,
    keysetSource<EnrollmentRow>(ctx.db, enrollmentsQuery({ user: user.id, ...filters(ctx, root) })),
    (e) => enrollmentJson(ctx, e, { withUser: true }),
  );
};

/** `enrollment[role_id]` or `enrollment[role]`, and `enrollment[type]`: they must agree; the type follows the role. */
function typeAndRole(ctx: MockCtx, e: ReturnType<typeof obj>, course: CourseRow): { type: string; role: RoleRow } {
  const typeRaw = str(e, 'type');
  const roleId = int(e, 'role_id');
  const roleName = str(e, 'role');
  let role: RoleRow | undefined;
  if (roleId !== undefined || roleName) {
    role = roleId !== undefined ? roleById(ctx.db, roleId) : roleByName(ctx.db, roleName!, course.account_id);
    if (!role || role.base_role_type === ACCOUNT_MEMBERSHIP) throw rejected('Invalid role');
    if (role.workflow_state !== 'active')
      throw rejected('Cannot create an enrollment with this role because it is inactive.');
  }
  if (typeRaw !== undefined && !(ENROLLMENT_TYPES as readonly string[]).includes(typeRaw))
    throw rejected('Invalid type');
  if (typeRaw !== undefined && role && role.base_role_type !== typeRaw)
    throw rejected('The specified type must match the base type for the role');
  const type = typeRaw ?? role?.base_role_type ?? 'StudentEnrollment';
  return { type, role: role ?? builtInRole(ctx.db, type) };
}

function enroll(ctx: MockCtx, course: CourseRow, fixedSection?: SectionRow): ReturnType<Handler> {
  if (ctx.params.enrollment === undefined) throw rejected('No parameters given');
  const e = obj(ctx.params, 'enrollment');
  const userRaw = str(e, 'user_id');
  if (!userRaw)
    throw rejected("Can't create an enrollment without a user. Include enrollment[user_id] to create an enrollment");
  const user = userRaw === 'self' ? ctx.caller : find(ctx, users, userRaw);
  const { type, role } = typeAndRole(ctx, e, course);
  if (course.workflow_state === 'completed') throw rejected("Can't add an enrollment to a concluded course.");

  let section = fixedSection;
  const sectionRaw = str(e, 'course_section_id');
  if (!section && sectionRaw) {
    section = findSection(ctx, sectionRaw);
    if (section.course_id !== course.id) throw notFound();
  }
  section ??= defaultSectionOf(ctx.db, course, ctx.now());
  demand(ctx, manageRuleFor(type), { course, sections: [section.id] });

  const stateRaw = str(e, 'enrollment_state');
  const state = stateRaw === 'active' || stateRaw === 'inactive' ? stateRaw : 'invited';
  const associatedRaw = str(e, 'associated_user_id');
  const associated = associatedRaw ? find(ctx, users, associatedRaw).id : null;
  // enrollment[notify] asks for the enrolment notice by mail; the mock's notices are the invitation
  // messages of the activity stream, which an invited enrolment always gets.
  bool(e, 'notify');

  const existing = existingEnrollment(ctx.db, user.id, section.id, role.id, associated);
  if (existing) {
    if (stateRaw !== undefined && existing.workflow_state !== state)
      setEnrollmentState(ctx.db, existing.id, state, ctx.now());
    return enrollmentJson(ctx, enrollmentById(ctx.db, existing.id)!);
  }
  const created = createEnrollment(ctx.db, {
    user: user.id,
    course: course.id,
    section: section.id,
    root: course.root_account_id,
    type,
    roleId: role.id,
    state,
    limited: bool(e, 'limit_privileges_to_course_section') === true,
    associatedUser: associated,
    now: ctx.now(),
  });
  if (created.workflow_state === 'invited') enrollmentInvitation(ctx.db, created, ctx.now());
  return enrollmentJson(ctx, created);
}

const enrollCourse: Handler = (ctx) => enroll(ctx, findCourse(ctx, ctx.path.course_id));

const enrollSection: Handler = (ctx) => {
  const section = findSection(ctx, ctx.path.section_id);
  return enroll(ctx, courseById(ctx.db, section.course_id)!, section);
};

/** `task`: conclude (the default, also for an unknown task), delete, deactivate or inactivate. */
const NEXT_STATE: Record<string, string> = {
  conclude: 'completed',
  delete: 'deleted',
  deactivate: 'inactive',
  inactivate: 'inactive',
};

const end: Handler = (ctx) => {
  const course = findCourse(ctx, ctx.path.course_id);
  const enrollment = find(ctx, enrollments, ctx.path.id);
  if (enrollment.course_id !== course.id) throw notFound();
  demand(ctx, manageRuleFor(enrollment.type), { course, sections: [enrollment.course_section_id] });
  const next = NEXT_STATE[str(ctx.params, 'task') ?? 'conclude'] ?? 'completed';
  setEnrollmentState(ctx.db, enrollment.id, next, ctx.now());
  return enrollmentJson(ctx, enrollmentById(ctx.db, enrollment.id)!);
};

export const enrollmentsHandlers = {
  'enrollments.listCourse': listCourse,
  'enrollments.listSection': listSection,
  'enrollments.listUser': listUser,
  'enrollments.enrollCourse': enrollCourse,
  'enrollments.enrollSection': enrollSection,
  'enrollments.end': end,
};

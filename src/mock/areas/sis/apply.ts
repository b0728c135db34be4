// Applies one row of an SIS import, as Canvas's importers do: what the row names is found by its
// SIS id (made when missing, changed when present); a row that cannot be applied throws a message,
// which the job records as a warning naming the file and row while the rest goes on.
import { lookup } from '../../db/find.js';
import type { Db } from '../../db/open.js';
import { SIS_ROLES, type SisKind } from '../../../spec/sis-csv.js';
import { accounts, builtInRole, createAccount, roleById, roleByName } from '../../school/accounts/repo.js';
import {
  courseById,
  courseIdTaken,
  courses,
  createCourse,
  deleteTermOverride,
  setTermOverrides,
  termBySis,
  termUndeletable,
  updateCourse,
} from '../../school/courses/repo.js';
import {
  createEnrollment,
  deleteEnrollmentsOfUser,
  existingEnrollment,
  setEnrollmentState,
} from '../../school/enrollments/repo.js';
import {
  createSection,
  defaultSectionOf,
  restoreSection,
  sections,
  updateSection,
} from '../../school/sections/repo.js';
import {
  addChannel,
  addLogin,
  createUser,
  deleteUser,
  primaryEmail,
  setSisLoginState,
  sisOfIntegrationId,
  sisOfLogin,
  updateSisLogin,
  updateUser,
  users,
} from '../../school/users/repo.js';
import { touchRecord, upsertTerm } from './repo.js';

export interface SisItem {
  kind: SisKind;
  file: string;
  line: number;
  values: Record<string, string>;
}

/** What a row did, for `data.counts` and statistics. */
export type Outcome = 'created' | 'updated' | 'deleted' | 'concluded' | 'deactivated' | 'unchanged';

export interface ApplyContext {
  db: Db;
  root: number;
  batch: number;
  now: string;
}

class RowWarning extends Error {}
const warn = (message: string): never => {
  throw new RowWarning(message);
};

const orNull = (v: string | undefined) => (v ? v : null);
/** A date of a row (sis_csv.md's ISO 8601, checked with the file), as the API gives times back. */
const timeOrNull = (v: string | undefined) => (v ? new Date(Date.parse(v)).toISOString() : null);

function found<T>(db: Db, spec: Parameters<typeof lookup<T>>[1], form: string, sis: string): T | undefined {
  const r = lookup(db, spec, `${form}:${sis}`, { withDeleted: true });
  return 'row' in r ? r.row : undefined;
}

export function applyItem(c: ApplyContext, item: SisItem): Outcome {
  switch (item.kind) {
    case 'account':
      return applyAccount(c, item.values);
    case 'term':
      return applyTerm(c, item.values);
    case 'course':
      return applyCourse(c, item.values);
    case 'section':
      return applySection(c, item.values);
    case 'user':
      return applyUser(c, item.values);
    case 'enrollment':
      return applyEnrollment(c, item.values);
  }
}

function applyAccount(c: ApplyContext, v: Record<string, string>): Outcome {
  const parent = v.parent_account_id ? found(c.db, accounts, 'sis_account_id', v.parent_account_id) : undefined;
  if (v.parent_account_id && !parent) warn(`Parent account didn't exist for ${v.account_id}`);
  const existing = found(c.db, accounts, 'sis_account_id', v.account_id);
  if (v.status.toLowerCase() === 'deleted') {
    if (!existing) warn(`account ${v.account_id} does not exist, so it cannot be deleted`);
    warn(`account ${v.account_id}: deleting accounts is not supported`);
  }
  if (existing) return 'unchanged';
  createAccount(c.db, { name: v.name, parent: parent?.id ?? c.root, sis: v.account_id });
  return 'created';
}

function applyTerm(c: ApplyContext, v: Record<string, string>): Outcome {
  const existing = termBySis(c.db, c.root, v.term_id);
  const type = v.date_override_enrollment_type;
  if (type) {
    if (!existing) return warn('Cannot set date override on non-existent term');
    if (v.status.toLowerCase() === 'deleted') deleteTermOverride(c.db, existing.id, type);
    else {
      const dates = { start_at: timeOrNull(v.start_date), end_at: timeOrNull(v.end_date) };
      setTermOverrides(c.db, existing.id, { [type]: dates });
    }
    return 'updated';
  }
  const why = existing && v.status.toLowerCase() === 'deleted' ? termUndeletable(c.db, existing) : undefined;
  if (why) warn(`term ${v.term_id}: ${why}`);
  return upsertTerm(c.db, {
    root: c.root,
    sis: v.term_id,
    name: v.name,
    state: v.status.toLowerCase() === 'deleted' ? 'deleted' : 'active',
    startAt: timeOrNull(v.start_date),
    endAt: timeOrNull(v.end_date),
    now: c.now,
  });
}

const COURSE_STATE: Record<string, string> = {
  published: 'available',
  completed: 'completed',
  deleted: 'deleted',
};

function applyCourse(c: ApplyContext, v: Record<string, string>): Outcome {
  const account = v.account_id ? found(c.db, accounts, 'sis_account_id', v.account_id) : undefined;
  if (v.account_id && !account) warn(`Account not found "${v.account_id}" for course ${v.course_id}`);
  const term = v.term_id ? termBySis(c.db, c.root, v.term_id) : undefined;
  if (v.term_id && !term) warn(`Term not found "${v.term_id}" for course ${v.course_id}`);
  const status = v.status.toLowerCase();
  const existing = found(c.db, courses, 'sis_course_id', v.course_id);
  if (v.integration_id && courseIdTaken(c.db, c.root, 'integration_id', v.integration_id, existing?.id))
    warn(`course ${v.course_id}: the integration_id ${v.integration_id} is already in use by another course`);
  let id: number;
  let outcome: Outcome;
  if (existing) {
    const state =
      COURSE_STATE[status] ??
      (['deleted', 'completed'].includes(existing.workflow_state) ? 'unpublished' : existing.workflow_state);
    updateCourse(c.db, existing.id, {
      name: v.long_name,
      course_code: v.short_name,
      sis_course_id: v.course_id,
      workflow_state: state,
      start_at: v.start_date || existing.start_at,
      end_at: v.end_date || existing.end_at,
      time_zone: existing.time_zone,
      enrollment_term_id: term?.id ?? existing.enrollment_term_id,
      integration_id: v.integration_id || existing.integration_id,
    });
    id = existing.id;
    outcome =
      state === existing.workflow_state
        ? 'updated'
        : state === 'deleted'
          ? 'deleted'
          : state === 'completed'
            ? 'concluded'
            : 'updated';
  } else {
    if (status === 'deleted') warn(`course ${v.course_id} does not exist, so it cannot be deleted`);
    id = createCourse(c.db, {
      account: account?.id ?? c.root,
      root: c.root,
      name: v.long_name,
      code: v.short_name,
      sis: v.course_id,
      state: COURSE_STATE[status] ?? 'unpublished',
      startAt: timeOrNull(v.start_date),
      endAt: timeOrNull(v.end_date),
      term: term?.id,
      integrationId: orNull(v.integration_id),
      now: c.now,
    });
    outcome = 'created';
  }
  touchRecord(c.db, { kind: 'course', id, course: id, term: term?.id ?? null, batch: c.batch });
  return outcome;
}

function applySection(c: ApplyContext, v: Record<string, string>): Outcome {
  const course = found(c.db, courses, 'sis_course_id', v.course_id);
  if (!course || course.workflow_state === 'deleted')
    warn(`Section ${v.section_id} references course ${v.course_id} which doesn't exist`);
  const existing = found(c.db, sections, 'sis_section_id', v.section_id);
  const deleted = v.status.toLowerCase() === 'deleted';
  let id: number;
  let outcome: Outcome;
  if (existing) {
    if (existing.course_id !== course!.id)
      warn(`section ${v.section_id} belongs to another course than ${v.course_id}; it was not moved`);
    updateSection(c.db, existing.id, {
      name: v.name,
      sis_section_id: v.section_id,
      start_at: v.start_date || existing.start_at,
      end_at: v.end_date || existing.end_at,
    });
    if (deleted) {
      restoreSection(c.db, existing.id, 'deleted');
      return 'deleted';
    }
    if (existing.workflow_state === 'deleted') restoreSection(c.db, existing.id, 'active');
    id = existing.id;
    outcome = 'updated';
  } else {
    if (deleted) warn(`section ${v.section_id} does not exist, so it cannot be deleted`);
    id = createSection(c.db, {
      course: course!.id,
      root: c.root,
      name: v.name,
      sis: v.section_id,
      startAt: timeOrNull(v.start_date),
      endAt: timeOrNull(v.end_date),
      now: c.now,
    });
    outcome = 'created';
  }
  touchRecord(c.db, { kind: 'section', id, course: course!.id, batch: c.batch });
  return outcome;
}

function nameOf(v: Record<string, string>): string {
  return v.full_name || [v.first_name, v.last_name].filter(Boolean).join(' ') || v.short_name || v.login_id;
}

function applyUser(c: ApplyContext, v: Record<string, string>): Outcome {
  const status = v.status.toLowerCase();
  const existing = found(c.db, users, 'sis_user_id', v.user_id);
  if (status === 'deleted') {
    if (!existing || existing.workflow_state === 'deleted')
      warn(`user ${v.user_id} does not exist, so it cannot be deleted`);
    deleteEnrollmentsOfUser(c.db, existing!.id, c.now);
    deleteUser(c.db, existing!.id, c.now);
    return 'deleted';
  }
  const name = nameOf(v);
  const sortable = v.sortable_name || (v.last_name && v.first_name ? `${v.last_name}, ${v.first_name}` : undefined);
  const live = existing && existing.workflow_state !== 'deleted';
  // As canvas-lms's user importer: a login name or integration id another user's login holds skips the row.
  const loginHolder = sisOfLogin(c.db, c.root, v.login_id);
  if (loginHolder !== undefined && !(live && loginHolder === v.user_id))
    warn(`user ${v.user_id}: the login ${v.login_id} is already taken by another user, skipping`);
  const integrationHolder = v.integration_id ? sisOfIntegrationId(c.db, c.root, v.integration_id) : undefined;
  if (integrationHolder !== undefined && !(live && integrationHolder === v.user_id))
    warn(`user ${v.user_id}: the integration_id ${v.integration_id} is already in use by another user, skipping`);
  if (live) {
    updateSisLogin(c.db, c.root, v.user_id, { uniqueId: v.login_id, integrationId: orNull(v.integration_id) });
    updateUser(
      c.db,
      existing.id,
      { name, short_name: v.short_name || existing.short_name, sortable_name: sortable || existing.sortable_name },
      c.now,
    );
    if (v.email && primaryEmail(c.db, existing.id) !== v.email)
      addChannel(c.db, { user: existing.id, type: 'email', address: v.email, confirmed: true });
    const suspended = setSisLoginState(c.db, c.root, v.user_id, status === 'suspended' ? 'suspended' : 'active');
    return suspended && status === 'suspended' ? 'deactivated' : 'updated';
  }
  const id = createUser(c.db, {
    name,
    shortName: v.short_name || undefined,
    sortableName: sortable,
    registered: true,
    now: c.now,
  });
  addLogin(c.db, {
    user: id,
    account: c.root,
    uniqueId: v.login_id,
    sis: v.user_id,
    integration: orNull(v.integration_id),
    provider: orNull(v.authentication_provider_id),
    password: v.password || null,
    now: c.now,
  });
  if (v.email) addChannel(c.db, { user: id, type: 'email', address: v.email, confirmed: true });
  if (status === 'suspended') setSisLoginState(c.db, c.root, v.user_id, 'suspended');
  return 'created';
}

const ENROLLMENT_STATE: Record<string, string> = {
  active: 'active',
  inactive: 'inactive',
  completed: 'completed',
  deleted: 'deleted',
  deleted_last_completed: 'deleted',
};

function applyEnrollment(c: ApplyContext, v: Record<string, string>): Outcome {
  const course = v.course_id ? found(c.db, courses, 'sis_course_id', v.course_id) : undefined;
  if (v.course_id && (!course || course.workflow_state === 'deleted'))
    warn(`Neither course nor section existed for user enrollment (Course ID: ${v.course_id}, User ID: ${v.user_id})`);
  let section = v.section_id ? found(c.db, sections, 'sis_section_id', v.section_id) : undefined;
  if (v.section_id && (!section || section.workflow_state === 'deleted'))
    warn(`An enrollment referenced a non-existent section ${v.section_id}`);
  if (course && section && section.course_id !== course.id)
    warn(`An enrollment listed a section (${v.section_id}) and a course (${v.course_id}) that are unrelated`);
  const courseRow = course ?? courseById(c.db, section!.course_id)!;
  section ??= defaultSectionOf(c.db, courseRow, c.now);
  const user = v.user_id ? found(c.db, users, 'sis_user_id', v.user_id) : undefined;
  if (!user || user.workflow_state === 'deleted')
    warn(`User not found for enrollment (User ID: ${v.user_id || v.user_integration_id}, Course ID: ${v.course_id})`);
  const role = v.role_id
    ? roleById(c.db, Number(v.role_id))
    : SIS_ROLES[v.role.toLowerCase()]
      ? builtInRole(c.db, SIS_ROLES[v.role.toLowerCase()]!)
      : roleByName(c.db, v.role, courseRow.account_id);
  if (!role || role.base_role_type === 'AccountMembership' || role.workflow_state !== 'active')
    warn(`Improper role "${v.role || v.role_id}" for an enrollment`);
  let associated: number | null = null;
  if (v.associated_user_id) {
    if (role!.base_role_type !== 'ObserverEnrollment') warn('associated_user_id is only for observer enrollments');
    const observee = found(c.db, users, 'sis_user_id', v.associated_user_id);
    if (!observee || observee.workflow_state === 'deleted')
      warn(`The associated user ${v.associated_user_id} of an observer enrollment was not found`);
    associated = observee!.id;
  }
  const state = ENROLLMENT_STATE[v.status.toLowerCase()]!;
  const existing = existingEnrollment(c.db, user!.id, section.id, role!.id, associated);
  let id: number;
  let outcome: Outcome;
  if (existing) {
    if (existing.workflow_state !== state) setEnrollmentState(c.db, existing.id, state, c.now);
    id = existing.id;
    outcome = existing.workflow_state === state ? 'unchanged' : stateOutcome(state);
  } else {
    if (state === 'deleted') warn(`enrollment of user ${v.user_id} does not exist, so it cannot be deleted`);
    id = createEnrollment(c.db, {
      user: user!.id,
      course: courseRow.id,
      section: section.id,
      root: c.root,
      type: role!.base_role_type,
      roleId: role!.id,
      state,
      limited: /^true$/i.test(v.limit_section_privileges ?? ''),
      associatedUser: associated,
      now: c.now,
    }).id;
    outcome = 'created';
  }
  touchRecord(c.db, { kind: 'enrollment', id, course: courseRow.id, batch: c.batch });
  return outcome;
}

function stateOutcome(state: string): Outcome {
  return state === 'deleted'
    ? 'deleted'
    : state === 'completed'
      ? 'concluded'
      : state === 'inactive'
        ? 'deactivated'
        : 'updated';
}

export const isRowWarning = (e: unknown): e is Error => e instanceof RowWarning;

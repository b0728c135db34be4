// Canvas's SIS import files (canvas-lms doc/api/sis_csv.md): which kind a file is, told by its
// header as the instance tells it (a file's name says nothing), the columns of each kind lms checks,
// which are required, the statuses a row may have, and the order an import applies the kinds in. The
// CLI's `sis import --dry-run` and the mock's SIS job both read this one description.
import { TERM_OVERRIDE_TYPES } from './vocabulary.js';

/**
 * Every kind of file the instance's SIS import reads, in the order it tries them on a header and
 * applies them (canvas-lms lib/sis/csv/import_refactored.rb IMPORTERS): a header is the first kind
 * whose columns it has, so the order decides (an admins.csv has user_id and account_id, and is no
 * enrollments.csv only because that needs course_id or section_id).
 */
const SIS_FILE_KINDS = [
  'change_sis_id',
  'account',
  'term',
  'abstract_course',
  'course',
  'section',
  'xlist',
  'user',
  'login',
  'enrollment',
  'admin',
  'group_category',
  'group',
  'group_membership',
  'differentiation_tag_set',
  'differentiation_tag',
  'differentiation_tag_membership',
  'grade_publishing_results',
  'user_observer',
] as const;
export type SisFileKind = (typeof SIS_FILE_KINDS)[number];

/** The kinds lms checks row by row (and the mock applies); the instance alone checks the others. */
export type SisKind = 'account' | 'term' | 'course' | 'section' | 'user' | 'enrollment';

/**
 * Each kind's usual file name (sis_csv.md's, as messages name the kind) and its `data.counts` key
 * (the importer's name made plural, as SisBatch counts it).
 */
export const SIS_KIND_FILES: Readonly<Record<SisFileKind, { file: string; count: string }>> = {
  change_sis_id: { file: 'change_sis_id.csv', count: 'change_sis_ids' },
  account: { file: 'accounts.csv', count: 'accounts' },
  term: { file: 'terms.csv', count: 'terms' },
  abstract_course: { file: 'abstract_courses.csv', count: 'abstract_courses' },
  course: { file: 'courses.csv', count: 'courses' },
  section: { file: 'sections.csv', count: 'sections' },
  xlist: { file: 'xlists.csv', count: 'xlists' },
  user: { file: 'users.csv', count: 'users' },
  login: { file: 'logins.csv', count: 'logins' },
  enrollment: { file: 'enrollments.csv', count: 'enrollments' },
  admin: { file: 'admins.csv', count: 'admins' },
  group_category: { file: 'group_categories.csv', count: 'group_categories' },
  group: { file: 'groups.csv', count: 'groups' },
  group_membership: { file: 'groups_membership.csv', count: 'group_memberships' },
  differentiation_tag_set: { file: 'differentiation_tag_sets.csv', count: 'differentiation_tag_sets' },
  differentiation_tag: { file: 'differentiation_tags.csv', count: 'differentiation_tags' },
  differentiation_tag_membership: {
    file: 'differentiation_tag_membership.csv',
    count: 'differentiation_tag_memberships',
  },
  grade_publishing_results: { file: 'grade_publishing_results.csv', count: 'grade_publishing_results' },
  user_observer: { file: 'user_observers.csv', count: 'user_observers' },
};

interface SisFile {
  columns: readonly string[];
  /** Columns every row fills; `anyOf` groups, one of which each row fills. */
  required: readonly string[];
  anyOf?: readonly (readonly string[])[];
  statuses: readonly string[];
}

/** The kinds lms checks, in the order an import applies them: what rows refer to exists before them. */
export const SIS_ORDER: readonly SisKind[] = ['account', 'term', 'course', 'section', 'user', 'enrollment'];

/** Whether lms checks a kind's rows itself (else they are the instance's to check). */
export const isCheckedKind = (kind: SisFileKind): kind is SisKind => (SIS_ORDER as readonly string[]).includes(kind);

export const SIS_FILES: Readonly<Record<SisKind, SisFile>> = {
  account: {
    columns: ['account_id', 'parent_account_id', 'name', 'status', 'integration_id'],
    required: ['account_id', 'name', 'status'],
    statuses: ['active', 'deleted'],
  },
  term: {
    columns: ['term_id', 'name', 'status', 'integration_id', 'date_override_enrollment_type', 'start_date', 'end_date'],
    required: ['term_id', 'name', 'status'],
    statuses: ['active', 'deleted'],
  },
  course: {
    columns: [
      'course_id',
      'short_name',
      'long_name',
      'account_id',
      'term_id',
      'integration_id',
      'status',
      'start_date',
      'end_date',
      'course_format',
      'blueprint_course_id',
      'grade_passback_setting',
      'homeroom_course',
      'friendly_name',
    ],
    required: ['course_id', 'short_name', 'long_name', 'status'],
    statuses: ['active', 'deleted', 'completed', 'published'],
  },
  section: {
    columns: ['section_id', 'course_id', 'name', 'status', 'integration_id', 'start_date', 'end_date'],
    required: ['section_id', 'course_id', 'name', 'status'],
    statuses: ['active', 'deleted'],
  },
  user: {
    columns: [
      'user_id',
      'integration_id',
      'login_id',
      'password',
      'ssha_password',
      'authentication_provider_id',
      'first_name',
      'last_name',
      'full_name',
      'sortable_name',
      'short_name',
      'email',
      'pronouns',
      'declared_user_type',
      'canvas_password_notification',
      'home_account',
      'status',
    ],
    required: ['user_id', 'login_id', 'status'],
    statuses: ['active', 'suspended', 'deleted'],
  },
  enrollment: {
    columns: [
      'course_id',
      'root_account',
      'start_date',
      'end_date',
      'user_id',
      'user_integration_id',
      'role',
      'role_id',
      'section_id',
      'status',
      'associated_user_id',
      'limit_section_privileges',
      'notify',
    ],
    required: ['status'],
    anyOf: [
      ['course_id', 'section_id'],
      ['user_id', 'user_integration_id'],
      ['role', 'role_id'],
    ],
    statuses: ['active', 'deleted', 'completed', 'inactive', 'deleted_last_completed'],
  },
};

/** The built-in roles an enrollments file names in its `role` column, and the type of each. */
export const SIS_ROLES: Readonly<Record<string, string>> = {
  student: 'StudentEnrollment',
  teacher: 'TeacherEnrollment',
  ta: 'TaEnrollment',
  designer: 'DesignerEnrollment',
  observer: 'ObserverEnrollment',
};

/** Statuses that delete, conclude, deactivate or suspend: an import holding one destroys. */
export const SIS_ENDING_STATUSES: readonly string[] = [
  'deleted',
  'completed',
  'inactive',
  'suspended',
  'deleted_last_completed',
];

/** The columns that name the user a logins.csv adds a login to. */
const EXISTING_USER = ['existing_user_id', 'existing_integration_id', 'existing_canvas_user_id'];

/** The columns that tell each kind, as the instance's `*_csv?` checks ask of a (lower-cased) header. */
const SNIFF: Readonly<Record<SisFileKind, (has: (c: string) => boolean) => boolean>> = {
  change_sis_id: (has) => has('old_id') || has('old_integration_id'),
  account: (has) => has('account_id') && has('parent_account_id'),
  // No course has a name column (it has short_name and long_name), so term_id and name are a term.
  term: (has) => has('term_id') && has('name'),
  abstract_course: (has) => has('abstract_course_id') && !has('course_id') && has('short_name'),
  course: (has) => has('course_id') && has('short_name'),
  // No enrollment has a name column.
  section: (has) => has('section_id') && has('name'),
  xlist: (has) => has('xlist_course_id') && has('section_id'),
  user: (has) => has('user_id') && has('login_id') && !EXISTING_USER.some(has),
  login: (has) => EXISTING_USER.some(has),
  enrollment: (has) => (has('section_id') || has('course_id')) && (has('user_id') || has('user_integration_id')),
  admin: (has) => has('account_id') && has('user_id'),
  group_category: (has) => has('group_category_id') && has('category_name'),
  group: (has) => has('group_id') && has('name'),
  group_membership: (has) => has('group_id') && has('user_id'),
  differentiation_tag_set: (has) => has('tag_set_id') && has('set_name'),
  differentiation_tag: (has) => has('tag_id') && has('name'),
  differentiation_tag_membership: (has) => has('tag_id') && has('user_id'),
  grade_publishing_results: (has) => has('enrollment_id') && has('grade_publishing_status'),
  user_observer: (has) => has('observer_id') && has('student_id'),
};

/**
 * The kind of a file, from its header (trimmed, lower-cased) as the instance reads it: the first
 * kind in the instance's order whose columns it has; undefined when it is none of them.
 */
export function sisKindOf(header: readonly string[]): SisFileKind | undefined {
  const has = (c: string) => header.includes(c);
  return SIS_FILE_KINDS.find((kind) => SNIFF[kind](has));
}

/**
 * What is wrong with a file's header for its kind: missing columns; unknown ones are ignored, as the instance ignores
 * them.
 */
export function sisHeaderProblems(kind: SisKind, header: readonly string[]): string[] {
  const spec = SIS_FILES[kind];
  const missing = spec.required.filter((c) => !header.includes(c));
  const groups = (spec.anyOf ?? []).filter((g) => !g.some((c) => header.includes(c)));
  return [
    ...(missing.length ? [`missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`] : []),
    ...groups.map((g) => `needs a column ${g.join(' or ')}`),
  ];
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** What is wrong with one row by itself (references to other rows are the importer's to check). */
export function sisRowProblems(kind: SisKind, values: Readonly<Record<string, string>>): string[] {
  const spec = SIS_FILES[kind];
  const problems: string[] = [];
  // A term's row of dates for one enrollment type names nothing else of the term (sis_csv.md).
  const override = kind === 'term' ? values.date_override_enrollment_type : undefined;
  for (const c of spec.required) if (!values[c] && !(override && c === 'name')) problems.push(`${c} is empty`);
  if (override && !(TERM_OVERRIDE_TYPES as readonly string[]).includes(override))
    problems.push(`date_override_enrollment_type "${override}" is not one of ${TERM_OVERRIDE_TYPES.join(', ')}`);
  for (const g of spec.anyOf ?? []) if (!g.some((c) => values[c])) problems.push(`give ${g.join(' or ')}`);
  const status = values.status?.toLowerCase();
  if (status && !spec.statuses.includes(status))
    problems.push(`status "${values.status}" is not one of ${spec.statuses.join(', ')}`);
  for (const c of ['start_date', 'end_date'])
    if (values[c] && !DATE.test(values[c])) problems.push(`${c} "${values[c]}" is not an ISO 8601 date`);
  if (kind === 'enrollment' && values.role_id && !/^\d+$/.test(values.role_id))
    problems.push(`role_id "${values.role_id}" is not a number`);
  if (
    kind === 'enrollment' &&
    values.limit_section_privileges &&
    !/^(true|false)$/i.test(values.limit_section_privileges)
  )
    problems.push(`limit_section_privileges "${values.limit_section_privileges}" is not true or false`);
  if (kind === 'user' && !values.full_name && !values.first_name && !values.last_name && !values.short_name)
    problems.push('give full_name, or first_name and last_name');
  return problems;
}

/** The key that names a row's object across imports (diffing and batch mode compare by it). */
export function sisRowKey(kind: SisKind, v: Readonly<Record<string, string>>): string {
  switch (kind) {
    case 'account':
      return v.account_id ?? '';
    case 'term':
      return v.date_override_enrollment_type ? `${v.term_id}|${v.date_override_enrollment_type}` : (v.term_id ?? '');
    case 'course':
      return v.course_id ?? '';
    case 'section':
      return v.section_id ?? '';
    case 'user':
      return v.user_id ?? '';
    case 'enrollment':
      return [v.course_id, v.section_id, v.user_id || v.user_integration_id, v.role || v.role_id, v.associated_user_id]
        .map((x) => x ?? '')
        .join('|');
  }
}

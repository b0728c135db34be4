// Canvas's SIS import files (canvas-lms doc/api/sis_csv.md): which kind a file is, told by its
// header as the instance tells it (a file's name says nothing), the columns of each kind, which are
// required, the statuses a row may have, and the order an import applies the kinds in. The CLI's
// `sis import --dry-run` and the mock's SIS job both read this one description.
import { TERM_OVERRIDE_TYPES } from './vocabulary.js';

export type SisKind = 'account' | 'term' | 'course' | 'section' | 'user' | 'enrollment';

interface SisFile {
  /** The file's usual name, as messages and `supplied_batches` name the kind. */
  file: string;
  /** The `data.counts` key of the kind. */
  count: 'accounts' | 'terms' | 'courses' | 'sections' | 'users' | 'enrollments';
  columns: readonly string[];
  /** Columns every row fills; `anyOf` groups, one of which each row fills. */
  required: readonly string[];
  anyOf?: readonly (readonly string[])[];
  statuses: readonly string[];
}

/** The kinds in the order an import applies them: what rows refer to exists before them. */
export const SIS_ORDER: readonly SisKind[] = ['account', 'term', 'course', 'section', 'user', 'enrollment'];

export const SIS_FILES: Readonly<Record<SisKind, SisFile>> = {
  account: {
    file: 'accounts.csv',
    count: 'accounts',
    columns: ['account_id', 'parent_account_id', 'name', 'status', 'integration_id'],
    required: ['account_id', 'name', 'status'],
    statuses: ['active', 'deleted'],
  },
  term: {
    file: 'terms.csv',
    count: 'terms',
    columns: ['term_id', 'name', 'status', 'integration_id', 'date_override_enrollment_type', 'start_date', 'end_date'],
    required: ['term_id', 'name', 'status'],
    statuses: ['active', 'deleted'],
  },
  course: {
    file: 'courses.csv',
    count: 'courses',
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
    file: 'sections.csv',
    count: 'sections',
    columns: ['section_id', 'course_id', 'name', 'status', 'integration_id', 'start_date', 'end_date'],
    required: ['section_id', 'course_id', 'name', 'status'],
    statuses: ['active', 'deleted'],
  },
  user: {
    file: 'users.csv',
    count: 'users',
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
    file: 'enrollments.csv',
    count: 'enrollments',
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

/**
 * The kind of a file, from its header (trimmed, lower-cased) as the instance reads it; undefined
 * when it is none of them.
 */
export function sisKindOf(header: readonly string[]): SisKind | undefined {
  const has = (c: string) => header.includes(c);
  if (has('account_id') && has('parent_account_id')) return 'account';
  if (has('section_id') && has('name') && has('course_id') && !has('user_id')) return 'section';
  if (has('course_id') && has('short_name') && has('long_name')) return 'course';
  if (has('term_id') && has('name') && !has('course_id')) return 'term';
  if ((has('role') || has('role_id')) && (has('user_id') || has('user_integration_id'))) return 'enrollment';
  if (has('user_id') && has('login_id')) return 'user';
  return undefined;
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

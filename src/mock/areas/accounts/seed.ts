// The instance's accounts and roles. Built-in roles exist on every instance (a reset keeps them);
// the seeded school adds a custom account role and a custom course role.
import type { Permission } from '../permissions.js';
import { ALL } from '../permissions.js';
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { ACCOUNT_MEMBERSHIP, createAccount, createRole } from '../../school/accounts/repo.js';

const STUDENT: Permission[] = ['read_roster', 'read_course_content', 'post_to_forum', 'send_messages'];
const TEACHER: Permission[] = [
  'read_roster',
  'read_course_content',
  'read_sis',
  'manage_students',
  'manage_admin_users',
  'manage_sections',
  'manage_grades',
  'view_all_grades',
  'manage_content',
  'moderate_forum',
  'post_to_forum',
  'create_announcement',
  'send_messages',
  'send_messages_all',
  'manage_outcomes',
];
const TA: Permission[] = [
  'read_roster',
  'read_course_content',
  'manage_students',
  'manage_grades',
  'view_all_grades',
  'manage_content',
  'moderate_forum',
  'post_to_forum',
  'create_announcement',
  'send_messages',
  'send_messages_all',
];
const DESIGNER: Permission[] = [
  'read_roster',
  'read_course_content',
  'manage_content',
  'moderate_forum',
  'post_to_forum',
  'create_announcement',
  'manage_outcomes',
];
// Students and observers message people and groups, never the whole class (send_messages_all).
// Observers message only their students' instructors (and their students).
const OBSERVER: Permission[] = ['read_course_content'];

/** Built-in roles, with ids that docs and tests can name. */
export const BUILT_IN_ROLES = [
  { id: 1, name: 'AccountAdmin', label: 'Account Admin', base: ACCOUNT_MEMBERSHIP, permissions: [ALL] },
  { id: 2, name: 'StudentEnrollment', label: 'Student', base: 'StudentEnrollment', permissions: STUDENT },
  { id: 3, name: 'TeacherEnrollment', label: 'Teacher', base: 'TeacherEnrollment', permissions: TEACHER },
  { id: 4, name: 'TaEnrollment', label: 'TA', base: 'TaEnrollment', permissions: TA },
  { id: 5, name: 'DesignerEnrollment', label: 'Designer', base: 'DesignerEnrollment', permissions: DESIGNER },
  { id: 6, name: 'ObserverEnrollment', label: 'Observer', base: 'ObserverEnrollment', permissions: OBSERVER },
] as const;

/** Custom roles of the seeded school, on its root account. */
export const SEED_ROLES = {
  /** May look after users, but not touch SIS ids or act as another user. */
  helpdesk: {
    id: 7,
    name: 'Helpdesk',
    base: ACCOUNT_MEMBERSHIP,
    permissions: ['read_roster', 'manage_user_logins', 'view_statistics', 'read_course_list'] as Permission[],
  },
  /** A TA who grades and reads the roster, and nothing else. */
  grader: {
    id: 8,
    name: 'Grader',
    base: 'TaEnrollment',
    permissions: ['read_roster', 'read_course_content', 'manage_grades', 'view_all_grades'] as Permission[],
  },
};

export function seedAccounts(db: Db, options: SeedOptions): void {
  createAccount(db, { id: 1, name: 'Mock State University', sis: 'MSU' });
  for (const role of BUILT_IN_ROLES) createRole(db, role);
  if (options.minimal) return;
  createAccount(db, { id: 2, name: 'School of Science', parent: 1, sis: 'MSU-SCI' });
  createAccount(db, { id: 3, name: 'School of Humanities', parent: 1, sis: 'MSU-HUM' });
  createAccount(db, { id: 4, name: 'Riverside Community College', sis: 'RCC' });
  for (const role of Object.values(SEED_ROLES)) createRole(db, { ...role, account: 1 });
}

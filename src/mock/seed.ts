// A small, realistic school with known tokens: what `lms mock seed` creates and a fresh mock
// database starts from. Ids are stable, so docs and tests can name them.
import { sortableFrom } from './areas/users.js';
import type { Db } from './db/open.js';

export const SEED_EPOCH = '2026-08-24T08:00:00.000Z';

/** Roles of account admins. AccountAdmin holds every permission; Helpdesk may not touch SIS ids or masquerade. */
const roles = [
  { name: 'AccountAdmin', base: 'AccountMembership', permissions: ['*'] },
  { name: 'Helpdesk', base: 'AccountMembership', permissions: ['read_roster', 'manage_user_logins', 'view_statistics', 'read_course_list'] },
];

interface SeedUser {
  id: number;
  name: string;
  login: string;
  role: string;
  sis?: string;
  publicProfile?: boolean;
  timeZone?: string;
}

export const seedUsers: SeedUser[] = [
  { id: 1, name: 'Ada Admin', login: 'admin', role: 'admin', sis: 'ADM-001', timeZone: 'America/Denver' },
  { id: 2, name: 'Hal Helpdesk', login: 'helpdesk', role: 'helpdesk', sis: 'ADM-002' },
  { id: 3, name: 'Tess Teacher', login: 'tteacher', role: 'teacher', sis: 'T-003', timeZone: 'America/New_York' },
  { id: 4, name: 'Theo Teacher', login: 'theo', role: 'teacher', sis: 'T-004' },
  { id: 5, name: 'Tara Assistant', login: 'tara', role: 'ta', sis: 'T-005' },
  { id: 6, name: 'Dev Designer', login: 'designer', role: 'designer', sis: 'D-006' },
  { id: 7, name: 'Sam Student', login: 'sam', role: 'student', sis: 'S-007' },
  { id: 8, name: 'Sofia Student', login: 'sofia', role: 'student', sis: 'S-008' },
  { id: 9, name: 'Ravi Patel', login: 'ravi', role: 'student', sis: 'S-009' },
  { id: 10, name: 'Mina Okafor', login: 'mina', role: 'student', sis: 'S-010', publicProfile: false },
  { id: 11, name: 'Lucas Moreau', login: 'lucas', role: 'student', sis: 'S-011' },
  { id: 12, name: 'Hana Sato', login: 'hana', role: 'student', sis: 'S-012' },
  { id: 13, name: 'Olive Observer', login: 'olive', role: 'observer', sis: 'O-013' },
];

/** The token of a seeded user: `<id>~mock-<login>`. */
export const seedToken = (u: { id: number; login: string }) => `${u.id}~mock-${u.login}`;

/** The whole school, or with `minimal` only the root account and its admin (what `lms mock reset` leaves). */
export function seed(db: Db, options: { minimal?: boolean } = {}): void {
  const now = SEED_EPOCH;
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).run(...args);

  run(`INSERT INTO meta (key, value) VALUES ('seeded_at', ?)`, now);
  // Every seed and reset is a new instance: bulk journals written against the old one no longer apply.
  run(`INSERT INTO meta (key, value) VALUES ('instance_id', ?)`, process.getBuiltinModule('node:crypto').randomUUID());
  for (const r of roles) run(`INSERT INTO roles (name, base_role_type, permissions) VALUES (?, ?, ?)`, r.name, r.base, JSON.stringify(r.permissions));

  run(`INSERT INTO accounts (id, name, parent_account_id, root_account_id, sis_account_id) VALUES (1, 'Mock State University', NULL, NULL, 'MSU')`);
  run(`INSERT INTO accounts (id, name, parent_account_id, root_account_id, sis_account_id) VALUES (2, 'School of Science', 1, 1, 'MSU-SCI')`);
  run(`INSERT INTO accounts (id, name, parent_account_id, root_account_id, sis_account_id) VALUES (3, 'School of Humanities', 1, 1, 'MSU-HUM')`);
  run(`INSERT INTO accounts (id, name, parent_account_id, root_account_id, sis_account_id) VALUES (4, 'Riverside Community College', NULL, NULL, 'RCC')`);

  const users = options.minimal ? seedUsers.slice(0, 1) : seedUsers;
  for (const u of users) {
    const first = u.name.split(' ')[0];
    run(
      `INSERT INTO users (id, name, short_name, sortable_name, time_zone, locale, public_profile, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'en', ?, ?, ?)`,
      u.id, u.name, first, sortableFrom(u.name), u.timeZone ?? 'America/Chicago', u.publicProfile === false ? 0 : 1, now, now,
    );
    run(`INSERT INTO pseudonyms (user_id, account_id, unique_id, sis_user_id, password, created_at) VALUES (?, 1, ?, ?, 'password', ?)`, u.id, u.login, u.sis ?? null, now);
    run(`INSERT INTO communication_channels (user_id, type, address, position, workflow_state) VALUES (?, 'email', ?, 1, 'active')`, u.id, `${u.login}@example.edu`);
    run(`INSERT INTO access_tokens (token, user_id, purpose, created_at) VALUES (?, ?, ?, ?)`, seedToken(u), u.id, u.role, now);
  }
  run(`INSERT INTO account_users (account_id, user_id, role, created_at) VALUES (1, 1, 'AccountAdmin', ?)`, now);
  if (options.minimal) return;
  run(`INSERT INTO account_users (account_id, user_id, role, created_at) VALUES (1, 2, 'Helpdesk', ?)`, now);

  const courses = [
    { id: 1, account: 2, name: 'Introduction to Biology', code: 'BIO-101', sis: 'BIO-101' },
    { id: 2, account: 2, name: 'Organic Chemistry', code: 'CHEM-201', sis: 'CHEM-201' },
    { id: 3, account: 3, name: 'World History', code: 'HIST-110', sis: 'HIST-110' },
    { id: 4, account: 4, name: 'College Writing', code: 'ENG-100', sis: 'RCC-ENG-100' },
  ];
  for (const c of courses) {
    const root = c.account === 4 ? 4 : 1;
    run(
      `INSERT INTO courses (id, account_id, root_account_id, name, course_code, sis_course_id, start_at, end_at, created_at) VALUES (?, ?, ?, ?, ?, ?, '2026-08-24T00:00:00Z', '2026-12-18T00:00:00Z', ?)`,
      c.id, c.account, root, c.name, c.code, c.sis, now,
    );
  }

  // Sections: two in BIO-101, one default section in each other course.
  const sections = [
    { id: 1, course: 1, name: 'BIO-101 Section A', sis: 'BIO-101-A', isDefault: 1 },
    { id: 2, course: 1, name: 'BIO-101 Section B', sis: 'BIO-101-B', isDefault: 0 },
    { id: 3, course: 2, name: 'CHEM-201', sis: 'CHEM-201-01', isDefault: 1 },
    { id: 4, course: 3, name: 'HIST-110', sis: 'HIST-110-01', isDefault: 1 },
    { id: 5, course: 4, name: 'ENG-100', sis: 'RCC-ENG-100-01', isDefault: 1 },
  ];
  for (const s of sections) {
    const root = s.course === 4 ? 4 : 1;
    run(
      `INSERT INTO course_sections (id, course_id, root_account_id, name, sis_section_id, default_section, start_at, end_at, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?)`,
      s.id, s.course, root, s.name, s.sis, s.isDefault, now,
    );
  }

  const enroll = (user: number, course: number, section: number, type: string, associated: number | null = null) =>
    run(
      `INSERT INTO enrollments (user_id, course_id, course_section_id, root_account_id, type, role, workflow_state, associated_user_id, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, 'active', ?, ?, ?)`,
      user, course, section, type, type, associated, now, now,
    );
  enroll(3, 1, 1, 'TeacherEnrollment');
  enroll(3, 2, 3, 'TeacherEnrollment');
  enroll(4, 3, 4, 'TeacherEnrollment');
  enroll(5, 1, 1, 'TaEnrollment');
  enroll(6, 1, 1, 'DesignerEnrollment');
  for (const [student, section] of [[7, 1], [8, 1], [9, 2], [10, 2], [11, 1], [12, 2]]) enroll(student, 1, section, 'StudentEnrollment');
  for (const student of [7, 8, 9]) enroll(student, 2, 3, 'StudentEnrollment');
  for (const student of [10, 11, 12]) enroll(student, 3, 4, 'StudentEnrollment');
  enroll(13, 1, 1, 'ObserverEnrollment', 7);

  const assignments = [
    { course: 1, name: 'Cell Structure Lab Report', points: 20, type: 'points', sub: ['online_upload', 'online_text_entry'], due: '2026-09-14T23:59:00Z' },
    { course: 1, name: 'Microscope Safety Quiz', points: 10, type: 'pass_fail', sub: ['online_text_entry'], due: '2026-09-07T23:59:00Z' },
    { course: 1, name: 'Genetics Essay', points: 100, type: 'letter_grade', sub: ['online_text_entry', 'online_url'], due: '2026-10-19T23:59:00Z' },
    { course: 2, name: 'Reaction Mechanisms Problem Set', points: 50, type: 'points', sub: ['online_upload'], due: '2026-09-21T23:59:00Z' },
    { course: 3, name: 'Primary Source Analysis', points: 100, type: 'percent', sub: ['online_text_entry'], due: '2026-09-28T23:59:00Z' },
  ];
  assignments.forEach((a, i) =>
    run(
      `INSERT INTO assignments (id, course_id, name, description, points_possible, grading_type, submission_types, due_at, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      i + 1, a.course, a.name, `<p>${a.name}</p>`, a.points, a.type, JSON.stringify(a.sub), a.due, i + 1, now, now,
    ),
  );

  run(`INSERT INTO groups (id, course_id, name, description, created_at) VALUES (1, 1, 'Lab Group 1', 'Bench 1 and 2', ?)`, now);
  run(`INSERT INTO groups (id, course_id, name, description, created_at) VALUES (2, 1, 'Lab Group 2', 'Bench 3 and 4', ?)`, now);
  for (const [group, user] of [[1, 7], [1, 8], [1, 11], [2, 9], [2, 10], [2, 12]]) run(`INSERT INTO group_memberships (group_id, user_id) VALUES (?, ?)`, group, user);
}

// The roster: every enrollment type and state, a TA limited to a section, a custom course role, an
// observer linked to a student, and students of a cross-listed section.
import type { Db } from '../../db/open.js';
import { builtInRole, roleByName } from '../../school/accounts/repo.js';
import { SEED_ROLES } from '../accounts/seed.js';
import type { SeedOptions } from '../../area.js';
import { sectionById } from '../../school/sections/repo.js';
import { createEnrollment } from '../../school/enrollments/repo.js';

export function seedEnrollments(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const enroll = (
    user: number,
    section: number,
    type: string,
    o: { state?: string; associated?: number; limited?: boolean; role?: string } = {},
  ) => {
    const { course_id: course, root_account_id: root } = sectionById(db, section)!;
    const roleId = (o.role ? roleByName(db, o.role, 1) : builtInRole(db, type))!.id;
    createEnrollment(db, {
      user,
      course,
      section,
      root,
      type,
      roleId,
      state: o.state ?? 'active',
      associatedUser: o.associated ?? null,
      limited: o.limited,
      now,
    });
  };
  // BIO-101 (sections 1 and 2, and 7 cross-listed from the lab course)
  enroll(3, 1, 'TeacherEnrollment');
  enroll(5, 1, 'TaEnrollment', { limited: true });
  enroll(6, 1, 'DesignerEnrollment');
  for (const [student, section] of [
    [7, 1],
    [8, 1],
    [9, 2],
    [10, 2],
    [11, 1],
    [12, 2],
  ])
    enroll(student, section, 'StudentEnrollment');
  enroll(13, 1, 'ObserverEnrollment', { associated: 7 });
  // CHEM-201: an invited, a completed and an inactive student beside the active ones
  enroll(3, 3, 'TeacherEnrollment');
  for (const student of [7, 8, 9]) enroll(student, 3, 'StudentEnrollment');
  enroll(11, 3, 'StudentEnrollment', { state: 'invited' });
  enroll(12, 3, 'StudentEnrollment', { state: 'completed' });
  enroll(10, 3, 'StudentEnrollment', { state: 'inactive' });
  // HIST-110
  enroll(4, 4, 'TeacherEnrollment');
  for (const student of [10, 11, 12]) enroll(student, 4, 'StudentEnrollment');
  // The lab course and its cross-listed online section
  enroll(3, 6, 'TeacherEnrollment');
  enroll(4, 6, 'TaEnrollment', { role: SEED_ROLES.grader.name });
  for (const student of [8, 9]) enroll(student, 7, 'StudentEnrollment');
}

import type { Db } from '../../db/open.js';
import { builtInRole } from '../accounts/repo.js';
import type { SeedOptions } from '../area.js';
import { createEnrollment } from './repo.js';

export function seedEnrollments(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const enroll = (user: number, course: number, section: number, type: string, associatedUser: number | null = null) =>
    createEnrollment(db, { user, course, section, root: 1, type, roleId: builtInRole(db, type).id, state: 'active', associatedUser, now });
  enroll(3, 1, 1, 'TeacherEnrollment');
  enroll(3, 2, 3, 'TeacherEnrollment');
  enroll(4, 3, 4, 'TeacherEnrollment');
  enroll(5, 1, 1, 'TaEnrollment');
  enroll(6, 1, 1, 'DesignerEnrollment');
  for (const [student, section] of [[7, 1], [8, 1], [9, 2], [10, 2], [11, 1], [12, 2]]) enroll(student, 1, section, 'StudentEnrollment');
  for (const student of [7, 8, 9]) enroll(student, 2, 3, 'StudentEnrollment');
  for (const student of [10, 11, 12]) enroll(student, 3, 4, 'StudentEnrollment');
  enroll(13, 1, 1, 'ObserverEnrollment', 7);
}

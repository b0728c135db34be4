// Who may read a root account's terms (canvas-lms's :read_terms): an admin of it or of an account
// below it, or a teacher or TA of one of its courses, whom no permission row names.
import type { Db } from '../../db/open.js';
import { courseById } from '../../school/courses/repo.js';
import { coursesWhereUserIs } from '../../school/enrollments/repo.js';
import { READ_SIS, administersUnder, type Rule } from '../permissions.js';

export const termsPolicy = {
  /** The terms' SIS ids. */
  readSis: READ_SIS,
} as const satisfies Record<string, Rule>;

export function mayReadTerms(db: Db, userId: number, rootId: number): boolean {
  if (administersUnder(db, userId, rootId)) return true;
  const teaches = coursesWhereUserIs(db, userId, ['TeacherEnrollment', 'TaEnrollment']);
  return teaches.some((id) => courseById(db, id)?.root_account_id === rootId);
}

// Who may read a root account's terms (canvas-lms's :read_terms): an admin of it or of an account
// below it, or a teacher or TA of one of its courses, whom no permission row names. Changing them
// is managing the root account's settings.
import type { Db } from '../../db/open.js';
import { courseById } from '../../school/courses/repo.js';
import { coursesWhereUserIs } from '../../school/enrollments/repo.js';
import { READ_SIS, administersUnder, type Rule } from '../permissions.js';

export const termsPolicy = {
  /** The terms' SIS ids. */
  readSis: READ_SIS,
  /** Making, changing and deleting terms (terms_controller.rb's require_root_account_management). */
  manage: ['manage_account_settings'],
  /** Giving a term a SIS id. */
  setSis: ['manage_sis'],
} as const satisfies Record<string, Rule>;

export function mayReadTerms(db: Db, userId: number, rootId: number): boolean {
  if (administersUnder(db, userId, rootId)) return true;
  const teaches = coursesWhereUserIs(db, userId, ['TeacherEnrollment', 'TaEnrollment']);
  return teaches.some((id) => courseById(db, id)?.root_account_id === rootId);
}

// Who may do what with a course's pages. Those who manage the course's content (teachers, TAs,
// designers, admins above the course) read every page and write them all; every other reader of
// the course sees published pages only. A page's `editing_roles` lets more people change its
// content (`maySaveContent`): its students with `students`, every member with `members` or
// `public` (a course's pages have no public editors here: the mock has no anonymous callers).
import { activeCourseRoles } from '../../school/enrollments/repo.js';
import type { Db } from '../../db/open.js';

/** May this member edit a published page's content through its editing roles (not as a manager)? */
export function editsThroughRoles(db: Db, userId: number, courseId: number, editingRoles: string): boolean {
  const roles = editingRoles.split(',').map((r) => r.trim());
  const held = activeCourseRoles(db, userId, courseId);
  if (held.length === 0) return false;
  if (roles.includes('members') || roles.includes('public')) return true;
  return roles.includes('students') && held.some((r) => r.type === 'StudentEnrollment');
}

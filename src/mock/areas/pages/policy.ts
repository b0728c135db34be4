// Who may do what with a course's pages. Those who manage the course's content (teachers, TAs,
// designers, admins above the course) read every page and write them all; every other reader of
// the course sees published pages only, and is refused (401) an unpublished one it names: Canvas
// finds the page before it asks whether the caller may read it. A page's `editing_roles` lets more people change its
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

/**
 * May the caller read this page (WikiPage#can_read_page?): a published one, or an unpublished one
 * for those who may see unpublished items, who here are those who manage the course's content.
 */
export function readsPage(page: { workflow_state: string }, managesContent: boolean): boolean {
  return page.workflow_state === 'active' || managesContent;
}

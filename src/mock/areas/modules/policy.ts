// Who may do what with a course's modules, as data. Reading them is reading the course
// (access.ts's `readableCourse`); creating, changing, publishing and seeing unpublished ones is
// managing the course's content (`canManageContent`). The questions a row alone cannot say:
import type { MockCtx } from '../../kit.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { isActiveStudentOf } from '../submissions/repo.js';
import { mayView } from '../submissions/policy.js';

/**
 * May the caller read a student's progress (`student_id`)? Whoever may read that student's grades
 * there: the student, their observer, their graders (a section-limited one in the student's
 * section), admins above the course. The student must be an active student of the course.
 */
export function mayReadProgressOf(ctx: MockCtx, course: CourseRow, studentId: number): boolean {
  return isActiveStudentOf(ctx.db, studentId, course.id) && mayView(ctx, course, studentId);
}

/** Does the caller take part as a student (so the answers carry their own progress)? */
export function participatesAsStudent(ctx: MockCtx, course: CourseRow): boolean {
  return isActiveStudentOf(ctx.db, ctx.caller.id, course.id);
}

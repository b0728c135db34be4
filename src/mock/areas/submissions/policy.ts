// Who may do what with a course's submissions, as data: each action and the course permissions any
// one of which allows it, and whose submissions a caller sees. The handlers ask a row through
// access.ts (`allows`, `demand`, `reachOf`) or ask `visibility`, `mayView`, `mayGrade` and
// `maySubmit` here; none of them writes the rule for itself. Reading a course's submissions at all
// is reading the course (permissions.ts's `canReadCourse`).
import type { MockCtx } from '../../kit.js';
import { allows } from '../access.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { observeesIn, sectionsOfUserInCourse } from '../../school/enrollments/repo.js';
import { reachIn, type Rule } from '../permissions.js';
import { isActiveStudentOf } from './repo.js';

export const submissionsPolicy = {
  /**
   * Every student's submission of an assignment (`…/assignments/:id/submissions`): those who grade
   * or view all grades, as real instances rule (a student or an observer is refused, and lists
   * their own or their student's through `…/students/submissions`).
   */
  listAssignment: ['manage_grades', 'view_all_grades'],
  /** Grading a student, asked of the student's sections; also a course's grading history and bulk grading. */
  grade: ['manage_grades'],
  /** Reading every student's grades without changing them (with `grade`, what a caller sees). */
  viewAll: ['view_all_grades'],
} as const satisfies Record<string, Rule>;

/**
 * Whose submissions the caller may read in a course: everyone's (or some sections') for those who
 * view or manage grades; their own for a student; their students' for an observer.
 */
export type Visibility = { sections: 'all' | number[]; users?: undefined } | { sections?: undefined; users: number[] };

export function visibility(ctx: MockCtx, course: CourseRow): Visibility {
  const view = reachIn(ctx.db, ctx.caller.id, submissionsPolicy.viewAll, course);
  const manage = reachIn(ctx.db, ctx.caller.id, submissionsPolicy.grade, course);
  if (view === 'all' || manage === 'all') return { sections: 'all' };
  const sections = [...new Set([...view, ...manage])];
  if (sections.length) return { sections };
  return { users: [ctx.caller.id, ...observeesIn(ctx.db, ctx.caller.id, course.id)] };
}

export function mayGrade(ctx: MockCtx, course: CourseRow, studentId: number): boolean {
  return allows(ctx, submissionsPolicy.grade, {
    course,
    sections: sectionsOfUserInCourse(ctx.db, studentId, course.id),
  });
}

export function mayView(ctx: MockCtx, course: CourseRow, studentId: number): boolean {
  const v = visibility(ctx, course);
  if (v.users) return v.users.includes(studentId);
  if (v.sections === 'all') return true;
  const theirs = sectionsOfUserInCourse(ctx.db, studentId, course.id);
  return theirs.some((s) => (v.sections as number[]).includes(s));
}

/** Submitting: only an active student of the course (of the route's section, on a section's route), for themselves. */
export function maySubmit(ctx: MockCtx, course: CourseRow, section?: { id: number }): boolean {
  return isActiveStudentOf(ctx.db, ctx.caller.id, course.id, section ? [section.id] : undefined);
}

/** Commenting without grading: the student on their own submission, or a grader of theirs. */
export function mayComment(ctx: MockCtx, course: CourseRow, studentId: number): boolean {
  return studentId === ctx.caller.id || mayGrade(ctx, course, studentId);
}

/** Uploading a file to submit: only the submitting student, for themselves (a grader does not submit for them). */
export function mayUploadFor(ctx: MockCtx, studentId: number): boolean {
  return studentId === ctx.caller.id;
}

// Where a submissions request reads: the course or section in its path, the assignment and student it
// names, and the includes it asks for.
import type { SubmissionInclude } from '../../../spec/types/submissions.js';
import { list, notFound, numericId, type MockCtx } from '../../kit.js';
import { findUser } from '../lookup.js';
import { assignmentById, type AssignmentRow } from '../assignments/repo.js';
import { canManageContent, permit } from '../access.js';
import { canReadCourse } from '../permissions.js';
import { courseById, type CourseRow } from '../../school/courses/repo.js';
import { sectionById, type SectionRow } from '../../school/sections/repo.js';
import { isStudentOf } from './repo.js';

const INCLUDES: readonly SubmissionInclude[] = [
  'submission_history',
  'submission_comments',
  'rubric_assessment',
  'assignment',
  'user',
  'total_scores',
];

export function includes(ctx: MockCtx): SubmissionInclude[] {
  return list(ctx.params, 'include')
    .map(String)
    .filter((i): i is SubmissionInclude => (INCLUDES as readonly string[]).includes(i));
}

/** The course of the route's context, and the section when the route is a section's. */
/**
 * The route's course (and section), which the caller must be able to read: a stranger to the course sees none of its
 * submissions, not an empty list.
 */
export function scope(ctx: MockCtx): { course: CourseRow; section?: SectionRow } {
  const c = ctx.context!;
  const section = c.type === 'section' ? sectionById(ctx.db, c.id)! : undefined;
  const course = courseById(ctx.db, section ? section.course_id : c.id!)!;
  permit(canReadCourse(ctx.db, ctx.caller.id, course));
  return { course, section };
}

/** The sections a list is limited to: the route's section, and the caller's reach. */
export function sectionsFor(scoped: { section?: SectionRow }, reach: 'all' | number[]): number[] | undefined {
  if (scoped.section) return reach === 'all' || reach.includes(scoped.section.id) ? [scoped.section.id] : [];
  return reach === 'all' ? undefined : reach;
}

/** The assignment of the path, in the course; an unpublished one only for those who manage content. */
export function assignmentIn(ctx: MockCtx, course: CourseRow): AssignmentRow {
  const id = numericId(ctx.path.assignment_id);
  const a = id === undefined ? undefined : assignmentById(ctx.db, id);
  if (!a || a.course_id !== course.id || (!a.published && !canManageContent(ctx, course))) throw notFound();
  return a;
}

/** The student of the path: a student of the course (of the route's section, on a section route). */
export function studentIn(ctx: MockCtx, scoped: { course: CourseRow; section?: SectionRow }, raw: string): number {
  const user = findUser(ctx, raw);
  if (!isStudentOf(ctx.db, user.id, scoped.course.id, scoped.section ? [scoped.section.id] : undefined))
    throw notFound();
  return user.id;
}

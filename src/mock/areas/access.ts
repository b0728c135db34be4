// The questions many areas' handlers ask of the caller on one request, answered once: a course read
// from its path id, whether the caller manages a course's content. They take the request (for its
// caller and its per-request memo), so they sit beside permissions.ts rather than in it; the rules
// themselves are permissions.ts's.
import { once, requireThat, type MockCtx } from '../kit.js';
import { findCourse, type CourseRow } from './lookup.js';
import { can, canReadCourse } from './permissions.js';

/** A course the caller may read, from a path id (404 when missing, 401 when not visible). */
export function readableCourse(ctx: MockCtx, raw: string): CourseRow {
  const course = findCourse(ctx, raw);
  requireThat(canReadCourse(ctx.db, ctx.caller.id, course));
  return course;
}

/** May the caller manage the course's content (and so see what is unpublished)? Asked once a request. */
export function canManageContent(ctx: MockCtx, course: CourseRow): boolean {
  return once(ctx, `manage_content:${course.id}`, () => can(ctx.db, ctx.caller.id, 'manage_content', { course }));
}

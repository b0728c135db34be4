// The questions many areas' handlers ask of the caller on one request, answered once: a course read
// from its path id, whether the caller manages a course's content, whether an area's policy row
// allows the caller an action. They take the request (for its caller and its per-request memo), so
// they sit beside permissions.ts rather than in it; the rules themselves are the areas' policy.ts.
import { once, unauthorized, type MockCtx } from '../kit.js';
import { findCourse, type CourseRow } from './lookup.js';
import {
  allowedBy,
  canReadCourse,
  reachIn,
  READ_SIS,
  type Permission,
  type PermissionContext,
  type Rule,
} from './permissions.js';

/**
 * Enforces a policy's answer: a caller it refuses gets 401, as real instances answer (they do not
 * say whether the thing exists). Handlers pass it only what a policy answered.
 */
export function permit(allowed: boolean): asserts allowed {
  if (!allowed) throw unauthorized();
}

/** Does the policy row allow the caller the action there? `owner`: whose record it touches. */
export function allows(ctx: MockCtx, rule: Rule, context: PermissionContext, owner?: number): boolean {
  return allowedBy(ctx.db, ctx.caller.id, rule, context, owner);
}

/** Refuses the request (401) unless the policy row allows the caller the action there. */
export function demand(ctx: MockCtx, rule: Rule, context: PermissionContext, owner?: number): void {
  permit(allows(ctx, rule, context, owner));
}

/**
 * Where in the course the row allows the caller: everywhere, or only the sections a section-limited
 * enrollment holds it in. Refused (401) when it holds nowhere.
 */
export function reachOf(
  ctx: MockCtx,
  anyOf: readonly Permission[],
  course: { id: number; account_id: number },
): 'all' | number[] {
  const reach = reachIn(ctx.db, ctx.caller.id, anyOf, course);
  permit(reach === 'all' || reach.length > 0);
  return reach;
}

/** A course the caller may read, from a path id (404 when missing, 401 when not visible). */
export function readableCourse(ctx: MockCtx, raw: string): CourseRow {
  const course = findCourse(ctx, raw);
  permit(canReadCourse(ctx.db, ctx.caller.id, course));
  return course;
}

/** May the caller manage the course's content (and so see what is unpublished)? Asked once a request. */
export function canManageContent(ctx: MockCtx, course: CourseRow): boolean {
  return once(ctx, `manage_content:${course.id}`, () => allows(ctx, CONTENT, { course }));
}

/** May the caller see the SIS ids of a course, its sections and its members there? Asked once a request. */
export function canReadSis(ctx: MockCtx, course: { id: number; account_id: number }): boolean {
  return once(ctx, `sis:${course.id}`, () => allows(ctx, READ_SIS, { course }));
}

/** Managing a course's content: the row every content area (assignments, quizzes, topics, events) shares. */
const CONTENT: Rule = ['manage_content'];

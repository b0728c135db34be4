// Who may send what, as data: each action and the course permissions any one of which allows it.
// The handlers ask a row through access.ts (`allows`, `demand`); none of them writes the rule for
// itself. Whom a sender may reach at all is the messaging scope's (search/audience.ts); this says
// only what a reachable context asks more.
import type { Db } from '../../db/open.js';
import { courseById } from '../../school/courses/repo.js';
import type { ContextRef } from '../search/audience.js';
import { sectionById } from '../../school/sections/repo.js';
import type { Rule } from '../permissions.js';

export const conversationsPolicy = {
  /**
   * Messaging the class as a whole: a course or a section, or its students or observers, named as
   * one recipient (`course_1`, `course_1_students`, `section_2`). Real instances reserve it for roles
   * with "Send messages to the entire class" (teachers and TAs by default, not students or
   * observers). Its teachers or TAs as a list, a group, and people one by one stay open to anyone
   * who may message them.
   */
  messageClass: ['send_messages_all'],
} as const satisfies Record<string, Rule>;

const INSTRUCTORS = new Set(['TeacherEnrollment', 'TaEnrollment']);

/** The course a context names as the class (or part of it) as a whole, when it names one that exists. */
export function classOf(db: Db, ref: ContextRef): { id: number; account_id: number } | undefined {
  if (ref.kind === 'group' || (ref.type !== undefined && INSTRUCTORS.has(ref.type))) return undefined;
  const courseId = ref.kind === 'course' ? ref.id : sectionById(db, ref.id)?.course_id;
  return courseId === undefined ? undefined : courseById(db, courseId);
}

// Who may change courses, as data: each action and the permissions any one of which allows it, all
// asked of the account that holds (or will hold) the course. The handlers ask a row through access.ts (`allows`,
// `demand`); none of them writes the rule for itself. Reading a course is permissions.ts's `canReadCourse` (enrolled,
// or an admin above it), and `courses.list` lists only the caller's own.
import type { Rule } from '../../areas/permissions.js';

export const coursesPolicy = {
  /** The courses of an account and its sub-accounts (`/accounts/:id/courses`). */
  listAccount: ['read_course_list'],
  /** Creating a course in the account, or changing one of its courses. */
  manage: ['manage_courses'],
  /** Setting or clearing a course's SIS id or integration id, on create or update. */
  setSis: ['manage_sis'],
} as const satisfies Record<string, Rule>;

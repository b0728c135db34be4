// Who may reach a stored file, as data. The handlers ask a row through access.ts (`allows`,
// `demand`); none of them writes the rule for itself.
import { READ_COURSE, type Rule } from '../permissions.js';

export const filesPolicy = {
  /**
   * A user's personal file (by id): its owner, or whoever manages logins on the root account (the
   * helpdesk's right; a course's staff does not reach a student's personal files).
   */
  personal: { anyOf: ['manage_user_logins'], self: true },
  /**
   * Adding to a course's files (Canvas's manage_files_add, which the mock's roles hold as managing
   * the course's content): its teachers, designers and TAs, and admins above it; never its students.
   */
  manageCourse: ['manage_content'],
  /**
   * A course's file, read: whoever reads the course. Canvas hides a locked or unpublished file from
   * students; the mock's course files are never either, so every member sees them.
   */
  readCourse: READ_COURSE,
} as const satisfies Record<string, Rule>;

// Who may see and change a course's enrollments, as data. The handlers ask a row through access.ts
// (`allows`, `demand`, `reachOf`); none of them writes the rule for itself. Adding or ending an
// enrollment is asked of its section, so a section-limited teacher manages their own section only.
import type { Rule } from '../../areas/permissions.js';

export const enrollmentsPolicy = {
  /** A course's or section's enrollments: whoever reads its roster (limited to their sections). */
  listCourse: ['read_roster'],
  /** A user's enrollments everywhere: the user, or whoever reads rosters on the root account. */
  listUser: { anyOf: ['read_roster'], self: true },
  /** Adding or ending a student's enrollment. */
  manageStudents: ['manage_students'],
  /** Adding or ending any other: teachers, TAs, designers, observers. */
  manageOthers: ['manage_admin_users'],
  /**
   * A student enrollment's scores: who sees or gives every grade there (the student and their observers see their own).
   */
  seeGrades: ['view_all_grades', 'manage_grades'],
} as const satisfies Record<string, Rule>;

/** The row that adding or ending an enrollment of this type asks. */
export const manageRuleFor = (type: string): Rule =>
  type === 'StudentEnrollment' ? enrollmentsPolicy.manageStudents : enrollmentsPolicy.manageOthers;

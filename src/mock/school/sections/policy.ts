// Who may do what with a course's sections, as data: each action and the course permissions any one
// of which allows it. Managing a section is asked of that section (a section-limited enrollment
// manages its own only); cross-listing asks it of both courses. The handlers ask a row through access.ts (`allows`,
// `demand`); reading a course's sections is reading the course (permissions.ts's `canReadCourse`).
import type { Rule } from '../../areas/permissions.js';

export const sectionsPolicy = {
  /** Creating, editing, deleting and cross-listing sections. */
  manage: ['manage_sections'],
  /** Listing each section's students (`include[]=students`): those who see the roster or every grade. */
  listStudents: ['read_roster', 'view_all_grades'],
  /** Setting a section's SIS id; without it the id given is ignored, as on real instances. */
  setSis: ['manage_sis'],
} as const satisfies Record<string, Rule>;

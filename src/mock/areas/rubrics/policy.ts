// Who may do what with a course's rubrics, as data. canvas-lms asks `manage_rubrics` of the course
// for every rubrics API call (list and show included): teachers, TAs and designers hold it by
// default, which here is managing the course's content. Students and observers read a rubric
// through what it assessed (a submission's `rubric_assessment`), not through this API.
import type { Rule } from '../permissions.js';

export const rubricsPolicy = {
  /** Listing, reading, creating, changing and deleting a course's rubrics and their associations. */
  manage: ['manage_content'],
} as const satisfies Record<string, Rule>;

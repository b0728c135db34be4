// Who may do what with a course's submissions, as data: each action and the course permissions any
// one of which allows it. The handlers ask a row through access.ts (`allows`, `demand`); none of them writes the rule for itself.
import type { Rule } from '../permissions.js';

export const submissionsPolicy = {
  /**
   * Every student's submission of an assignment (`…/assignments/:id/submissions`): those who grade
   * or view all grades, as real instances rule (a student or an observer is refused, and lists
   * their own or their student's through `…/students/submissions`).
   */
  listAssignment: ['manage_grades', 'view_all_grades'],
} as const satisfies Record<string, Rule>;

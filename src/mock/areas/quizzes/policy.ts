// Who may do what with a course's quizzes, as data. The handlers ask a row through access.ts
// (`allows`, `demand`); none of them writes the rule for itself. Creating and changing quizzes, and
// seeing unpublished ones, is managing the course's content (access.ts's `canManageContent`).
import type { Rule } from '../permissions.js';

export const quizzesPolicy = {
  /** Seeing a quiz's access code and its grading fields, as its graders do. */
  grade: ['manage_grades'],
} as const satisfies Record<string, Rule>;

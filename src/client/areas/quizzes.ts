// Quizzes of a course: list (with a partial-title search), read, create, edit.
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { Quiz, QuizFields } from '../../spec/types/quizzes.js';

export const quizzes = {
  list: op('quizzes.list').as<{ course_id: Id; search_term?: string }, Quiz>(),
  get: op('quizzes.get').as<{ course_id: Id; id: Id }, Quiz>(),
  create: op('quizzes.create').as<{ course_id: Id; quiz: QuizFields }, Quiz>(),
  update: op('quizzes.update').as<{ course_id: Id; id: Id; quiz: QuizFields }, Quiz>(),
};

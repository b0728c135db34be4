import { defineArea } from '../area.js';
import { quizzesHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedQuizzes } from './seed.js';

export const quizzesArea = defineArea({ name: 'quizzes', schema, handlers: quizzesHandlers, seed: seedQuizzes });

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const quizzesArea = defineArea({
  name: 'quizzes',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).quizzesHandlers }),
  seed: async () => (await import('./seed.js')).seedQuizzes,
});

// Rubrics: a course's rubrics with their criteria and ratings, their associations to the course and
// to assignments, and the assessments grading writes (the submissions area assesses through
// assess.ts; a submission's `rubric_assessment` is read from here).
import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const rubricsArea = defineArea({
  name: 'rubrics',
  schema,
  load: async () => ({
    handlers: {
      ...(await import('./handlers.js')).rubricsHandlers,
      ...(await import('./associations.js')).associationHandlers,
    },
  }),
  seed: async () => (await import('./seed.js')).seedRubrics,
});

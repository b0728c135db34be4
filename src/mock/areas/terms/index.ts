import { defineArea } from '../../area.js';

// Its table is the school's (school/courses/schema.ts): a course is in a term.
export const termsArea = defineArea({
  name: 'terms',
  schema: '',
  load: async () => ({ handlers: (await import('./handlers.js')).termsHandlers }),
});

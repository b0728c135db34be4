import { defineArea } from '../../area.js';
import { schema } from '../../school/enrollments/schema.js';

export const enrollmentsArea = defineArea({
  name: 'enrollments',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).enrollmentsHandlers }),
  seed: async () => (await import('./seed.js')).seedEnrollments,
});

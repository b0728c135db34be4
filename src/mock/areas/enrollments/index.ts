import { defineArea } from '../../area.js';
import { schema } from '../../school/enrollments/schema.js';

export const enrollmentsArea = defineArea({
  name: 'enrollments',
  schema,
  operations: [
    'enrollments.listCourse',
    'enrollments.listSection',
    'enrollments.listUser',
    'enrollments.enrollCourse',
    'enrollments.enrollSection',
    'enrollments.end',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).enrollmentsHandlers }),
  seed: async () => (await import('./seed.js')).seedEnrollments,
});

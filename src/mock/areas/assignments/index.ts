import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const assignmentsArea = defineArea({
  name: 'assignments',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).assignmentsHandlers }),
  seed: async () => (await import('./seed.js')).seedAssignments,
});

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const assignmentsArea = defineArea({
  name: 'assignments',
  schema,
  operations: ['assignments.list', 'assignments.create', 'assignments.get', 'assignments.update', 'assignments.delete'],
  load: async () => ({ handlers: (await import('./handlers.js')).assignmentsHandlers }),
  seed: async () => (await import('./seed.js')).seedAssignments,
});

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const assignmentGroupsArea = defineArea({
  name: 'assignment-groups',
  schema,
  operations: [
    'assignmentGroups.list',
    'assignmentGroups.get',
    'assignmentGroups.create',
    'assignmentGroups.update',
    'assignmentGroups.delete',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).assignmentGroupsHandlers }),
  seed: async () => (await import('./seed.js')).seedAssignmentGroups,
});

import { defineArea } from '../../area.js';
import { schema, searchIndex } from '../../school/users/schema.js';

export const usersArea = defineArea({
  name: 'users',
  schema,
  operations: ['courses.users'],
  load: async () => ({ handlers: (await import('./handlers.js')).usersHandlers }),
  seed: async () => (await import('./seed.js')).seedPeople,
  bulkIndexes: [searchIndex],
});

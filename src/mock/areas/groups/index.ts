import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const groupsArea = defineArea({
  name: 'groups',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).groupsHandlers }),
  seed: async () => (await import('./seed.js')).seedGroups,
});

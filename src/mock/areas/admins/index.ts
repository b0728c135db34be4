import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const adminsArea = defineArea({
  name: 'admins',
  schema,
  operations: ['admins.list', 'admins.create', 'admins.delete'],
  load: async () => ({ handlers: (await import('./handlers.js')).adminsHandlers }),
  seed: async () => (await import('./seed.js')).seedAdmins,
});

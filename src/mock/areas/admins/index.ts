import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const adminsArea = defineArea({
  name: 'admins',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).adminsHandlers }),
  seed: async () => (await import('./seed.js')).seedAdmins,
});

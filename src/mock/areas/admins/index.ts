import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const adminsArea = defineArea({
  name: 'admins',
  // The roles an admin gives and an enrollment takes: the account's, as the admins area holds them.
  operations: ['roles.list'],
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).adminsHandlers }),
  seed: async () => (await import('./seed.js')).seedAdmins,
});

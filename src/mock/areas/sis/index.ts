import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const sisArea = defineArea({
  name: 'sis',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).sisHandlers }),
  seed: async () => (await import('./seed.js')).seedSis,
});

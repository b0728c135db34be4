import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const modulesArea = defineArea({
  name: 'modules',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).modulesHandlers }),
  seed: async () => (await import('./seed.js')).seedModules,
});

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const pagesArea = defineArea({
  name: 'pages',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).pagesHandlers }),
  seed: async () => (await import('./seed.js')).seedPages,
});

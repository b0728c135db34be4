import { defineArea } from '../area.js';
import { schema } from './schema.js';

export const progressArea = defineArea({
  name: 'progress',
  schema,
  operations: [
    'progress.get',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).progressHandlers }),
  seed: async () => (await import('./seed.js')).seedProgress,
});

import { defineArea } from '../../area.js';
import { progressSchema } from '../../jobs.js';

export const progressArea = defineArea({
  name: 'progress',
  schema: progressSchema,
  load: async () => ({ handlers: (await import('./handlers.js')).progressHandlers }),
  seed: async () => (await import('./seed.js')).seedProgress,
});

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const outcomesArea = defineArea({
  name: 'outcomes',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).outcomesHandlers }),
  seed: async () => (await import('./seed.js')).seedOutcomes,
});

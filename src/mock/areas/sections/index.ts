import { defineArea } from '../../area.js';
import { schema } from '../../school/sections/schema.js';

export const sectionsArea = defineArea({
  name: 'sections',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).sectionsHandlers }),
  seed: async () => (await import('./seed.js')).seedSections,
});

import { defineArea } from '../../area.js';
import { schema } from '../../school/sections/schema.js';

export const sectionsArea = defineArea({
  name: 'sections',
  schema,
  operations: [
    'sections.list',
    'sections.create',
    'sections.get',
    'sections.getInCourse',
    'sections.update',
    'sections.delete',
    'sections.crosslist',
    'sections.uncrosslist',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).sectionsHandlers }),
  seed: async () => (await import('./seed.js')).seedSections,
});

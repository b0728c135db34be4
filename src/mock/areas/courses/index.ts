import { defineArea } from '../../area.js';
import { carried, schema, searchIndex } from '../../school/courses/schema.js';

export const coursesArea = defineArea({
  name: 'courses',
  schema,
  carried,
  load: async () => ({ handlers: (await import('./handlers.js')).coursesHandlers }),
  seed: async () => (await import('./seed.js')).seedCourses,
  bulkIndexes: [searchIndex.bulk],
});

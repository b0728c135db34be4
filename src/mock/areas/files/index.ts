import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const filesArea = defineArea({
  name: 'files',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).filesHandlers }),
  // The upload URL and the file's verifier are their own credentials.
  publicRoutes: ['files.upload', 'files.download'],
});

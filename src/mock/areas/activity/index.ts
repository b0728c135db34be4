import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const activityArea = defineArea({
  name: 'activity',
  schema,
  operations: [
    'users.hideStreamItem',
    'users.activityStream',
    'users.activityStreamAlias',
    'users.activityStreamSummary',
  ],
  load: async (others) => {
    // The stream shows every area's items: their presenters are loaded before it answers.
    const [{ activityHandlers }, presenters] = await Promise.all([import('./handlers.js'), others.streamPresenters()]);
    return { handlers: activityHandlers(presenters) };
  },
  seed: async () => (await import('./seed.js')).seedActivity,
});

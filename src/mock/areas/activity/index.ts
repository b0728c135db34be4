import { defineArea } from '../area.js';
import { loadStreamPresenters } from '../index.js';
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
  load: async () => {
    const { activityHandlers, messageItem } = await import('./handlers.js');
    // The stream shows every area's items: their presenters are loaded before it answers.
    await loadStreamPresenters();
    return { handlers: activityHandlers, streamItems: { Message: messageItem } };
  },
  seed: async () => (await import('./seed.js')).seedActivity,
});

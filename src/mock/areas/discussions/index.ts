import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const discussionsArea = defineArea({
  name: 'discussions',
  schema,
  streamTypes: ['DiscussionTopic', 'Announcement'],
  load: async () => {
    const [{ discussionsHandlers }, { topicStreamItem }] = await Promise.all([
      import('./handlers.js'),
      import('./stream.js'),
    ]);
    return {
      handlers: discussionsHandlers,
      streamItems: { DiscussionTopic: topicStreamItem, Announcement: topicStreamItem },
    };
  },
  seed: async () => (await import('./seed.js')).seedDiscussions,
});

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const conversationsArea = defineArea({
  name: 'conversations',
  schema,
  streamTypes: ['Conversation'],
  load: async () => {
    const [{ conversationsHandlers }, { conversationStreamItem }] = await Promise.all([
      import('./handlers.js'),
      import('./stream.js'),
    ]);
    return { handlers: conversationsHandlers, streamItems: { Conversation: conversationStreamItem } };
  },
  seed: async () => (await import('./seed.js')).seedConversations,
});

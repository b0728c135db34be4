import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const discussionsArea = defineArea({
  name: 'discussions',
  schema,
  operations: [
    'discussions.listTopics',
    'discussions.listGroupTopics',
    'discussions.createTopic',
    'discussions.updateTopic',
    'discussions.deleteTopic',
    'discussions.getTopic',
    'discussions.viewTopic',
    'discussions.createEntry',
    'discussions.listEntries',
    'discussions.createReply',
    'discussions.listReplies',
    'discussions.entryList',
    'discussions.updateEntry',
    'discussions.deleteEntry',
    'discussions.markTopicRead',
    'discussions.markTopicUnread',
    'discussions.markAllRead',
    'discussions.markAllUnread',
    'discussions.markEntryRead',
    'discussions.markEntryUnread',
    'discussions.subscribe',
    'discussions.unsubscribe',
  ],
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

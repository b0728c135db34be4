import { defineArea } from '../area.js';
import { discussionsHandlers, topicStreamItem } from './handlers.js';
import { schema } from './schema.js';
import { seedDiscussions } from './seed.js';

export const discussionsArea = defineArea({ name: 'discussions', schema, handlers: discussionsHandlers, seed: seedDiscussions, streamItems: { DiscussionTopic: topicStreamItem, Announcement: topicStreamItem } });

import { defineArea } from '../area.js';
import { conversationsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { conversationStreamItem } from './stream.js';
import { seedConversations } from './seed.js';

export const conversationsArea = defineArea({ name: 'conversations', schema, handlers: conversationsHandlers, seed: seedConversations, streamItems: { Conversation: conversationStreamItem } });

import { defineArea } from '../area.js';
import { activityHandlers, messageItem } from './handlers.js';
import { schema } from './schema.js';
import { seedActivity } from './seed.js';

export const activityArea = defineArea({ name: 'activity', schema, handlers: activityHandlers, seed: seedActivity, streamItems: { Message: messageItem } });

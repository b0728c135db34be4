import { defineArea } from '../area.js';
import { discussionsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedDiscussions } from './seed.js';

export const discussionsArea = defineArea({ name: 'discussions', schema, handlers: discussionsHandlers, seed: seedDiscussions });

import { defineArea } from '../area.js';
import { progressHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedProgress } from './seed.js';

export const progressArea = defineArea({ name: 'progress', schema, handlers: progressHandlers, seed: seedProgress });

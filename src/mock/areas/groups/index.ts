import { defineArea } from '../area.js';
import { groupsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedGroups } from './seed.js';

export const groupsArea = defineArea({ name: 'groups', schema, handlers: groupsHandlers, seed: seedGroups });

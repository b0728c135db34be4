import { defineArea } from '../area.js';
import { usersHandlers } from './handlers.js';
import { schema, searchIndex } from './schema.js';
import { seedPeople } from './seed.js';

export const usersArea = defineArea({ name: 'users', schema, handlers: usersHandlers, seed: seedPeople, bulkIndexes: [searchIndex] });

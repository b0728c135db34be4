import { defineArea } from '../area.js';
import { searchHandlers } from './handlers.js';
import { recipientIndex, schema } from './schema.js';

export const searchArea = defineArea({ name: 'search', schema, handlers: searchHandlers, bulkIndexes: [recipientIndex] });

import { defineArea } from '../area.js';
import { searchHandlers } from './handlers.js';
import { schema } from './schema.js';

export const searchArea = defineArea({ name: 'search', schema, handlers: searchHandlers });

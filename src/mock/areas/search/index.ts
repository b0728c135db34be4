import { defineArea } from '../../area.js';
import { recipientIndex, schema } from './schema.js';

export const searchArea = defineArea({
  name: 'search',
  schema,
  operations: ['search.recipients', 'conversations.findRecipients'],
  load: async () => ({ handlers: (await import('./handlers.js')).searchHandlers }),
  bulkIndexes: [recipientIndex],
});

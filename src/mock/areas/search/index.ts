import { defineArea } from '../../area.js';
import { recipientIndex, schema } from './schema.js';

export const searchArea = defineArea({
  name: 'search',
  schema,
  operations: ['conversations.findRecipients'],
  load: async () => ({ handlers: (await import('./handlers.js')).searchHandlers }),
  bulkIndexes: [recipientIndex],
});

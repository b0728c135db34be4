import { defineArea } from '../area.js';
import { get, list } from './handlers.js';
import { schema } from './schema.js';
import { seedAccounts } from './seed.js';

export const accountsArea = defineArea({
  name: 'accounts',
  schema,
  handlers: { 'accounts.list': list, 'accounts.get': get },
  seed: seedAccounts,
});

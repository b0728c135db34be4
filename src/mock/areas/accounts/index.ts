import { defineArea } from '../../area.js';
import { schema } from '../../school/accounts/schema.js';

export const accountsArea = defineArea({
  name: 'accounts',
  schema,
  load: async () => {
    const { get, list } = await import('./handlers.js');
    return { handlers: { 'accounts.list': list, 'accounts.get': get } };
  },
  seed: async () => (await import('./seed.js')).seedAccounts,
});

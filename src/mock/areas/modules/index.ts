import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const modulesArea = defineArea({
  name: 'modules',
  schema,
  operations: [
    'modules.list',
    'modules.get',
    'modules.create',
    'modules.update',
    'modules.delete',
    'modules.relock',
    'modules.listItems',
    'modules.getItem',
    'modules.createItem',
    'modules.updateItem',
    'modules.deleteItem',
    'modules.markDone',
    'modules.markNotDone',
    'modules.markRead',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).modulesHandlers }),
  seed: async () => (await import('./seed.js')).seedModules,
});

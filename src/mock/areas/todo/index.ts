import { defineArea } from '../area.js';
import { schema } from './schema.js';
import { seedTodo } from './seed.js';

export const todoArea = defineArea({
  name: 'todo',
  schema,
  operations: [
    'users.todo',
    'users.ignoreTodo',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).todoHandlers }),
  seed: seedTodo,
});

import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const todoArea = defineArea({
  name: 'todo',
  schema,
  operations: ['users.todo', 'users.ignoreTodo'],
  load: async () => ({ handlers: (await import('./handlers.js')).todoHandlers }),
  seed: async () => (await import('./seed.js')).seedTodo,
});

import { defineArea } from '../area.js';
import { todoHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedTodo } from './seed.js';

export const todoArea = defineArea({ name: 'todo', schema, handlers: todoHandlers, seed: seedTodo });

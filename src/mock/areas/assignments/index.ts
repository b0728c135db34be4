import { defineArea } from '../area.js';
import { assignmentsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedAssignments } from './seed.js';

export const assignmentsArea = defineArea({ name: 'assignments', schema, handlers: assignmentsHandlers, seed: seedAssignments });

import { defineArea } from '../area.js';
import { enrollmentsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedEnrollments } from './seed.js';

export const enrollmentsArea = defineArea({ name: 'enrollments', schema, handlers: enrollmentsHandlers, seed: seedEnrollments });

import { defineArea } from '../area.js';
import { schema } from './schema.js';
import { seedEnrollments } from './seed.js';

export const enrollmentsArea = defineArea({ name: 'enrollments', schema, handlers: {}, seed: seedEnrollments });

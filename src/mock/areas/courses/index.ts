import { defineArea } from '../area.js';
import { coursesHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedCourses } from './seed.js';

export const coursesArea = defineArea({ name: 'courses', schema, handlers: coursesHandlers, seed: seedCourses });

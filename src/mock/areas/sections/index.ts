import { defineArea } from '../area.js';
import { sectionsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedSections } from './seed.js';

export const sectionsArea = defineArea({ name: 'sections', schema, handlers: sectionsHandlers, seed: seedSections });

import { defineArea } from '../area.js';
import { outcomesHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedOutcomes } from './seed.js';

export const outcomesArea = defineArea({ name: 'outcomes', schema, handlers: outcomesHandlers, seed: seedOutcomes });

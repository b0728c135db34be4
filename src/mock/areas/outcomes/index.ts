import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const outcomesArea = defineArea({
  name: 'outcomes',
  schema,
  operations: [
    'outcomes.rootGroup',
    'outcomes.getGroup',
    'outcomes.updateGroup',
    'outcomes.deleteGroup',
    'outcomes.listLinks',
    'outcomes.createOutcome',
    'outcomes.linkOutcome',
    'outcomes.unlinkOutcome',
    'outcomes.listSubgroups',
    'outcomes.createSubgroup',
    'outcomes.importGroup',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).outcomesHandlers }),
  seed: async () => (await import('./seed.js')).seedOutcomes,
});

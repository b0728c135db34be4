import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const calendarArea = defineArea({
  name: 'calendar',
  schema,
  operations: ['users.upcomingEvents'],
  load: async () => ({ handlers: (await import('./handlers.js')).calendarHandlers }),
  seed: async () => (await import('./seed.js')).seedCalendar,
});

import { defineArea } from '../area.js';
import { calendarHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedCalendar } from './seed.js';

export const calendarArea = defineArea({ name: 'calendar', schema, handlers: calendarHandlers, seed: seedCalendar });

// Calendar events (a supporting endpoint: what gives the upcoming-events list its calendar form).
import { op } from '../operation.js';
import type { CalendarEvent, NewCalendarEvent } from '../../spec/types/calendar.js';

export const calendar = {
  create: op('calendar.create').as<{ calendar_event: NewCalendarEvent }, CalendarEvent>(),
};

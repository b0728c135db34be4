import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createCalendarEvent } from './repo.js';

const DAY = 24 * 3600 * 1000;

/**
 * Events around the day the school is seeded, by the mock's clock, so that "Coming up" has something
 * in it: two this week in Biology, one for a lab group, one past and one beyond the week.
 */
export function seedCalendar(db: Db, { minimal, now, clock }: SeedOptions): void {
  if (minimal) return;
  const day = (offset: number, hour: number) => {
    const d = new Date(Date.parse(clock.slice(0, 10)) + offset * DAY);
    d.setUTCHours(hour);
    return d.toISOString();
  };
  const events = [
    {
      context: { type: 'Course', id: 1 },
      user: 3,
      title: 'Cell biology review session',
      startAt: day(1, 15),
      endAt: day(1, 16),
      locationName: 'Science Hall 101',
    },
    {
      context: { type: 'Course', id: 1 },
      user: 3,
      title: 'Field trip: botanical garden',
      startAt: day(4, 0),
      allDay: true,
    },
    {
      context: { type: 'Group', id: 1 },
      user: 7,
      title: 'Lab Group 1 write-up',
      startAt: day(2, 18),
      endAt: day(2, 19),
    },
    { context: { type: 'Course', id: 1 }, user: 3, title: 'Orientation', startAt: day(-3, 14), endAt: day(-3, 15) },
    {
      context: { type: 'Course', id: 2 },
      user: 3,
      title: 'Midterm exam',
      startAt: day(12, 9),
      endAt: day(12, 11),
      locationName: 'Chemistry Building 2',
    },
  ] as const;
  for (const e of events) createCalendarEvent(db, { ...e, now });
}

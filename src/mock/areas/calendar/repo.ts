// Calendar events, and the upcoming events of a user's contexts (events and assignment due dates).
import type { Db } from '../../db/open.js';
import { all, insert, one, placeholders } from '../../db/statements.js';
import type { AssignmentRow } from '../assignments/repo.js';
import { coursesOfUser } from '../../school/enrollments/repo.js';
import { allGroupsOfUser } from '../groups/repo.js';

export type EventContextType = 'Course' | 'Group' | 'User';

export interface CalendarEventRow {
  id: number;
  context_type: EventContextType;
  context_id: number;
  user_id: number | null;
  title: string;
  description: string | null;
  start_at: string | null;
  end_at: string | null;
  location_name: string | null;
  location_address: string | null;
  all_day: number;
  all_day_date: string | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export interface NewCalendarEvent {
  context: { type: EventContextType; id: number };
  user: number | null;
  title: string;
  description?: string | null;
  startAt?: string | null;
  endAt?: string | null;
  locationName?: string | null;
  locationAddress?: string | null;
  allDay?: boolean;
  now: string;
}

export function createCalendarEvent(db: Db, e: NewCalendarEvent): number {
  // An all-day event runs the whole of its start date.
  const allDayDate = e.allDay && e.startAt ? e.startAt.slice(0, 10) : null;
  const startAt = allDayDate ? `${allDayDate}T00:00:00.000Z` : (e.startAt ?? null);
  const endAt = allDayDate ? `${allDayDate}T00:00:00.000Z` : (e.endAt ?? e.startAt ?? null);
  return insert(
    db,
    'INSERT INTO calendar_events (context_type, context_id, user_id, title, description, start_at, end_at, ' +
      `location_name, location_address, all_day, all_day_date, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    e.context.type,
    e.context.id,
    e.user,
    e.title,
    e.description ?? null,
    startAt,
    endAt,
    e.locationName ?? null,
    e.locationAddress ?? null,
    e.allDay ? 1 : 0,
    allDayDate,
    e.now,
    e.now,
  );
}

export function calendarEventById(db: Db, id: number): CalendarEventRow | undefined {
  return one<CalendarEventRow>(db, `SELECT * FROM calendar_events WHERE id = ?`, id);
}

/** The courses (active or invited enrolment) and groups (accepted membership) a user belongs to. */
export function contextsOfUser(db: Db, userId: number): { courses: number[]; groups: number[] } {
  return { courses: coursesOfUser(db, userId), groups: allGroupsOfUser(db, userId) };
}

/** Active events of these contexts that have not ended by `from` and start before `until`, soonest first. */
export function eventsBetween(
  db: Db,
  contexts: { courses: number[]; groups: number[]; user: number },
  from: string,
  until: string,
  limit: number,
): CalendarEventRow[] {
  const { courses, groups, user } = contexts;
  return all<CalendarEventRow>(
    db,
    `SELECT * FROM calendar_events
     WHERE workflow_state = 'active' AND start_at IS NOT NULL AND start_at < ? AND coalesce(end_at, start_at) >= ?
       AND ((context_type = 'Course' AND context_id IN (${placeholders(courses.length)}))
         OR (context_type = 'Group' AND context_id IN (${placeholders(groups.length)}))
         OR (context_type = 'User' AND context_id = ?))
     ORDER BY start_at, id LIMIT ?`,
    until,
    from,
    ...courses,
    ...groups,
    user,
    limit,
  );
}

/** Published assignments of these courses due from `from` until `until`, soonest first. */
export function assignmentsDueBetween(
  db: Db,
  courses: number[],
  from: string,
  until: string,
  limit: number,
): AssignmentRow[] {
  return all<AssignmentRow>(
    db,
    `SELECT * FROM assignments WHERE published = 1 AND due_at IS NOT NULL AND due_at >= ? AND due_at < ?
       AND course_id IN (${placeholders(courses.length)}) ORDER BY due_at, id LIMIT ?`,
    from,
    until,
    ...courses,
    limit,
  );
}

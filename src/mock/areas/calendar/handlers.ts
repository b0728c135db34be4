// Calendar events (create) and the caller's upcoming events: events and assignment due dates of
// the caller's courses, groups and own calendar that have not ended and start within a week, by the
// mock's clock, soonest first, at most 20 (as real instances answer the dashboard's "Coming up").
import type { AssignmentEvent, CalendarEvent, UpcomingEvent } from '../../../spec/types/calendar.js';
import { bool, created, invalid, obj, str, timestamp, type Handler, type MockCtx } from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { permit } from '../access.js';
import { mayAddTo } from './policy.js';
import { assignmentJson } from '../assignments/present.js';
import type { AssignmentRow } from '../assignments/repo.js';
import {
  assignmentsDueBetween,
  calendarEventById,
  contextsOfUser,
  createCalendarEvent,
  eventsBetween,
  type CalendarEventRow,
  type EventContextType,
} from './repo.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;
const UPCOMING_LIMIT = 20;
const CONTEXT_CODE = /^(course|group|user)_(\d{1,18})$/;
const TYPE_OF: Record<string, EventContextType> = { course: 'Course', group: 'Group', user: 'User' };

export function calendarEventJson(ctx: Pick<MockCtx, 'origin'>, e: CalendarEventRow): CalendarEvent {
  const contextCode = `${e.context_type.toLowerCase()}_${e.context_id}`;
  return {
    id: e.id,
    title: e.title,
    description: e.description,
    start_at: e.start_at,
    end_at: e.end_at,
    location_name: e.location_name,
    location_address: e.location_address,
    all_day: e.all_day === 1,
    all_day_date: e.all_day_date,
    created_at: e.created_at,
    updated_at: e.updated_at,
    workflow_state: e.workflow_state,
    context_code: contextCode,
    child_events_count: 0,
    child_events: [],
    parent_event_id: null,
    hidden: false,
    url: `${ctx.origin}/api/v1/calendar_events/${e.id}`,
    html_url: `${ctx.origin}/calendar?event_id=${e.id}&include_contexts=${contextCode}`,
  };
}

function assignmentEventJson(ctx: Pick<MockCtx, 'origin' | 'db'>, a: AssignmentRow): AssignmentEvent {
  const dueAt = a.due_at!;
  return {
    id: `assignment_${a.id}`,
    title: a.name,
    description: a.description,
    start_at: dueAt,
    end_at: dueAt,
    all_day: false,
    all_day_date: null,
    created_at: a.created_at,
    updated_at: a.updated_at,
    workflow_state: 'published',
    context_code: `course_${a.course_id}`,
    assignment: assignmentJson(ctx, a),
    url: `${ctx.origin}/api/v1/calendar_events/assignment_${a.id}`,
    html_url: `${ctx.origin}/courses/${a.course_id}/assignments/${a.id}`,
  };
}

const upcoming: Handler = (ctx) => {
  const from = ctx.now();
  const until = new Date(Date.parse(from) + WEEK_MS).toISOString();
  const { courses, groups } = contextsOfUser(ctx.db, ctx.caller.id);
  const events = eventsBetween(ctx.db, { courses, groups, user: ctx.caller.id }, from, until, UPCOMING_LIMIT).map((e) =>
    calendarEventJson(ctx, e),
  );
  const due = assignmentsDueBetween(ctx.db, courses, from, until, UPCOMING_LIMIT).map((a) =>
    assignmentEventJson(ctx, a),
  );
  const all: UpcomingEvent[] = [...events, ...due];
  return all
    .sort((a, b) => (a.start_at ?? '').localeCompare(b.start_at ?? '') || String(a.id).localeCompare(String(b.id)))
    .slice(0, UPCOMING_LIMIT);
};

const create: Handler = (ctx) => {
  const e = obj(ctx.params, 'calendar_event');
  const code = str(e, 'context_code') ?? '';
  const match = CONTEXT_CODE.exec(code);
  if (!match) throw invalid('calendar_event', 'context_code', 'invalid', 'must be course_N, group_N or user_N');
  const type = TYPE_OF[match[1]!]!;
  const contextId = Number(match[2]);
  permit(mayAddTo(ctx, type, contextId));
  const title = str(e, 'title')?.trim() ?? '';
  checkText(text(), title, 'calendar_event', 'title');
  const startAt = timestamp(e, 'start_at');
  const endAt = timestamp(e, 'end_at');
  if (startAt && endAt && endAt < startAt)
    throw invalid('calendar_event', 'end_at', 'invalid', 'must not be before start_at');
  const id = createCalendarEvent(ctx.db, {
    context: { type, id: contextId },
    user: ctx.caller.id,
    title,
    description: str(e, 'description') ?? null,
    startAt,
    endAt,
    locationName: str(e, 'location_name') ?? null,
    locationAddress: str(e, 'location_address') ?? null,
    allDay: bool(e, 'all_day') ?? false,
    now: ctx.now(),
  });
  return created(calendarEventJson(ctx, calendarEventById(ctx.db, id)!));
};

export const calendarHandlers = { 'users.upcomingEvents': upcoming, 'calendar.create': create };

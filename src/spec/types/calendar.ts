// Calendar events and the upcoming-events list (the dashboard's "Coming up").
import type { ApiObject } from './common.js';
import type { Assignment } from './school.js';

export interface CalendarEvent extends ApiObject {
  id: number;
  title: string;
  description: string | null;
  start_at: string | null;
  end_at: string | null;
  location_name: string | null;
  location_address: string | null;
  all_day: boolean;
  all_day_date: string | null;
  created_at: string;
  updated_at: string;
  workflow_state: string;
  /** `course_1`, `group_2`, `user_7`. */
  context_code: string;
  child_events_count: number;
  child_events: unknown[];
  parent_event_id: number | null;
  hidden: boolean;
  url: string;
  html_url: string;
}

/** An assignment's due date as an upcoming event: its id is `assignment_<id>`. */
export interface AssignmentEvent extends ApiObject {
  id: string;
  title: string;
  description: string | null;
  start_at: string;
  end_at: string;
  all_day: boolean;
  all_day_date: string | null;
  created_at: string;
  updated_at: string;
  workflow_state: string;
  context_code: string;
  assignment: Assignment;
  url: string;
  html_url: string;
}

export type UpcomingEvent = CalendarEvent | AssignmentEvent;

export interface NewCalendarEvent {
  /** `course_1`, `group_2` or `user_7`. */
  context_code: string;
  title: string;
  description?: string;
  start_at?: string;
  end_at?: string;
  location_name?: string;
  location_address?: string;
  all_day?: boolean;
}

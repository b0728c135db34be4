// A course as the API shows it: in its own listings, in the activity stream, wherever one is nested.
import type { Course } from '../../../spec/types/school.js';
import type { CourseRow } from './repo.js';

export function courseJson(c: CourseRow, extra: Record<string, unknown> = {}): Course {
  return {
    id: c.id,
    name: c.name,
    course_code: c.course_code,
    account_id: c.account_id,
    root_account_id: c.root_account_id,
    sis_course_id: c.sis_course_id,
    uuid: `course-${c.id}`,
    workflow_state: c.workflow_state,
    start_at: c.start_at,
    end_at: c.end_at,
    created_at: c.created_at,
    enrollment_term_id: c.enrollment_term_id,
    integration_id: c.integration_id,
    default_view: 'modules',
    time_zone: c.time_zone,
    ...extra,
  };
}

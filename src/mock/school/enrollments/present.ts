// An enrollment as the API shows it; the SIS ids only for those who may read SIS data.
import type { Enrollment } from '../../../spec/types/roster.js';
import type { MockCtx } from '../../kit.js';
import { canReadSis } from '../../areas/access.js';
import { accountById, roleById } from '../accounts/repo.js';
import { courseById } from '../courses/repo.js';
import { sectionById } from '../sections/repo.js';
import { briefUserJson } from '../users/present.js';
import { loginOf, userById } from '../users/repo.js';
import type { EnrollmentRow } from './repo.js';

export function enrollmentJson(ctx: MockCtx, e: EnrollmentRow, options: { withUser?: boolean } = {}): Enrollment {
  const course = courseById(ctx.db, e.course_id)!;
  const role = roleById(ctx.db, e.role_id)!;
  const sis = canReadSis(ctx, course);
  const section = sectionById(ctx.db, e.course_section_id)!;
  const user = userById(ctx.db, e.user_id)!;
  const html = `${ctx.origin}/courses/${e.course_id}/users/${e.user_id}`;
  return {
    id: e.id,
    user_id: e.user_id,
    course_id: e.course_id,
    type: e.type as Enrollment['type'],
    created_at: e.created_at,
    updated_at: e.updated_at,
    associated_user_id: e.associated_user_id,
    start_at: null,
    end_at: null,
    course_section_id: e.course_section_id,
    root_account_id: e.root_account_id,
    limit_privileges_to_course_section: e.limit_privileges_to_course_section === 1,
    enrollment_state: e.workflow_state as Enrollment['enrollment_state'],
    role: role.name,
    role_id: role.id,
    last_activity_at: null,
    last_attended_at: null,
    total_activity_time: 0,
    html_url: html,
    ...(e.type === 'StudentEnrollment' ? { grades: { html_url: `${html}/grades` } } : {}),
    ...(sis
      ? {
          sis_course_id: course.sis_course_id,
          sis_section_id: section.sis_section_id,
          sis_user_id: loginOf(ctx.db, e.user_id)?.sis_user_id ?? null,
          sis_account_id: accountById(ctx.db, course.account_id)?.sis_account_id ?? null,
        }
      : {}),
    ...(options.withUser ? { user: briefUserJson(ctx, user, sis) } : {}),
  };
}

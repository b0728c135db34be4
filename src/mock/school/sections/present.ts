// A section as the API shows it, with its students when asked; SIS ids only for those who may read them.
import type { Section } from '../../../spec/types/roster.js';
import type { MockCtx } from '../../kit.js';
import { canReadSis } from '../../areas/access.js';
import type { CourseRow } from '../courses/repo.js';
import { studentsOfSection } from '../enrollments/repo.js';
import { briefUserJson } from '../users/present.js';
import { userById } from '../users/repo.js';
import type { SectionRow } from './repo.js';

export function sectionJson(ctx: MockCtx, s: SectionRow, course: CourseRow, include: string[] = []): Section {
  const sis = canReadSis(ctx, course);
  const json: Section = {
    id: s.id,
    name: s.name,
    course_id: s.course_id,
    nonxlist_course_id: s.nonxlist_course_id,
    start_at: s.start_at,
    end_at: s.end_at,
    created_at: s.created_at,
    restrict_enrollments_to_section_dates: false,
    integration_id: null,
    sis_section_id: sis ? s.sis_section_id : null,
    sis_course_id: sis ? course.sis_course_id : null,
  };
  if (include.includes('students')) {
    const students = studentsOfSection(ctx.db, s.id).map((userId) => {
      const user = briefUserJson(ctx, userById(ctx.db, userId)!, sis);
      return include.includes('avatar_url')
        ? { ...user, avatar_url: `${ctx.origin}/images/messages/avatar-50.png` }
        : user;
    });
    json.students = students.length ? students : null;
  }
  return json;
}

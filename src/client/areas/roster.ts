// Enrollments, sections and account admins: the roster that admins script.
import { one, paged } from '../operation.js';
import type { Id } from '../types/common.js';
import type { Admin, EndTask, Enrollment, ListEnrollmentsFilter, NewEnrollment, Section, SectionFields } from '../types/roster.js';

export const enrollments = {
  listCourse: paged<{ course_id: Id } & ListEnrollmentsFilter, Enrollment>('enrollments.listCourse'),
  listSection: paged<{ section_id: Id } & ListEnrollmentsFilter, Enrollment>('enrollments.listSection'),
  listUser: paged<{ user_id: Id } & ListEnrollmentsFilter, Enrollment>('enrollments.listUser'),
  enrollCourse: one<{ course_id: Id; enrollment: NewEnrollment }, Enrollment>('enrollments.enrollCourse'),
  enrollSection: one<{ section_id: Id; enrollment: NewEnrollment }, Enrollment>('enrollments.enrollSection'),
  end: one<{ course_id: Id; id: Id; task?: EndTask }, Enrollment>('enrollments.end'),
};

export const sections = {
  list: paged<{ course_id: Id; include?: ('students' | 'avatar_url')[] }, Section>('sections.list'),
  create: one<{ course_id: Id; course_section: SectionFields }, Section>('sections.create'),
  get: one<{ id: Id; include?: string[] }, Section>('sections.get'),
  getInCourse: one<{ course_id: Id; id: Id; include?: string[] }, Section>('sections.getInCourse'),
  update: one<{ id: Id; course_section: SectionFields }, Section>('sections.update'),
  delete: one<{ id: Id }, Section>('sections.delete'),
  crosslist: one<{ id: Id; new_course_id: Id }, Section>('sections.crosslist'),
  uncrosslist: one<{ id: Id }, Section>('sections.uncrosslist'),
};

export const admins = {
  list: paged<{ account_id: Id; user_id?: Id[] }, Admin>('admins.list'),
  create: one<{ account_id: Id; user_id: Id; role?: string; role_id?: number; send_confirmation?: boolean }, Admin>('admins.create'),
  delete: one<{ account_id: Id; user_id: Id; role?: string; role_id?: number }, Admin>('admins.delete'),
};

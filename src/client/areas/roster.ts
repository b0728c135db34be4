// Enrollments, sections and account admins: the roster that admins script.
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { Admin, EndTask, Enrollment, ListEnrollmentsFilter, NewEnrollment, Section, SectionFields } from '../../spec/types/roster.js';

export const enrollments = {
  listCourse: op('enrollments.listCourse').as<{ course_id: Id } & ListEnrollmentsFilter, Enrollment>(),
  listSection: op('enrollments.listSection').as<{ section_id: Id } & ListEnrollmentsFilter, Enrollment>(),
  listUser: op('enrollments.listUser').as<{ user_id: Id } & ListEnrollmentsFilter, Enrollment>(),
  enrollCourse: op('enrollments.enrollCourse').as<{ course_id: Id; enrollment: NewEnrollment }, Enrollment>(),
  enrollSection: op('enrollments.enrollSection').as<{ section_id: Id; enrollment: NewEnrollment }, Enrollment>(),
  end: op('enrollments.end').as<{ course_id: Id; id: Id; task?: EndTask }, Enrollment>(),
};

export const sections = {
  list: op('sections.list').as<{ course_id: Id; include?: ('students' | 'avatar_url')[] }, Section>(),
  create: op('sections.create').as<{ course_id: Id; course_section: SectionFields }, Section>(),
  get: op('sections.get').as<{ id: Id; include?: string[] }, Section>(),
  getInCourse: op('sections.getInCourse').as<{ course_id: Id; id: Id; include?: string[] }, Section>(),
  update: op('sections.update').as<{ id: Id; course_section: SectionFields }, Section>(),
  delete: op('sections.delete').as<{ id: Id }, Section>(),
  crosslist: op('sections.crosslist').as<{ id: Id; new_course_id: Id }, Section>(),
  uncrosslist: op('sections.uncrosslist').as<{ id: Id }, Section>(),
};

export const admins = {
  list: op('admins.list').as<{ account_id: Id; user_id?: Id[] }, Admin>(),
  create: op('admins.create').as<{ account_id: Id; user_id: Id; role?: string; role_id?: number; send_confirmation?: boolean }, Admin>(),
  delete: op('admins.delete').as<{ account_id: Id; user_id: Id; role?: string; role_id?: number }, Admin>(),
};

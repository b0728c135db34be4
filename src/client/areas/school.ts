// Supporting operations: the reads and creates that workflows need to find their ids.
import { one, paged } from '../operation.js';
import type { Id } from '../types/common.js';
import type { Account, Assignment, Attachment, Course, Group } from '../types/school.js';

export const accounts = {
  list: paged<Record<string, never>, Account>('accounts.list'),
  get: one<{ id: Id }, Account>('accounts.get'),
};

export const courses = {
  list: paged<{ enrollment_type?: string; state?: string[] }, Course>('courses.list'),
  listAccount: paged<{ account_id: Id; search_term?: string }, Course>('courses.listAccount'),
  create: one<{ account_id: Id; course: { name?: string; course_code?: string; sis_course_id?: string; start_at?: string; end_at?: string } }, Course>('courses.create'),
  get: one<{ id: Id }, Course>('courses.get'),
};

export const assignments = {
  list: paged<{ course_id: Id; search_term?: string }, Assignment>('assignments.list'),
  create: one<
    {
      course_id: Id;
      assignment: { name: string; description?: string; points_possible?: number; grading_type?: string; submission_types?: string[]; due_at?: string; grading_standard_id?: number; published?: boolean };
    },
    Assignment
  >('assignments.create'),
  get: one<{ course_id: Id; id: Id }, Assignment>('assignments.get'),
};

export const groups = {
  list: paged<{ course_id: Id }, Group>('groups.list'),
};

export const files = {
  get: one<{ id: Id }, Attachment>('files.get'),
};

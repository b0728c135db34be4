// Supporting operations: the reads and creates that workflows need to find their ids.
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { Account, Assignment, Attachment, Course, Group } from '../../spec/types/school.js';

export const accounts = {
  list: op('accounts.list').as<Record<string, never>, Account>(),
  get: op('accounts.get').as<{ id: Id }, Account>(),
};

export const courses = {
  list: op('courses.list').as<{ enrollment_type?: string; state?: string[] }, Course>(),
  listAccount: op('courses.listAccount').as<{ account_id: Id; search_term?: string }, Course>(),
  create: op('courses.create').as<{ account_id: Id; course: { name?: string; course_code?: string; sis_course_id?: string; start_at?: string; end_at?: string; time_zone?: string } }, Course>(),
  get: op('courses.get').as<{ id: Id }, Course>(),
};

export const assignments = {
  list: op('assignments.list').as<{ course_id: Id; search_term?: string }, Assignment>(),
  create: op('assignments.create').as<
    {
      course_id: Id;
      assignment: { name: string; description?: string; points_possible?: number; grading_type?: string; submission_types?: string[]; due_at?: string; grading_standard_id?: number; published?: boolean };
    },
    Assignment
  >(),
  get: op('assignments.get').as<{ course_id: Id; id: Id }, Assignment>(),
};

export const groups = {
  list: op('groups.list').as<{ course_id: Id }, Group>(),
};

export const files = {
  get: op('files.get').as<{ id: Id }, Attachment>(),
};

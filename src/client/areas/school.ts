// Supporting operations: the reads and creates that workflows need to find their ids, and the
// changes and deletes that keep a provisioned course in step with its file.
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { Account, Assignment, AssignmentFields, Attachment, Course, CourseFields, Group } from '../../spec/types/school.js';

export const accounts = {
  list: op('accounts.list').as<Record<string, never>, Account>(),
  get: op('accounts.get').as<{ id: Id }, Account>(),
};

export const courses = {
  list: op('courses.list').as<{ enrollment_type?: string; state?: string[] }, Course>(),
  listAccount: op('courses.listAccount').as<{ account_id: Id; search_term?: string }, Course>(),
  create: op('courses.create').as<{ account_id: Id; course: Omit<CourseFields, 'event'>; offer?: boolean }, Course>(),
  get: op('courses.get').as<{ id: Id }, Course>(),
  update: op('courses.update').as<{ id: Id; course: CourseFields }, Course>(),
};

export const assignments = {
  list: op('assignments.list').as<{ course_id: Id; search_term?: string }, Assignment>(),
  create: op('assignments.create').as<{ course_id: Id; assignment: AssignmentFields & { name: string } }, Assignment>(),
  get: op('assignments.get').as<{ course_id: Id; id: Id }, Assignment>(),
  update: op('assignments.update').as<{ course_id: Id; id: Id; assignment: AssignmentFields }, Assignment>(),
  delete: op('assignments.delete').as<{ course_id: Id; id: Id }, Assignment>(),
};

export const groups = {
  list: op('groups.list').as<{ course_id: Id }, Group>(),
};

export const files = {
  get: op('files.get').as<{ id: Id }, Attachment>(),
};

// The routes the hostile-input suite (hostile.test.ts) attacks: one row per route, a method and a
// sample path that reaches it. A new API area adds its rows here; every payload is tried on each.
import type { RouteId } from '../../src/spec/routes.js';

export interface HostileRoute {
  /** The route id of src/spec/routes.ts, or `unknown` for a path no route matches. */
  id: RouteId | 'unknown';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

export const hostileRoutes: HostileRoute[] = [
  { id: 'users.list', method: 'GET', path: '/api/v1/accounts/1/users' },
  { id: 'users.create', method: 'POST', path: '/api/v1/accounts/1/users' },
  { id: 'users.update', method: 'PUT', path: '/api/v1/users/7' },
  { id: 'users.uploadFile', method: 'POST', path: '/api/v1/users/self/files' },
  { id: 'files.upload', method: 'POST', path: '/files_api/uploads/0123456789abcdef' },
  { id: 'files.confirm', method: 'POST', path: '/api/v1/files/1/create_success' },
  { id: 'files.download', method: 'GET', path: '/files/1/download' },
  { id: 'enrollments.listCourse', method: 'GET', path: '/api/v1/courses/1/enrollments' },
  { id: 'enrollments.enrollCourse', method: 'POST', path: '/api/v1/courses/1/enrollments' },
  { id: 'enrollments.enrollSection', method: 'POST', path: '/api/v1/sections/2/enrollments' },
  { id: 'enrollments.end', method: 'DELETE', path: '/api/v1/courses/1/enrollments/1' },
  { id: 'sections.create', method: 'POST', path: '/api/v1/courses/1/sections' },
  { id: 'sections.update', method: 'PUT', path: '/api/v1/sections/1' },
  { id: 'sections.crosslist', method: 'POST', path: '/api/v1/sections/2/crosslist/5' },
  { id: 'admins.create', method: 'POST', path: '/api/v1/accounts/1/admins' },
  { id: 'admins.delete', method: 'DELETE', path: '/api/v1/accounts/1/admins/2' },
  { id: 'progress.get', method: 'GET', path: '/api/v1/progress/1' },
  { id: 'submissions.submit@courses', method: 'POST', path: '/api/v1/courses/1/assignments/1/submissions' },
  { id: 'submissions.submit@sections', method: 'POST', path: '/api/v1/sections/1/assignments/1/submissions' },
  { id: 'submissions.list@courses', method: 'GET', path: '/api/v1/courses/1/assignments/1/submissions' },
  { id: 'submissions.list@sections', method: 'GET', path: '/api/v1/sections/2/assignments/1/submissions' },
  { id: 'submissions.listStudents@courses', method: 'GET', path: '/api/v1/courses/1/students/submissions' },
  { id: 'submissions.listStudents@sections', method: 'GET', path: '/api/v1/sections/1/students/submissions' },
  { id: 'submissions.get@courses', method: 'GET', path: '/api/v1/courses/1/assignments/1/submissions/7' },
  { id: 'submissions.get@sections', method: 'GET', path: '/api/v1/sections/1/assignments/1/submissions/7' },
  { id: 'submissions.uploadFile@courses', method: 'POST', path: '/api/v1/courses/1/assignments/1/submissions/self/files' },
  { id: 'submissions.uploadFile@sections', method: 'POST', path: '/api/v1/sections/1/assignments/1/submissions/self/files' },
  { id: 'submissions.grade@courses', method: 'PUT', path: '/api/v1/courses/1/assignments/1/submissions/7' },
  { id: 'submissions.grade@sections', method: 'PUT', path: '/api/v1/sections/1/assignments/1/submissions/7' },
  { id: 'grading.updateGrades@courses', method: 'POST', path: '/api/v1/courses/1/assignments/1/submissions/update_grades' },
  { id: 'grading.updateGrades@sections', method: 'POST', path: '/api/v1/sections/1/assignments/1/submissions/update_grades' },
  { id: 'history.days', method: 'GET', path: '/api/v1/courses/1/gradebook_history/days' },
  { id: 'history.day', method: 'GET', path: '/api/v1/courses/1/gradebook_history/2026-09-16' },
  { id: 'history.submissions', method: 'GET', path: '/api/v1/courses/1/gradebook_history/2026-09-16/graders/3/assignments/1/submissions' },
  { id: 'history.feed', method: 'GET', path: '/api/v1/courses/1/gradebook_history/feed' },
  { id: 'unknown', method: 'POST', path: '/api/v1/no/such/route' },
];

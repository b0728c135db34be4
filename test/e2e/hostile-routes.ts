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
  { id: 'quizzes.list', method: 'GET', path: '/api/v1/courses/1/quizzes' },
  { id: 'quizzes.get', method: 'GET', path: '/api/v1/courses/1/quizzes/2' },
  { id: 'quizzes.create', method: 'POST', path: '/api/v1/courses/1/quizzes' },
  { id: 'quizzes.update', method: 'PUT', path: '/api/v1/courses/1/quizzes/1' },
  { id: 'outcomes.rootGroup@global', method: 'GET', path: '/api/v1/global/root_outcome_group' },
  { id: 'outcomes.rootGroup@accounts', method: 'GET', path: '/api/v1/accounts/1/root_outcome_group' },
  { id: 'outcomes.rootGroup@courses', method: 'GET', path: '/api/v1/courses/1/root_outcome_group' },
  { id: 'outcomes.getGroup@global', method: 'GET', path: '/api/v1/global/outcome_groups/8' },
  { id: 'outcomes.getGroup@accounts', method: 'GET', path: '/api/v1/accounts/1/outcome_groups/2' },
  { id: 'outcomes.getGroup@courses', method: 'GET', path: '/api/v1/courses/1/outcome_groups/6' },
  { id: 'outcomes.updateGroup@global', method: 'PUT', path: '/api/v1/global/outcome_groups/8' },
  { id: 'outcomes.updateGroup@accounts', method: 'PUT', path: '/api/v1/accounts/1/outcome_groups/3' },
  { id: 'outcomes.updateGroup@courses', method: 'PUT', path: '/api/v1/courses/1/outcome_groups/6' },
  { id: 'outcomes.deleteGroup@global', method: 'DELETE', path: '/api/v1/global/outcome_groups/8' },
  { id: 'outcomes.deleteGroup@accounts', method: 'DELETE', path: '/api/v1/accounts/1/outcome_groups/3' },
  { id: 'outcomes.deleteGroup@courses', method: 'DELETE', path: '/api/v1/courses/1/outcome_groups/6' },
  { id: 'outcomes.listLinks@global', method: 'GET', path: '/api/v1/global/outcome_groups/8/outcomes' },
  { id: 'outcomes.listLinks@accounts', method: 'GET', path: '/api/v1/accounts/1/outcome_groups/2/outcomes' },
  { id: 'outcomes.listLinks@courses', method: 'GET', path: '/api/v1/courses/1/outcome_groups/6/outcomes' },
  { id: 'outcomes.createOutcome@global', method: 'POST', path: '/api/v1/global/outcome_groups/8/outcomes' },
  { id: 'outcomes.createOutcome@accounts', method: 'POST', path: '/api/v1/accounts/1/outcome_groups/2/outcomes' },
  { id: 'outcomes.createOutcome@courses', method: 'POST', path: '/api/v1/courses/1/outcome_groups/6/outcomes' },
  { id: 'outcomes.linkOutcome@global', method: 'PUT', path: '/api/v1/global/outcome_groups/8/outcomes/6' },
  { id: 'outcomes.linkOutcome@accounts', method: 'PUT', path: '/api/v1/accounts/1/outcome_groups/4/outcomes/1' },
  { id: 'outcomes.linkOutcome@courses', method: 'PUT', path: '/api/v1/courses/1/outcome_groups/6/outcomes/4' },
  { id: 'outcomes.unlinkOutcome@global', method: 'DELETE', path: '/api/v1/global/outcome_groups/8/outcomes/6' },
  { id: 'outcomes.unlinkOutcome@accounts', method: 'DELETE', path: '/api/v1/accounts/1/outcome_groups/3/outcomes/3' },
  { id: 'outcomes.unlinkOutcome@courses', method: 'DELETE', path: '/api/v1/courses/1/outcome_groups/6/outcomes/2' },
  { id: 'outcomes.listSubgroups@global', method: 'GET', path: '/api/v1/global/outcome_groups/7/subgroups' },
  { id: 'outcomes.listSubgroups@accounts', method: 'GET', path: '/api/v1/accounts/1/outcome_groups/1/subgroups' },
  { id: 'outcomes.listSubgroups@courses', method: 'GET', path: '/api/v1/courses/1/outcome_groups/5/subgroups' },
  { id: 'outcomes.createSubgroup@global', method: 'POST', path: '/api/v1/global/outcome_groups/7/subgroups' },
  { id: 'outcomes.createSubgroup@accounts', method: 'POST', path: '/api/v1/accounts/1/outcome_groups/2/subgroups' },
  { id: 'outcomes.createSubgroup@courses', method: 'POST', path: '/api/v1/courses/1/outcome_groups/6/subgroups' },
  { id: 'outcomes.importGroup@global', method: 'POST', path: '/api/v1/global/outcome_groups/7/import' },
  { id: 'outcomes.importGroup@accounts', method: 'POST', path: '/api/v1/accounts/1/outcome_groups/4/import' },
  { id: 'outcomes.importGroup@courses', method: 'POST', path: '/api/v1/courses/1/outcome_groups/5/import' },
  { id: 'unknown', method: 'POST', path: '/api/v1/no/such/route' },
];

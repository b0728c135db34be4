// The routes the hostile-input suite (hostile.test.ts) attacks: every route of the route table, at
// the path its row of test/helpers/route-rows.ts sends an allowed caller to, with the method of the
// table. Every payload is tried on each, against one served school, so a few rows aim elsewhere:
// a write that may get through aims at a record no other row needs.
import { allRoutes, type RouteId } from '../../src/spec/routes.js';
import { ROUTE_ROWS } from '../helpers/route-rows.js';

export interface HostileRoute {
  /** The route id of src/spec/routes.ts, or `unknown` for a path no route matches. */
  id: RouteId | 'unknown';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

const ELSEWHERE: Partial<Record<RouteId, string>> = {
  // Deletes and updates of records no other row needs: a user of no course, an empty section,
  // HIST-110 and its assignments.
  'users.delete': '/api/v1/accounts/1/users/12',
  'sections.delete': '/api/v1/sections/4',
  'courses.update': '/api/v1/courses/3',
  'assignments.update': '/api/v1/courses/3/assignments/6',
  'assignments.delete': '/api/v1/courses/3/assignments/7',
  // Section B, so that section A's roster and submissions stay as the other rows find them.
  'enrollments.enrollSection': '/api/v1/sections/2/enrollments',
  'submissions.list@sections': '/api/v1/sections/2/assignments/1/submissions',
  // The syllabus's first revision, not the notes' that the page rows read.
  'pages.revert': '/api/v1/courses/1/pages/course-syllabus/revisions/1',
  // Without a query: payloads add their own.
  'assignmentGroups.list': '/api/v1/courses/1/assignment_groups',
  'oauth.authorize': '/login/oauth2/auth',
};

export const hostileRoutes: HostileRoute[] = [
  ...allRoutes().map((route) => {
    const row = ROUTE_ROWS[route.id];
    if (row === undefined) throw new Error(`${route.id} has no row in test/helpers/route-rows.ts`);
    return { id: route.id, method: route.method as HostileRoute['method'], path: ELSEWHERE[route.id] ?? row.path };
  }),
  { id: 'unknown', method: 'POST', path: '/api/v1/no/such/route' },
];

// Every mock area, in the order their tables are created and their seeds run (a table's area comes
// after the areas it references). A new area adds its folder and one line here.
import type { OperationId, RouteId } from '../../spec/routes.js';
import { routes } from '../../spec/routes.js';
import type { Handler } from '../kit.js';
import { accountsArea } from './accounts/index.js';
import { adminsArea } from './admins/index.js';
import type { MockArea } from './area.js';
import { assignmentsArea } from './assignments/index.js';
import { coursesArea } from './courses/index.js';
import { enrollmentsArea } from './enrollments/index.js';
import { filesArea } from './files/index.js';
import { groupsArea } from './groups/index.js';
import { progressArea } from './progress/index.js';
import { sectionsArea } from './sections/index.js';
import { submissionsArea } from './submissions/index.js';
import { usersArea } from './users/index.js';

export const areas: readonly MockArea[] = [
  accountsArea,
  usersArea,
  adminsArea,
  coursesArea,
  sectionsArea,
  enrollmentsArea,
  assignmentsArea,
  groupsArea,
  filesArea,
  progressArea,
  submissionsArea,
];

/** The behaviour of each route: an area's handler for the route's operation (or, rarely, for the route itself). */
export const handlers: Partial<Record<RouteId, Handler>> = {};
for (const route of routes) {
  for (const area of areas) {
    const handler = area.handlers[route.id] ?? area.handlers[route.operation as OperationId];
    if (handler) handlers[route.id] = handler;
  }
}

export const publicRoutes = new Set<string>(areas.flatMap((a) => a.publicRoutes ?? []));

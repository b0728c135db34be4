// Every mock area, in the order their tables are created and their seeds run (a table's area comes
// after the areas it references). A new area adds its folder and one line here.
import type { OperationId, RouteId } from '../../spec/routes.js';
import { routes } from '../../spec/routes.js';
import type { Handler } from '../kit.js';
import { accountsArea } from './accounts/index.js';
import { adminsArea } from './admins/index.js';
import type { MockArea, StreamPresenter } from './area.js';
import { activityArea } from './activity/index.js';
import { assignmentsArea } from './assignments/index.js';
import { calendarArea } from './calendar/index.js';
import { conversationsArea } from './conversations/index.js';
import { coursesArea } from './courses/index.js';
import { discussionsArea } from './discussions/index.js';
import { enrollmentsArea } from './enrollments/index.js';
import { filesArea } from './files/index.js';
import { groupsArea } from './groups/index.js';
import { progressArea } from './progress/index.js';
import { searchArea } from './search/index.js';
import { sectionsArea } from './sections/index.js';
import { submissionsArea } from './submissions/index.js';
import { todoArea } from './todo/index.js';
import { usersArea } from './users/index.js';
import { quizzesArea } from './quizzes/index.js';
import { outcomesArea } from './outcomes/index.js';

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
  // Before the areas whose seeds add assignments of their own: its seed's assignments have fixed ids.
  submissionsArea,
  discussionsArea,
  progressArea,
  calendarArea,
  searchArea,
  conversationsArea,
  quizzesArea,
  outcomesArea,
  todoArea,
  activityArea,
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

/** How each kind of activity stream item is shown, from the area that owns its assets. */
export const streamPresenters: Record<string, StreamPresenter> = Object.assign({}, ...areas.map((a) => a.streamItems ?? {}));

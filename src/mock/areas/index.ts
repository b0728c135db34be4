// Every mock area, in the order their tables are created and their seeds run (a table's area comes
// after the areas it references). A new area adds its folder and one line here.
import type { OperationId, Route, RouteId } from '../../spec/routes.js';
import { allRoutes } from '../../spec/routes.js';
import type { AreaBehaviour, MockArea, OtherAreas, StreamPresenter } from '../area.js';
import { schemaOf } from '../db/schema.js';
import type { Handler } from '../kit.js';
import { accountsArea } from './accounts/index.js';
import { adminsArea } from './admins/index.js';
import { activityArea } from './activity/index.js';
import { assignmentGroupsArea } from './assignment-groups/index.js';
import { assignmentsArea } from './assignments/index.js';
import { calendarArea } from './calendar/index.js';
import { conversationsArea } from './conversations/index.js';
import { coursesArea } from './courses/index.js';
import { discussionsArea } from './discussions/index.js';
import { enrollmentsArea } from './enrollments/index.js';
import { filesArea } from './files/index.js';
import { groupsArea } from './groups/index.js';
import { oauthArea } from './oauth/index.js';
import { progressArea } from './progress/index.js';
import { searchArea } from './search/index.js';
import { sectionsArea } from './sections/index.js';
import { sisArea } from './sis/index.js';
import { termsArea } from './terms/index.js';
import { submissionsArea } from './submissions/index.js';
import { todoArea } from './todo/index.js';
import { usersArea } from './users/index.js';
import { quizzesArea } from './quizzes/index.js';
import { rubricsArea } from './rubrics/index.js';
import { outcomesArea } from './outcomes/index.js';
import { modulesArea } from './modules/index.js';
import { pagesArea } from './pages/index.js';

export const areas: readonly MockArea[] = [
  accountsArea,
  usersArea,
  oauthArea,
  adminsArea,
  coursesArea,
  sectionsArea,
  enrollmentsArea,
  // Before assignments: each assignment names its group.
  assignmentGroupsArea,
  assignmentsArea,
  groupsArea,
  filesArea,
  // Before the areas whose seeds add assignments of their own: its seed's assignments have fixed ids.
  submissionsArea,
  // After submissions: its assessments are of submissions.
  rubricsArea,
  discussionsArea,
  progressArea,
  calendarArea,
  searchArea,
  conversationsArea,
  quizzesArea,
  outcomesArea,
  // After every area whose content a module's items show.
  modulesArea,
  todoArea,
  activityArea,
  sisArea,
  termsArea,
  pagesArea,
];

/**
 * The schema's version as the build computed it from this same text (scripts/build.mjs), so no
 * `--mock` command hashes the whole schema's SQL. Undefined when run from source.
 */
declare const __LMS_MOCK_SCHEMA_VERSION__: number | undefined;

/** Every table of the mock: what opening a database builds when it is new or of another version. */
export const mockSchema = schemaOf(
  areas.map((a) => a.schema),
  typeof __LMS_MOCK_SCHEMA_VERSION__ === 'number' ? __LMS_MOCK_SCHEMA_VERSION__ : undefined,
  areas.flatMap((a) => a.carried ?? []),
);

/** The search indexes a bulk load defers (`withIndexesDeferred`). */
export const bulkIndexes = areas.flatMap((a) => a.bulkIndexes ?? []);

const owners = new Map<string, MockArea>();
for (const area of areas) for (const operation of area.operations ?? []) owners.set(operation, area);
const byName = new Map(areas.map((area) => [area.name, area]));

const loading = new Map<MockArea, Promise<AreaBehaviour>>();

// Handed to each area as it loads, so that no area imports this list of all areas back.
const others: OtherAreas = {
  async streamPresenters() {
    const presenting = await Promise.all(areas.filter((a) => a.streamTypes?.length).map(loadArea));
    return Object.assign({}, ...presenting.map((b) => b.streamItems)) as Record<string, StreamPresenter>;
  },
};

function loadArea(area: MockArea): Promise<AreaBehaviour> {
  let behaviour = loading.get(area);
  if (!behaviour) {
    behaviour = area.load(others);
    loading.set(area, behaviour);
  }
  return behaviour;
}

/** The handler of a route: its area's, for the route itself or its operation; undefined if none answers it. */
export async function handlerFor(route: Route): Promise<Handler | undefined> {
  const area = owners.get(route.id) ?? owners.get(route.operation) ?? byName.get(route.area);
  if (!area) return undefined;
  const { handlers } = await loadArea(area);
  return handlers[route.id as RouteId] ?? handlers[route.operation as OperationId];
}

/** Which routes have a handler, every area loaded (the coverage test asks). */
export async function answeredRoutes(): Promise<Set<RouteId>> {
  const answered = new Set<RouteId>();
  for (const route of allRoutes()) if (await handlerFor(route)) answered.add(route.id as RouteId);
  return answered;
}

export const publicRoutes = new Set<string>(areas.flatMap((a) => a.publicRoutes ?? []));

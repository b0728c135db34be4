// Every area's behaviour, keyed by route id. A new area adds its file and one line here.
import type { RouteId } from '../../spec/routes.js';
import type { Handler } from '../kit.js';
import { filesHandlers, filesPublicRoutes } from './files.js';
import { schoolHandlers } from './school.js';
import { usersHandlers } from './users.js';

export const handlers: Partial<Record<RouteId, Handler>> = {
  ...usersHandlers,
  ...schoolHandlers,
  ...filesHandlers,
};

export const publicRoutes = new Set<string>(filesPublicRoutes);

// What a mock area is: its tables, its behaviour per operation, and its part of the seeded school.
// An area's SQL lives only in its repo.ts; handlers.ts reads requests and shapes replies.
import type { OperationId, RouteId } from '../../spec/routes.js';
import type { Db } from '../db/open.js';
import type { Handler } from '../kit.js';

export interface SeedOptions {
  /** Only the root account and its admin (`lms mock reset`). */
  minimal: boolean;
  /** The seeded school's clock: when its records were created (fixed, so ids and dates are stable). */
  now: string;
  /** The mock's clock when seeding (LMS_MOCK_NOW or the real time): what "soon" means for seeded events. */
  clock: string;
}

export interface MockArea {
  name: string;
  /** The area's tables and indexes. */
  schema: string;
  /** One handler per operation; every context variant of the operation shares it. */
  handlers: Partial<Record<OperationId | RouteId, Handler>>;
  /** Routes that carry their own credential instead of a bearer token. */
  publicRoutes?: RouteId[];
  /** The area's part of the seeded school, written through its repository. Areas seed in list order. */
  seed?(db: Db, options: SeedOptions): void;
}

export const defineArea = (area: MockArea) => area;

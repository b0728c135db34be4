// What a mock area is: its tables, its behaviour per operation, and its part of the seeded school.
// An area's SQL lives only in its repo.ts; handlers.ts reads requests and shapes replies.
import type { OperationId, RouteId } from '../../spec/routes.js';
import type { Db } from '../db/open.js';
import type { Handler, MockCtx } from '../kit.js';

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
  /** How the area's assets look in an activity stream, by stream item type (`DiscussionTopic`, …). */
  streamItems?: Record<string, StreamPresenter>;
  /** The area's part of the seeded school, written through its repository. Areas seed in list order. */
  seed?(db: Db, options: SeedOptions): void;
}

/**
 * One stream item as its user sees it: the title, message and URL, the type's own fields, and the
 * read state when the asset keeps its own (a topic's, a conversation's). Undefined when the asset
 * is gone or no longer visible to the user: the item is left out.
 */
export type StreamPresenter = (
  ctx: MockCtx,
  item: { asset_id: number; context_type: string | null; context_id: number | null },
) => ({ title: string; message: string | null; html_url: string; read_state?: boolean; type?: string } & Record<string, unknown>) | undefined;

export const defineArea = (area: MockArea) => area;

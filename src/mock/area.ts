// What a mock area is: its tables, its behaviour per operation, and its part of the seeded school.
// An area's SQL lives only in its repo.ts; handlers.ts reads requests and shapes replies. The
// operations an area answers are data, and its handlers load on the first request for one of them,
// so a process serving one request does not load seventeen areas' behaviour. The framework knows no
// area: what an area needs of the others the registry hands it as it loads (`OtherAreas`).
import type { OperationId, RouteId } from '../spec/routes.js';
import type { BulkIndex } from './db/bulk.js';
import type { Db } from './db/open.js';
import type { Handler, MockCtx } from './kit.js';

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
  /**
   * SQL run once the rows of a database of another schema are carried into this one: fills in what
   * the area's carried rows lack (a column they had no value for).
   */
  carried?: string;
  /**
   * What the area answers beyond the operations of the route table's area of its name, which are
   * its own unless another area names them here: operations (or, rarely, single routes).
   */
  operations?: readonly (OperationId | RouteId)[];
  /** Its behaviour, loaded on first use: one handler per operation (every context variant shares it). */
  load(others: OtherAreas): Promise<AreaBehaviour>;
  /** The activity stream item types its behaviour presents. */
  streamTypes?: readonly string[];
  /** Routes that carry their own credential instead of a bearer token. */
  publicRoutes?: RouteId[];
  /** Search indexes the area keeps by triggers, which a bulk load defers. */
  bulkIndexes?: BulkIndex[];
  /**
   * The area's part of the seeded school, written through its repository; areas seed in list order.
   * Loaded only when a database is created or reseeded: opening an existing one does not pay for it.
   */
  seed?(): Promise<Seeder>;
}

type Seeder = (db: Db, options: SeedOptions) => void;

/** What an area's behaviour may need of the other areas as it loads: the registry hands it in. */
export interface OtherAreas {
  /** How each kind of stream item is shown, by type, from the areas that present them (loaded first). */
  streamPresenters(): Promise<Readonly<Record<string, StreamPresenter>>>;
}

export interface AreaBehaviour {
  handlers: Partial<Record<OperationId | RouteId, Handler>>;
  /** How the area's assets look in an activity stream, by stream item type (`DiscussionTopic`, …). */
  streamItems?: Record<string, StreamPresenter>;
}

/**
 * One stream item as its user sees it: the title, message and URL, the type's own fields, and the
 * read state when the asset keeps its own (a topic's, a conversation's). Undefined when the asset
 * is gone or no longer visible to the user: the item is left out.
 */
export type StreamPresenter = (
  ctx: MockCtx,
  item: { asset_id: number; context_type: string | null; context_id: number | null },
) =>
  | ({ title: string; message: string | null; html_url: string; read_state?: boolean; type?: string } & Record<
      string,
      unknown
    >)
  | undefined;

export const defineArea = (area: MockArea) => area;

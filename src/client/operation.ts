// The client's operations, derived from the route table as octokit derives its methods from its
// endpoint table: every route a client sends is `client.ops.<area>.<name>(params)`, typed by
// Endpoints, iterated when its route pages and called once when it does not.
import {
  clientAreas,
  clientOperations,
  type ClientOperationId,
  type OperationId,
  type PagedOperationId,
} from '../spec/routes.js';
import type { Endpoints } from '../spec/types/endpoints.js';
import type { Params } from './encode.js';

type AreaOf<K> = K extends `${infer A}.${string}` ? A : never;

/** One operation's call: an async list when its route pages, one answer when it does not. */
type Call<K extends ClientOperationId> = K extends PagedOperationId
  ? (params: Endpoints[K]['params'], options?: { limit?: number }) => AsyncGenerator<Endpoints[K]['result']>
  : (params: Endpoints[K]['params']) => Promise<Endpoints[K]['result']>;

/** Every client operation, by area and name: `ops.sections.crosslist` is the route `sections.crosslist`. */
export type Ops = {
  readonly [A in AreaOf<ClientOperationId>]: {
    readonly [K in ClientOperationId as K extends `${A}.${infer N}` ? N : never]: Call<K>;
  };
};

export interface Caller {
  request<T>(operation: OperationId, params: Params): Promise<T>;
  paginate<T>(operation: OperationId, params: Params, options?: { limit?: number }): AsyncGenerator<T>;
}

/** The areas a client names, read off the tables once per process: a context variant adds none. */
let areas: readonly string[] | undefined;

/**
 * The operations bound to one caller. An area's calls are made when it is first used, and only
 * its rows of the tables are read: a command calls one or two areas, and reading every route's
 * row, let alone building its call, cost start-up time.
 */
export function bindOperations(caller: Caller): Ops {
  const ops = {};
  areas ??= clientAreas();
  for (const area of areas) {
    Object.defineProperty(ops, area, {
      enumerable: true,
      configurable: true,
      get() {
        const bound = bindArea(caller, area);
        Object.defineProperty(ops, area, { value: bound, enumerable: true });
        return bound;
      },
    });
  }
  return ops as Ops;
}

function bindArea(caller: Caller, area: string): Record<string, unknown> {
  const bound: Record<string, unknown> = {};
  // A call with context variants picks its route from the context it is given (ApiClient.resolve).
  for (const { name, paginated: paged } of clientOperations(area)) {
    const operation = `${area}.${name}` as OperationId;
    bound[name] = paged
      ? (params: Params, options?: { limit?: number }) => caller.paginate(operation, params, options)
      : (params: Params) => caller.request(operation, params);
  }
  return bound;
}

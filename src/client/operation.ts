// The client's operations, derived from the route table as octokit derives its methods from its
// endpoint table: every route a client sends is `client.ops.<area>.<name>(params)`, typed by
// Endpoints, iterated when its route pages and called once when it does not.
import { operationRows, type ClientOperationId, type OperationId, type PagedOperationId } from '../spec/routes.js';
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

/** Each area's calls to make, read off the table once per process: a context variant adds none. */
let byArea: Map<string, Map<string, { operation: OperationId; paged: boolean }>> | undefined;

function callsByArea(): NonNullable<typeof byArea> {
  if (byArea) return byArea;
  byArea = new Map();
  for (const r of operationRows()) {
    if (!r.client) continue;
    const calls = byArea.get(r.area) ?? byArea.set(r.area, new Map()).get(r.area)!;
    calls.set(r.name, { operation: `${r.area}.${r.name}` as OperationId, paged: r.paginated });
  }
  return byArea;
}

/**
 * The operations bound to one caller. An area's calls are made when it is first used, not when the
 * client is: a command calls one or two areas, and building every route's call cost start-up time.
 */
export function bindOperations(caller: Caller): Ops {
  const ops = {};
  for (const [area, calls] of callsByArea()) {
    Object.defineProperty(ops, area, {
      enumerable: true,
      configurable: true,
      get() {
        const bound = bindArea(caller, calls);
        Object.defineProperty(ops, area, { value: bound, enumerable: true });
        return bound;
      },
    });
  }
  return ops as Ops;
}

function bindArea(caller: Caller, calls: ReadonlyMap<string, { operation: OperationId; paged: boolean }>): Record<string, unknown> {
  const bound: Record<string, unknown> = {};
  // A call with context variants picks its route from the context it is given (ApiClient.resolve).
  for (const [name, { operation, paged }] of calls) {
    bound[name] = paged
      ? (params: Params, options?: { limit?: number }) => caller.paginate(operation, params, options)
      : (params: Params) => caller.request(operation, params);
  }
  return bound;
}

// Typed operations over the route table: an area file lists its operations as data
// (`list: paged<ListUsersParams, User>('users.list')`), and the client binds them to calls.
import { variantsOf, type OperationId, type PagedOperationId } from '../spec/routes.js';
import type { ApiResponse, HttpMethod } from '../transport/types.js';
import type { Encoding, Params } from './encode.js';

/** How an operation treats answers other than success, beyond what the transport retries. */
export interface OpPolicy {
  /**
   * A 503 means "not ready yet, ask again soon" (a view the server builds after a write): the
   * client asks again itself, with short growing waits, before reporting it.
   */
  retryUnavailable?: boolean;
  /**
   * Parameters that make the request add something each time it is applied (a comment with a
   * grade): with any of them the request is not resent when its outcome is unknown.
   */
  appends?: readonly string[];
}

export interface Op<P, R, K extends 'one' | 'paged'> {
  readonly kind: K;
  readonly operation: OperationId;
  readonly encoding?: Encoding;
  readonly policy?: OpPolicy;
  /** Phantom: carries the parameter and result types. */
  readonly types?: (p: P) => R;
}

/** Whether an operation pages, from the route table: a paginated route is iterated, any other called once. */
export type KindOf<O extends OperationId> = O extends PagedOperationId ? 'paged' : 'one';

/**
 * An operation of the route table with its parameter and result types:
 * `op('users.list').as<ListUsersParams, User>()`. Whether it pages is the table's to say.
 */
export function op<const O extends OperationId>(operation: O, encoding?: Encoding, policy?: OpPolicy) {
  return {
    as: <P, R>(): Op<P, R, KindOf<O>> => ({ kind: (variantsOf(operation)[0]?.paginated ? 'paged' : 'one') as KindOf<O>, operation, encoding, policy }),
  };
}

type AnyOp = Op<never, unknown, 'one' | 'paged'>;

export type Bound<T> = {
  [K in keyof T]: T[K] extends Op<infer P, infer R, 'paged'>
    ? (params: P, options?: { limit?: number }) => AsyncGenerator<R>
    : T[K] extends Op<infer P, infer R, 'one'>
      ? (params: P) => Promise<R>
      : never;
};

export interface Caller {
  request<T>(operation: OperationId, params: Params, encoding?: Encoding, policy?: OpPolicy): Promise<T>;
  paginate<T>(operation: OperationId, params: Params, options?: { limit?: number }): AsyncGenerator<T>;
}

export function bind<T extends Record<string, AnyOp>>(caller: Caller, ops: T): Bound<T> {
  const bound: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(ops)) {
    bound[name] =
      op.kind === 'paged'
        ? (params: Params, options?: { limit?: number }) => caller.paginate(op.operation, params, options)
        : (params: Params) => caller.request(op.operation, params, op.encoding, op.policy);
  }
  return bound as Bound<T>;
}

/**
 * One request whose whole response the caller reads, for the rare operation whose news is in a
 * header rather than the body. The client is one; an area asks for this and not for the client,
 * because the client binds every area's operations and so must not be imported by them.
 */
export interface Sender {
  send(method: HttpMethod, pathOrUrl: string, options?: { body?: Params }): Promise<ApiResponse>;
}

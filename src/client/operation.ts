// Typed operations over the route table: an area file lists its operations as data
// (`list: paged<ListUsersParams, User>('users.list')`), and the client binds them to calls.
import type { OperationId } from '../spec/routes.js';
import type { Encoding, Params } from './encode.js';

export interface Op<P, R, K extends 'one' | 'paged'> {
  readonly kind: K;
  readonly operation: OperationId;
  readonly encoding?: Encoding;
  /** Phantom: carries the parameter and result types. */
  readonly types?: (p: P) => R;
}

export const one = <P, R>(operation: OperationId, encoding?: Encoding): Op<P, R, 'one'> => ({ kind: 'one', operation, encoding });
export const paged = <P, R>(operation: OperationId): Op<P, R, 'paged'> => ({ kind: 'paged', operation });

type AnyOp = Op<never, unknown, 'one' | 'paged'>;

export type Bound<T> = {
  [K in keyof T]: T[K] extends Op<infer P, infer R, 'paged'>
    ? (params: P, options?: { limit?: number }) => AsyncGenerator<R>
    : T[K] extends Op<infer P, infer R, 'one'>
      ? (params: P) => Promise<R>
      : never;
};

export interface Caller {
  request<T>(operation: OperationId, params: Params, encoding?: Encoding): Promise<T>;
  paginate<T>(operation: OperationId, params: Params, options?: { limit?: number }): AsyncGenerator<T>;
}

export function bind<T extends Record<string, AnyOp>>(caller: Caller, ops: T): Bound<T> {
  const bound: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(ops)) {
    bound[name] =
      op.kind === 'paged'
        ? (params: Params, options?: { limit?: number }) => caller.paginate(op.operation, params, options)
        : (params: Params) => caller.request(op.operation, params, op.encoding);
  }
  return bound as Bound<T>;
}

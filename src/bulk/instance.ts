// Which instance, in which state, a bulk job runs against: what its journal is bound to.
import type { Context } from '../model/context.js';
import type { ApiClient } from '../client/client.js';
import { readBody } from '../client/parse.js';
import { pathOf, route } from '../spec/routes.js';
import { INSTANCE_HEADER } from '../transport/types.js';

export interface Instance {
  /** Where: the base URL, or the mock's database file. */
  where: string;
  /**
   * The state the instance says it is in: the mock's id, which `lms mock seed` and `mock reset`
   * change. Real instances name none, so what a journal says about them has to be checked.
   */
  state?: string;
  /** The caller's user id (whom comments the job posts are by), when the answer names it. */
  self?: number;
}

/**
 * One cheap request before any row — who am I (GET users/self) — that fails early on a bad token
 * (exit 3, nothing sent) and reads the instance's state from the answer's headers.
 */
export async function identifyInstance(ctx: Context, client: ApiClient): Promise<Instance> {
  const res = await client.send(route('users.get').method, pathOf('users.get', { id: 'self' }), {
    subject: 'user self',
  });
  const state = res.headers[INSTANCE_HEADER]?.trim() || undefined;
  const where = ctx.mockMode ? `mock:${(await ctx.mock()).path}` : client.baseUrl;
  let self: number | undefined;
  try {
    const answer = readBody(res);
    const id = typeof answer === 'object' && answer !== null ? (answer as { id?: unknown }).id : undefined;
    if (typeof id === 'number') self = id;
  } catch {
    // Who the caller is only sharpens what a job reads back; an answer without it leaves it unknown.
  }
  return { where, state, ...(self !== undefined ? { self } : {}) };
}

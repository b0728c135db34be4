// The context of an outcomes request (global, an account, a course), the accounts related to it, and
// the group a request names in it.
import { invalid, notFound, numericId, str, type MockCtx } from '../../kit.js';
import { text, textFault } from '../../fields.js';
import { permit } from '../access.js';
import type { ParamsObject } from '../../decode.js';
import { accountById, accountChain } from '../../school/accounts/repo.js';
import { mayEditOutcomes, mayReadOutcomes } from './policy.js';
import { courseById } from '../../school/courses/repo.js';
import { ensureRootGroup, groupById, rootGroupOf, type GroupRow, type OutcomeContextRef } from './repo.js';

const TITLE = text({ required: true });

// ---- contexts and rights ----------------------------------------------------------------------

/** The route's context as the outcome tables name it. */
function routeContext(ctx: MockCtx): OutcomeContextRef {
  const c = ctx.context!;
  return c.type === 'account'
    ? { type: 'Account', id: c.id }
    : c.type === 'course'
      ? { type: 'Course', id: c.id }
      : { type: null, id: null };
}

export const sameContext = (a: OutcomeContextRef, b: { context_type: string | null; context_id: number | null }) =>
  a.type === b.context_type && a.id === b.context_id;

export const contextOf = (row: {
  context_type: OutcomeContextRef['type'];
  context_id: number | null;
}): OutcomeContextRef => ({
  type: row.context_type,
  id: row.context_id,
});

/** `accounts/1`, `courses/2` or `global`: where a context's URLs live. */
export function segment(c: OutcomeContextRef): string {
  return c.type === 'Account' ? `accounts/${c.id}` : c.type === 'Course' ? `courses/${c.id}` : 'global';
}

export function describe(c: OutcomeContextRef): string {
  return c.type === null ? 'the global context' : `${c.type.toLowerCase()} ${c.id}`;
}

/** The accounts an outcome may come from to be linked in a context: the context's own account chain. */
function relatedAccounts(ctx: MockCtx, c: OutcomeContextRef): number[] {
  if (c.type === 'Account') return accountChain(ctx.db, c.id!);
  if (c.type === 'Course') return accountChain(ctx.db, courseById(ctx.db, c.id!)!.account_id);
  return [];
}

/** An outcome or group of `owner` may be used in context `c`: the same context, an account above it, or global. */
export function isRelated(ctx: MockCtx, c: OutcomeContextRef, owner: OutcomeContextRef): boolean {
  if (owner.type === null) return true;
  if (owner.type === c.type && owner.id === c.id) return true;
  return owner.type === 'Account' && relatedAccounts(ctx, c).includes(owner.id!);
}

// ---- reading requests -------------------------------------------------------------------------

/** The route's context, which the caller may read (and, with `edit`, change). */
export function contextFor(ctx: MockCtx, options: { edit: boolean }): OutcomeContextRef {
  const c = routeContext(ctx);
  permit(mayReadOutcomes(ctx, c));
  if (options.edit) permit(mayEditOutcomes(ctx, c));
  return c;
}

/** The path's group, which must belong to the route's context (another context's group does not exist here). */
export function groupIn(ctx: MockCtx, c: OutcomeContextRef): GroupRow {
  const id = numericId(ctx.path.id);
  const group = id === undefined ? undefined : groupById(ctx.db, id);
  if (!group || !sameContext(c, group)) throw notFound();
  return group;
}

export function title(p: ParamsObject, name = 'title'): string | undefined {
  const raw = str(p, name);
  if (raw === undefined) return undefined;
  const t = raw.trim();
  const fault = textFault(TITLE, t);
  if (fault) throw invalid(undefined, name, fault.type, `${name} ${fault.message}`);
  return t;
}

function rootTitle(ctx: MockCtx, c: OutcomeContextRef): string {
  if (c.type === 'Account') return accountById(ctx.db, c.id!)?.name ?? `Account ${c.id}`;
  if (c.type === 'Course') return courseById(ctx.db, c.id!)?.name ?? `Course ${c.id}`;
  return 'ROOT';
}

/** The context's root group, made on first need. */
export function ensureRoot(ctx: MockCtx, c: OutcomeContextRef): GroupRow {
  return rootGroupOf(ctx.db, c) ?? ensureRootGroup(ctx.db, c, rootTitle(ctx, c), ctx.now());
}

// Who may read and change a context's outcomes, as data: each kind of context and the row asked of
// it. The handlers ask `mayReadOutcomes` and `mayEditOutcomes` (answered once a request); none of them writes the
// rule for itself. Global outcomes are read by anyone and changed by the site admin, whose right is
// held on the instance's root account.
import { once, type MockCtx } from '../../kit.js';
import { allows } from '../access.js';
import { courseById } from '../../school/courses/repo.js';
import { domainRootAccountId } from '../lookup.js';
import type { Rule } from '../permissions.js';
import type { OutcomeContextRef } from './repo.js';

const outcomesPolicy = {
  read: {
    /** An account's: its admins and above, and whoever manages outcomes there. */
    Account: { anyOf: ['manage_outcomes'], admin: true },
    /** A course's: whoever reads the course, and whoever manages outcomes there. */
    Course: { anyOf: ['manage_outcomes'], admin: true, member: true },
  },
  /** `can_edit`: managing outcomes on the owning context; global ones need the site admin's right. */
  edit: { global: ['manage_global_outcomes'], Account: ['manage_outcomes'], Course: ['manage_outcomes'] },
} as const satisfies { read: Record<'Account' | 'Course', Rule>; edit: Record<'global' | 'Account' | 'Course', Rule> };

/** Asks the row of `c`'s kind of the context itself; a course that does not exist allows nothing. */
function ask(
  ctx: MockCtx,
  rows: Partial<Record<'global' | 'Account' | 'Course', Rule>>,
  c: OutcomeContextRef,
): boolean {
  if (c.type === null)
    return rows.global === undefined || allows(ctx, rows.global, { account: { id: domainRootAccountId(ctx.db) } });
  if (c.type === 'Account') return allows(ctx, rows.Account!, { account: { id: c.id! } });
  const course = courseById(ctx.db, c.id!);
  return course !== undefined && allows(ctx, rows.Course!, { course });
}

export function mayReadOutcomes(ctx: MockCtx, c: OutcomeContextRef): boolean {
  return once(ctx, `outcomes:read:${c.type}:${c.id}`, () => ask(ctx, outcomesPolicy.read, c));
}

export function mayEditOutcomes(ctx: MockCtx, c: OutcomeContextRef): boolean {
  return once(ctx, `outcomes:edit:${c.type}:${c.id}`, () => ask(ctx, outcomesPolicy.edit, c));
}

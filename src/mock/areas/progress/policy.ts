// Who may read a job's progress, as data: whoever started it, and whoever may read the job's context
// (a course's members and the admins above it, an account's admins, a user's own). The handler asks
// `mayReadProgress`; it writes no rule for itself.
import type { ProgressRow } from '../../jobs.js';
import type { MockCtx } from '../../kit.js';
import { allows } from '../access.js';
import { courseById } from '../../school/courses/repo.js';
import { READ_COURSE, type Rule } from '../permissions.js';

const progressPolicy = {
  /** A course's job: whoever reads the course. */
  Course: READ_COURSE,
  /** An account's job: anyone holding an admin role on it or above it. */
  Account: { anyOf: [], admin: true },
} as const satisfies Record<string, Rule>;

export function mayReadProgress(ctx: MockCtx, p: ProgressRow): boolean {
  if (p.user_id === ctx.caller.id) return true;
  switch (p.context_type) {
    case 'User':
      return p.context_id === ctx.caller.id;
    case 'Course': {
      const course = courseById(ctx.db, p.context_id);
      return !!course && allows(ctx, progressPolicy.Course, { course });
    }
    case 'Account':
      return allows(ctx, progressPolicy.Account, { account: { id: p.context_id } });
    default:
      return false;
  }
}

// Who may put an event on which calendar, as data: a course's by the row its content managers hold
// (access.ts's `canManageContent`), a group's by membership, a user's only by that user. The
// handlers ask `mayAddTo`; none of them writes the rule for itself.
import type { MockCtx } from '../../kit.js';
import { canManageContent } from '../access.js';
import { findCourse } from '../lookup.js';
import { contextsOfUser, type EventContextType } from './repo.js';

export function mayAddTo(ctx: MockCtx, type: EventContextType, id: number): boolean {
  switch (type) {
    case 'User':
      return id === ctx.caller.id;
    case 'Group':
      return contextsOfUser(ctx.db, ctx.caller.id).groups.includes(id);
    case 'Course':
      return canManageContent(ctx, findCourse(ctx, String(id)));
  }
}

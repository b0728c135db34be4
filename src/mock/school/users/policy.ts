// Who may see and change a user, as data: each action and the account permissions any one of which
// allows it, and the relations that let one user reach another (oneself, a shared course, an admin
// role over an account the user is within). The handlers ask a row through access.ts (`allows`,
// `demand`) or ask `maySee`, `mayManage` and `personalRights` here; none of them writes the rule
// for itself.
import { once, type MockCtx, type UserRow } from '../../kit.js';
import { allows } from '../../areas/access.js';
import { activeAdminRoles } from '../../areas/admins/repo.js';
import { shareACourse, sharedCourses } from '../enrollments/repo.js';
import { domainRootAccountId } from '../../areas/lookup.js';
import { ALL, grantsAny, permissionsIn, READ_SIS, type Permission, type Rule } from '../../areas/permissions.js';
import { userWithinAccount } from './repo.js';

export const usersPolicy = {
  /** An account's users, asked of the account (`/accounts/:id/users`). */
  list: ['read_roster'],
  /** A course's users (`/courses/:id/users`): whoever reads its roster, limited to their sections. */
  listCourse: ['read_roster'],
  /** Another user's record and profile, through an admin role over an account the user is within. */
  see: ['read_roster'],
  /** Creating a user with a login in the account; and changing or deleting one, with the checks of `mayManage`. */
  manage: ['manage_user_logins'],
  /** Giving a new user's login a SIS id. */
  setSis: ['manage_sis'],
  /** A user's page views: the user, or whoever views statistics on the root account. */
  pageViews: { anyOf: ['view_statistics'], self: true },
  /** Seeing users' SIS ids, asked of the root account (or of a course the two share). */
  readSis: READ_SIS,
  /** Seeing users' logins and email addresses, asked of the root account: the SIS readers and the helpdesk. */
  readLogins: ['read_sis', 'manage_sis', 'manage_user_logins'],
} as const satisfies Record<string, Rule>;

/** The instance's root account, where a user's rows are asked unless a route names an account. */
export const atRoot = (ctx: MockCtx) => ({ account: { id: domainRootAccountId(ctx.db) } });

/**
 * Does the caller hold any of `anyOf` through an admin role on an account the user is within (a
 * login there, or an enrollment or admin role in it or below)? A sub-account's admin reads the
 * students of its courses, not the rest of the instance.
 */
function administersUser(ctx: MockCtx, targetId: number, anyOf: readonly Permission[]): boolean {
  return activeAdminRoles(ctx.db, ctx.caller.id).some(
    (role) => grantsAny(role.permissions, anyOf) && userWithinAccount(ctx.db, targetId, role.accountId),
  );
}

/** Oneself, an admin who may read rosters over an account the user is within, or someone sharing a course. */
export function maySee(ctx: MockCtx, target: UserRow): boolean {
  return (
    target.id === ctx.caller.id ||
    administersUser(ctx, target.id, usersPolicy.see) ||
    shareACourse(ctx.db, ctx.caller.id, target.id)
  );
}

/**
 * May the caller list the user's logins: oneself, or an admin who reads logins over an account the
 * user is within (pseudonyms_controller#index asks the user's :read; the logins are what it shows).
 */
export function mayReadLogins(ctx: MockCtx, target: UserRow): boolean {
  return target.id === ctx.caller.id || administersUser(ctx, target.id, usersPolicy.readLogins);
}

/**
 * May the caller change or delete another user's record, acting in `accountId` (the instance's root
 * account unless a route names one)? As real instances rule: the caller manages logins there, the
 * user is within that account's reach, and the user holds no admin right the caller lacks where the
 * user holds it (a sub-account admin cannot touch the root's admins; a helpdesk role cannot touch an
 * AccountAdmin). Oneself, always.
 */
export function mayManage(ctx: MockCtx, target: UserRow, accountId = domainRootAccountId(ctx.db)): boolean {
  if (ctx.caller.id === target.id) return true;
  if (!allows(ctx, usersPolicy.manage, { account: { id: accountId } })) return false;
  if (!userWithinAccount(ctx.db, target.id, accountId)) return false;
  return activeAdminRoles(ctx.db, target.id).every((held) => {
    const mine = permissionsIn(ctx.db, ctx.caller.id, { account: { id: held.accountId } });
    return mine.has(ALL) || (!held.permissions.includes(ALL) && held.permissions.every((p) => mine.has(p)));
  });
}

/**
 * What of the user's personal data the caller may see, as real instances decide it wherever a user
 * object appears: SIS ids with the right to read SIS data; logins and email addresses with that or
 * the right to manage logins (the helpdesk's). Oneself sees all; a teacher sees their students' (the
 * rights held in a course they share); a classmate sees none.
 */
export function personalRights(ctx: MockCtx, u: UserRow): { sis: boolean; logins: boolean } {
  if (u.id === ctx.caller.id) return { sis: true, logins: true };
  const admin = once(ctx, 'personalRightsAsAdmin', () => ({
    sis: allows(ctx, usersPolicy.readSis, atRoot(ctx)),
    logins: allows(ctx, usersPolicy.readLogins, atRoot(ctx)),
  }));
  if (admin.sis) return admin;
  const inCourse = sharedCourses(ctx.db, ctx.caller.id, u.id).some((course) =>
    allows(ctx, usersPolicy.readSis, { course }),
  );
  return { sis: inCourse, logins: inCourse || admin.logins };
}

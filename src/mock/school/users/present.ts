// A user as the API shows them: their whole record, and the brief one nested in other records.
import type { BriefUser } from '../../../spec/types/roster.js';
import type { User } from '../../../spec/types/users.js';
import type { MockCtx, UserRow } from '../../kit.js';
import { personalRights } from './policy.js';
import { loginOf, primaryEmail, type ListedUser } from './repo.js';

/**
 * A user's record: their login and email address read here, unless the list that found them read them too (ListedUser).
 */
export function userJson(ctx: MockCtx, u: UserRow | ListedUser): User {
  const { db } = ctx;
  const rights = personalRights(ctx, u);
  const listed = 'primary_email' in u ? u : undefined;
  const login = !rights.logins
    ? undefined
    : listed
      ? {
          unique_id: listed.login_unique_id,
          sis_user_id: listed.login_sis_user_id,
          integration_id: listed.login_integration_id,
        }
      : loginOf(db, u.id);
  return {
    id: u.id,
    name: u.name,
    created_at: u.created_at,
    sortable_name: u.sortable_name,
    short_name: u.short_name,
    ...(rights.sis ? { sis_user_id: login?.sis_user_id ?? null, integration_id: login?.integration_id ?? null } : {}),
    ...(rights.logins ? { login_id: login?.unique_id ?? null } : {}),
    avatar_url: avatarUrl(ctx, u),
    ...(rights.logins ? { email: (listed ? listed.primary_email : primaryEmail(db, u.id)) ?? null } : {}),
    locale: u.locale,
    time_zone: u.time_zone,
    pronouns: u.pronouns,
    last_login: null,
  };
}

/** The user object nested in admins and enrollment lists; the login only for those who may read SIS data. */
export function briefUserJson(ctx: MockCtx, u: UserRow, withLogin: boolean): BriefUser {
  const login = withLogin ? loginOf(ctx.db, u.id) : undefined;
  return {
    id: u.id,
    name: u.name,
    sortable_name: u.sortable_name,
    short_name: u.short_name,
    ...(login ? { login_id: login.unique_id, sis_user_id: login.sis_user_id } : {}),
  };
}

export function avatarUrl(ctx: MockCtx, u: UserRow): string {
  return u.avatar_url ?? `${ctx.origin}/images/messages/avatar-50.png`;
}

// A user's logins (pseudonyms_controller.rb#index) and `user[event]`, which suspends or unsuspends
// them (users_controller.rb#update): both read and write the one pseudonyms.workflow_state that a SIS
// import's users.csv status also sets.
import { keysetSource, paginate, type Handler, type MockCtx, type UserRow } from '../../kit.js';
import { findUser } from '../lookup.js';
import { allows, permit } from '../access.js';
import { atRoot, mayReadLogins, usersPolicy } from '../../school/users/policy.js';
import { loginsOfUserQuery, setLoginsState } from '../../school/users/repo.js';

interface LoginRow {
  id: number;
  user_id: number;
  account_id: number;
  unique_id: string;
  sis_user_id: string | null;
  integration_id: string | null;
  authentication_provider_id: string | null;
  workflow_state: string;
  created_at: string;
}

/** A provider kept as its id is answered as a number, as real instances do; one kept as its type as given. */
function providerOf(raw: string | null): number | string | null {
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** pseudonym_json: the SIS and integration ids only to whoever reads SIS data on the login's account. */
function loginJson(ctx: MockCtx, p: LoginRow) {
  const sis = allows(ctx, usersPolicy.readSis, { account: { id: p.account_id } });
  return {
    id: p.id,
    user_id: p.user_id,
    account_id: p.account_id,
    unique_id: p.unique_id,
    ...(sis ? { sis_user_id: p.sis_user_id, integration_id: p.integration_id } : {}),
    authentication_provider_id: providerOf(p.authentication_provider_id),
    workflow_state: p.workflow_state,
    created_at: p.created_at,
  };
}

export const logins: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  permit(mayReadLogins(ctx, target));
  return paginate(ctx, keysetSource<LoginRow>(ctx.db, loginsOfUserQuery(target.id)), (p) => loginJson(ctx, p));
};

/**
 * `user[event]` of a users update the caller may make. As Canvas: oneself's event is ignored, but
 * only an admin may send one (anyone else's whole update is refused); a value other than suspend or
 * unsuspend is ignored, not refused.
 */
export function applyLoginEvent(ctx: MockCtx, target: UserRow, event: string | undefined): void {
  if (event === undefined) return;
  if (target.id === ctx.caller.id) {
    permit(allows(ctx, usersPolicy.manage, atRoot(ctx)));
    return;
  }
  if (event === 'suspend' || event === 'unsuspend')
    setLoginsState(ctx.db, target.id, event === 'suspend' ? 'suspended' : 'active');
}

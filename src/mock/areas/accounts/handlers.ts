// Accounts the caller administers (supporting endpoints: what workflows need to find account ids).
import type { Account } from '../../../spec/types/school.js';
import { keysetSource, paginate, type Handler } from '../../kit.js';
import { findAccount } from '../lookup.js';
import { demand } from '../access.js';
import { accountsAdministeredQuery } from '../admins/repo.js';
import { accountsPolicy } from './policy.js';
import type { AccountRow } from './repo.js';

function accountJson(a: AccountRow): Account {
  return {
    id: a.id,
    name: a.name,
    uuid: `acct-${a.id}`,
    parent_account_id: a.parent_account_id,
    root_account_id: a.root_account_id,
    sis_account_id: a.sis_account_id,
    workflow_state: a.workflow_state,
    default_time_zone: a.default_time_zone,
  };
}

export const list: Handler = (ctx) => {
  return paginate(ctx, keysetSource<AccountRow>(ctx.db, accountsAdministeredQuery(ctx.caller.id)), accountJson);
};

export const get: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.id);
  demand(ctx, accountsPolicy.get, { account });
  return accountJson(account);
};

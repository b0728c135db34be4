import { keysetSource, paginate, type Handler } from '../../kit.js';
import { findAccount } from '../lookup.js';
import { demand } from '../access.js';
import { accountsAdministeredQuery } from '../admins/repo.js';
import { accountsPolicy } from '../../school/accounts/policy.js';
import type { AccountRow } from '../../school/accounts/repo.js';
import { accountJson } from '../../school/accounts/present.js';

export const list: Handler = (ctx) => {
  return paginate(ctx, keysetSource<AccountRow>(ctx.db, accountsAdministeredQuery(ctx.caller.id)), accountJson);
};

export const get: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.id);
  demand(ctx, accountsPolicy.get, { account });
  return accountJson(account);
};

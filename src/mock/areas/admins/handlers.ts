// Account admins: list, add (a role on the account; AccountAdmin unless another is named) and
// remove. Adding is idempotent; removing names the role when it is not the default.
import type { Admin } from '../../../spec/types/roster.js';
import {
  HttpError,
  bool,
  int,
  list,
  notFound,
  paginate,
  keysetSource,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { findAccount, find, rootOf } from '../lookup.js';
import { demand } from '../access.js';
import { adminsPolicy } from './policy.js';
import {
  ACCOUNT_MEMBERSHIP,
  accountChain,
  builtInRole,
  roleById,
  roleByName,
  type AccountRow,
  type RoleRow,
} from '../../school/accounts/repo.js';
import { briefUserJson } from '../../school/users/present.js';
import { hasLoginIn, userById, users } from '../../school/users/repo.js';
import { addAdmin, adminsOfAccountQuery, findAdmin, removeAdmin, rolesQuery, type AdminRow } from './repo.js';

function adminJson(ctx: MockCtx, a: AdminRow, state = a.workflow_state): Admin {
  const role = roleById(ctx.db, a.role_id)!;
  const user = userById(ctx.db, a.user_id)!;
  return { id: a.id, role: role.name, role_id: role.id, user: briefUserJson(ctx, user, true), workflow_state: state };
}

function managedAccount(ctx: MockCtx): AccountRow {
  const account = findAccount(ctx, ctx.path.account_id);
  demand(ctx, adminsPolicy.manage, { account });
  return account;
}

/** `role_id`, else `role` by name, else AccountAdmin. Only account roles qualify. */
function adminRole(ctx: MockCtx, account: AccountRow, options: { fallBack: boolean }): RoleRow | undefined {
  const roleId = int(ctx.params, 'role_id');
  const name = str(ctx.params, 'role');
  let role =
    roleId !== undefined
      ? roleById(ctx.db, roleId)
      : name
        ? roleByName(ctx.db, name, account.id)
        : builtInRole(ctx.db, 'AccountAdmin');
  if (role && (role.base_role_type !== ACCOUNT_MEMBERSHIP || role.workflow_state !== 'active')) role = undefined;
  // Real instances quietly make an unknown role name an AccountAdmin when adding.
  if (!role && options.fallBack && roleId === undefined) role = builtInRole(ctx.db, 'AccountAdmin');
  return role;
}

const listAdmins: Handler = (ctx) => {
  const account = managedAccount(ctx);
  const userIds = list(ctx.params, 'user_id')
    .map((v) => Number(v))
    .filter(Number.isSafeInteger);
  return paginate(ctx, keysetSource<AdminRow>(ctx.db, adminsOfAccountQuery(account.id, userIds)), (a) =>
    adminJson(ctx, a),
  );
};

/** An account's roles: `state[]` active (the default) or inactive; `show_inherited` adds those above it. */
const listRoles: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  demand(ctx, adminsPolicy.roles, { account });
  const asked = list(ctx.params, 'state').filter((s) => s === 'active' || s === 'inactive');
  const states = asked.length ? asked : ['active'];
  const accounts = bool(ctx.params, 'show_inherited') === true ? accountChain(ctx.db, account.id) : [account.id];
  const root = rootOf(account);
  return paginate(ctx, keysetSource<RoleRow>(ctx.db, rolesQuery(accounts, states)), (r) => ({
    id: r.id,
    role: r.name,
    label: r.label,
    base_role_type: r.base_role_type,
    workflow_state: r.workflow_state,
    account: { id: r.account_id ?? root },
    is_account_role: r.base_role_type === ACCOUNT_MEMBERSHIP,
  }));
};

const create: Handler = (ctx) => {
  const account = managedAccount(ctx);
  const raw = str(ctx.params, 'user_id');
  if (!raw) throw new HttpError(400, { errors: [{ message: 'user_id is required' }] });
  const user = find(ctx, users, raw);
  // The user needs a login on the account's root account.
  if (!hasLoginIn(ctx.db, user.id, rootOf(account))) throw notFound(`Couldn't find User with API id ${raw}`);
  const role = adminRole(ctx, account, { fallBack: true });
  if (!role) throw new HttpError(400, { errors: [{ message: 'role_id does not name an account role' }] });
  // send_confirmation (default 1) would email the new admin; the mock has no mail to send.
  bool(ctx.params, 'send_confirmation');
  return adminJson(ctx, addAdmin(ctx.db, { account: account.id, user: user.id, role: role.id, now: ctx.now() }));
};

const remove: Handler = (ctx) => {
  const account = managedAccount(ctx);
  const user = find(ctx, users, ctx.path.user_id);
  const role = adminRole(ctx, account, { fallBack: false });
  const admin = role && findAdmin(ctx.db, account.id, user.id, role.id);
  if (!admin)
    throw notFound(`${user.name} has no ${role?.name ?? str(ctx.params, 'role') ?? 'such'} role on this account`);
  removeAdmin(ctx.db, admin.id);
  return adminJson(ctx, admin, 'deleted');
};

export const adminsHandlers = {
  'admins.list': listAdmins,
  'admins.create': create,
  'admins.delete': remove,
  'roles.list': listRoles,
};

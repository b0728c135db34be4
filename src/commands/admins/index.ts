// `lms admins`: who administers an account, and with which role.
import { item, list, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import { resolveUserPath } from '../../client/user-ref.js';

const COLUMNS = ['id', 'user.id', 'user.name', 'user.login_id', 'role', 'role_id', 'workflow_state'];
const account = {
  long: 'account',
  value: 'id',
  ids: 'account',
  description: 'account id, sis_account_id:X or self',
  required: true,
} as const;

const listAdmins = command({
  name: 'list',
  summary: "List an account's admins and their roles",
  aliases: ['ls'],
  routes: ['admins.list'],
  columns: COLUMNS,
  options: { account },
  examples: ['lms admins list --account 1'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return list(client.ops.admins.list({ account_id: opts.account }, { limit: ctx.pageLimit() }));
  },
});

const addAdmin = command({
  name: 'add',
  summary: 'Make a user an admin of an account (AccountAdmin unless --role names another account role)',
  routes: ['admins.create'],
  lookups: ['users.list'],
  columns: COLUMNS,
  options: {
    account,
    user: {
      long: 'user',
      value: 'id',
      ids: 'user',
      description: 'user id, sis_user_id:X, sis_login_id:X or email:X',
      required: true,
    },
    role: { long: 'role', value: 'role', description: 'an account role by name (default AccountAdmin)' },
    confirmation: { long: 'confirmation', negated: true, description: 'send the new admin no notification' },
  },
  examples: ['lms admins add --account 1 --user sis_login_id:jdoe --role Helpdesk'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    const user = await resolveUserPath(client, opts.user, { account_id: opts.account });
    return item(
      await client.ops.admins.create({
        account_id: opts.account,
        user_id: user,
        role: opts.role,
        send_confirmation: opts.confirmation,
      }),
    );
  },
});

const removeAdmin = command({
  name: 'remove',
  args: [{ name: 'user' }],
  summary: "Remove a user's admin role from an account (name the role unless it is AccountAdmin)",
  aliases: ['rm'],
  routes: ['admins.delete'],
  lookups: ['users.list'],
  columns: COLUMNS,
  options: { account, role: { long: 'role', value: 'role', description: 'the role to remove (default AccountAdmin)' } },
  examples: ['lms admins remove 2 --account 1 --role Helpdesk --yes'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    const user = await resolveUserPath(client, args[0], { account_id: opts.account });
    await ctx.confirm(`Remove the ${opts.role ?? 'AccountAdmin'} role of user ${args[0]} on account ${opts.account}`);
    return item(await client.ops.admins.delete({ account_id: opts.account, user_id: user, role: opts.role }));
  },
});

export const adminsVerbs: Verbs = [listAdmins, addAdmin, removeAdmin] as Verbs;
